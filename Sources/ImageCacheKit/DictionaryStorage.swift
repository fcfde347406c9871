#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The `dictionary` backend (`Spec/backends.md` §2): every entry in memory, written wholesale
/// to one file by `synchronize()` and read wholesale on open.
///
/// File `cache.dictionary`:
///
///     offset  size  field
///          0     8  magic "ICDICT01"
///          8     4  version = 2, or 3 when an entry has user metadata (§1.9)
///         12     4  entryCount       UInt32
///         16     …  entryCount entry records (EntryRecord, §1.3), back to back; nothing after
final class DictionaryStorage: CacheStorage, @unchecked Sendable {
    static let fileName = "cache.dictionary"
    static let magic = Array("ICDICT01".utf8)
    static let version: UInt32 = 2
    /// Records carry user metadata (`Spec/backends.md` §1.9); written only when one has some.
    static let userMetadataVersion: UInt32 = 3
    /// Files of this version are of format 1 (CRC-32 records, `Spec/backends.md` §6).
    static let formatOneVersion: UInt32 = 1

    struct Entry: TableEntry {
        var value: [UInt8]
        var metadata: CacheEntryMetadata
        var version: UInt64
        var userMetadata: [UInt8] = []
        /// The value failed its checksum on load; reading it reports corruption.
        var isDamaged = false

        var byteCount: Int { value.count }
    }

    let directory: String
    let path: String
    let readOnly: Bool
    let mode: FlushMode
    let table = EntryTable<Entry>()

    init(directory: String, readOnly: Bool, mode: FlushMode) throws(CacheError) {
        self.directory = directory
        self.readOnly = readOnly
        self.mode = mode
        path = directory + "/" + Self.fileName
        try load()
        // A reader loads the file again when the writer replaced it (§1.5).
        if readOnly { table.follow(path) { [unowned self] () throws(CacheError) in try load() } }
    }

    func takeChanges() throws(CacheError) -> [StorageChange] { table.takeReload() }

    private func load() throws(CacheError) {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: path)
        } catch {
            throw CacheError(error)
        }
        guard let bytes else { return table.load([:], dirty: false) }
        var reader = ByteReader(bytes)
        guard let magic = reader.readBytes(8), Array(magic) == Self.magic else {
            throw .corruptFile(path: path, reason: "bad magic")
        }
        guard let version = reader.read(UInt32.self), let count = reader.read(UInt32.self) else {
            throw .corruptFile(path: path, reason: "truncated header")
        }
        guard version == Self.version || version == Self.userMetadataVersion else {
            throw .unsupportedFormatVersion(path: path, version: version)
        }
        var entries: [[UInt8]: Entry] = [:]
        for _ in 0..<count {
            let decoded = EntryRecord.decode(
                from: &reader, withUserMetadata: version == Self.userMetadataVersion)
            switch decoded {
            case .unreadable(let reason):
                throw .corruptFile(path: path, reason: reason)
            case .record(let record, let valueIsIntact):
                entries[record.key] = Entry(
                    value: record.value, metadata: record.metadata, version: 0,
                    userMetadata: record.userMetadata,
                    isDamaged: !valueIsIntact)
            }
        }
        guard reader.remaining == 0 else {
            throw .corruptFile(path: path, reason: "\(reader.remaining) bytes after the last entry")
        }
        table.load(entries, dirty: false)
    }

    // MARK: Reads

    var entryCount: Int { table.count }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? { try table.state(forKey: key) }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        try table.forEachEntry(body)
    }

    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? {
        guard let entry = try table.entry(forKey: key) else { return nil }
        if entry.isDamaged {
            throw .corruptEntry(key: displayKey(key), reason: "value checksum mismatch in \(path)")
        }
        return StoredValue(bytes: entry.value, metadata: entry.metadata, version: entry.version)
    }

    // MARK: Mutations (the cache's one writer)

    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError) {
        table.set(
            Entry(
                value: Array(value), metadata: metadata, version: table.takeVersion(),
                userMetadata: userMetadata),
            forKey: key)
    }

    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]? {
        try table.entry(forKey: key)?.userMetadata
    }

    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool {
        table.setUserMetadata(userMetadata, forKey: key)
    }

    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {
        table.updateMetadata(updates)
    }

    func remove(_ key: [UInt8]) throws(CacheError) { table.remove(key) }

    func removeAll() throws(CacheError) { table.removeAll() }

    /// Writes the whole file by durable atomic replacement when anything changed (§2.2).
    func synchronize() throws(CacheError) {
        guard table.isDirty, !readOnly else { return }
        let file = encodedFile()
        try cacheIO { () throws(SystemCallError) in
            try withBytes(of: file) { (bytes) throws(SystemCallError) in
                try FileSystem.writeFileAtomically(bytes, to: path, .durable, mode: mode)
            }
        }
        table.isDirty = false
    }

    /// The file bytes; entries in ascending key byte order so equal caches give equal files.
    /// A value that failed its checksum is left out: it stays corrupt on disk until rewritten.
    func encodedFile() -> [UInt8] {
        let kept = table.writerSnapshot.filter { !$0.value.isDamaged }
        // Version 2 while no entry has user metadata, so such a file stays readable by a
        // reader that knows only version 2 (§1.9).
        let withUserMetadata = kept.contains { !$0.value.userMetadata.isEmpty }
        let size = kept.reduce(16) {
            $0 + EntryRecord.userMetadataOverhead + $1.key.count + $1.value.userMetadata.count
                + $1.value.value.count
        }
        var writer = ByteWriter(capacity: size)
        writer.append(Self.magic)
        writer.append(withUserMetadata ? Self.userMetadataVersion : Self.version)
        writer.append(UInt32(kept.count))
        for (key, entry) in kept.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            entry.value.withUnsafeBytes {
                EntryRecord.encode(
                    key: key, value: $0, metadata: entry.metadata,
                    userMetadata: withUserMetadata ? entry.userMetadata : nil, into: &writer)
            }
        }
        return writer.bytes
    }

    func compact(now: Int64) throws(CacheError) {
        try synchronize()
    }

    func removeUnreferencedFiles() throws(CacheError) {
        guard !readOnly else { return }
        try removeLeftoverTemporaryFiles(of: Self.fileName, in: directory)
    }

    func close() throws(CacheError) {
        try synchronize()
        table.close()
    }

}
