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
///          8     4  version = 2      UInt32
///         12     4  entryCount       UInt32
///         16     …  entryCount entry records (EntryRecord, §1.3), back to back; nothing after
final class DictionaryStorage: CacheStorage, @unchecked Sendable {
    static let fileName = "cache.dictionary"
    static let magic = Array("ICDICT01".utf8)
    static let version: UInt32 = 2
    /// Files of this version are of format 1 (CRC-32 records, `Spec/backends.md` §6).
    static let formatOneVersion: UInt32 = 1

    private struct Entry {
        var value: [UInt8]
        var metadata: CacheEntryMetadata
        var version: UInt64
        /// The value failed its checksum on load; reading it reports corruption.
        var isDamaged = false
    }

    let directory: String
    let path: String
    let readOnly: Bool
    let mode: FlushMode
    // Guarded by `lock`; mutated only by the cache's one writer.
    private let lock = ReadWriteLock()
    private var entries: [[UInt8]: Entry] = [:]
    private var isClosed = false
    // Touched only by the writer.
    private var isDirty = false
    private var nextVersion: UInt64 = 1

    init(directory: String, readOnly: Bool, mode: FlushMode) throws(CacheError) {
        self.directory = directory
        self.readOnly = readOnly
        self.mode = mode
        path = directory + "/" + Self.fileName
        try load()
    }

    private func load() throws(CacheError) {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: path)
        } catch {
            throw CacheError(error)
        }
        guard let bytes else { return }
        var reader = ByteReader(bytes)
        guard let magic = reader.readBytes(8), Array(magic) == Self.magic else {
            throw .corruptFile(path: path, reason: "bad magic")
        }
        guard let version = reader.read(UInt32.self), let count = reader.read(UInt32.self) else {
            throw .corruptFile(path: path, reason: "truncated header")
        }
        guard version == Self.version else { throw .unsupportedFormatVersion(path: path, version: version) }
        for _ in 0..<count {
            switch EntryRecord.decode(from: &reader) {
            case .unreadable(let reason):
                throw .corruptFile(path: path, reason: reason)
            case .record(let record, let valueIsIntact):
                entries[record.key] = Entry(
                    value: record.value, metadata: record.metadata, version: nextVersion,
                    isDamaged: !valueIsIntact)
                nextVersion += 1
            }
        }
        guard reader.remaining == 0 else {
            throw .corruptFile(path: path, reason: "\(reader.remaining) bytes after the last entry")
        }
    }

    // MARK: Reads

    var entryCount: Int { lock.withReadLock { entries.count } }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? {
        try lock.withReadLock { () throws(CacheError) in
            if isClosed { throw .cacheClosed }
            return entries[key].map {
                EntryState(byteCount: $0.value.count, metadata: $0.metadata, version: $0.version)
            }
        }
    }

    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? {
        try lock.withReadLock { () throws(CacheError) in
            if isClosed { throw .cacheClosed }
            guard let entry = entries[key] else { return nil }
            if entry.isDamaged {
                throw .corruptEntry(key: displayKey(key), reason: "value checksum mismatch in \(path)")
            }
            return StoredValue(bytes: entry.value, metadata: entry.metadata, version: entry.version)
        }
    }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        try lock.withReadLock { () throws(CacheError) in
            if isClosed { throw .cacheClosed }
            for (key, entry) in entries {
                key.withUnsafeBytes {
                    body(
                        $0,
                        EntryState(
                            byteCount: entry.value.count, metadata: entry.metadata, version: entry.version))
                }
            }
        }
    }

    // MARK: Mutations (the cache's one writer)

    func write(_ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata)
        throws(CacheError)
    {
        let entry = Entry(value: Array(value), metadata: metadata, version: nextVersion)
        nextVersion += 1
        lock.withWriteLock { entries[key] = entry }
        isDirty = true
    }

    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {
        guard !updates.isEmpty else { return }
        lock.withWriteLock { for update in updates { entries[update.key]?.metadata = update.metadata } }
        isDirty = true
    }

    func remove(_ key: [UInt8]) throws(CacheError) {
        if lock.withWriteLock({ entries.removeValue(forKey: key) }) != nil { isDirty = true }
    }

    func removeAll() throws(CacheError) {
        lock.withWriteLock { entries.removeAll() }
        isDirty = true
    }

    /// Writes the whole file by durable atomic replacement when anything changed (§2.2).
    func synchronize() throws(CacheError) {
        guard isDirty, !readOnly else { return }
        let file = encodedFile()
        try cacheIO {
            try file.withUnsafeBytes {
                try FileSystem.writeFileAtomically($0, to: path, .durable, mode: mode)
            }
        }
        isDirty = false
    }

    /// The file bytes; entries in ascending key byte order so equal caches give equal files.
    /// A value that failed its checksum is left out: it stays corrupt on disk until rewritten.
    func encodedFile() -> [UInt8] {
        // The writer is the only mutator, so reading the map here needs no lock.
        let kept = entries.filter { !$0.value.isDamaged }
        let size = kept.reduce(16) { $0 + EntryRecord.overhead + $1.key.count + $1.value.value.count }
        var writer = ByteWriter(capacity: size)
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.append(UInt32(kept.count))
        for (key, entry) in kept.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            entry.value.withUnsafeBytes {
                EntryRecord.encode(key: key, value: $0, metadata: entry.metadata, into: &writer)
            }
        }
        return writer.bytes
    }

    func compact(now: Int64) throws(CacheError) {
        try synchronize()
    }

    func removeUnreferencedFiles() throws(CacheError) {
        guard !readOnly else { return }
        let folder = try cacheIO { try Directory(path: directory, followingLink: true) }
        for entry in try cacheIO({ try folder.entries() })
        where entry.kind != .directory && entry.name.hasPrefix(FileSystem.temporaryPrefix + Self.fileName) {
            try cacheIO { try folder.removeFile(entry.name) }
        }
    }

    func close() throws(CacheError) {
        try synchronize()
        lock.withWriteLock {
            isClosed = true
            entries.removeAll()
        }
    }

    func abandon() {
        lock.withWriteLock {
            isClosed = true
            entries.removeAll()
        }
    }
}
