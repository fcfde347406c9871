/// The `dictionary` backend (`Spec/backends.md` §2): every entry in memory, written wholesale
/// to one file by `synchronize()` and read wholesale on open.
///
/// File `cache.dictionary`:
///
///     offset  size  field
///          0     8  magic "ICDICT01"
///          8     4  version = 1      UInt32
///         12     4  entryCount       UInt32
///         16     …  entryCount entry records (EntryRecord, §1.3), back to back; nothing after
final class DictionaryStorage: CacheStorage {
    static let fileName = "cache.dictionary"
    static let magic = Array("ICDICT01".utf8)
    static let version: UInt32 = 1

    private struct Entry {
        var key: String
        var value: [UInt8]
        var metadata: CacheEntryMetadata
    }

    let directory: String
    let path: String
    private var entries: [[UInt8]: Entry] = [:]
    /// Keys whose value failed its checksum on load; reading one reports corruption.
    private var corruptKeys: Set<[UInt8]> = []
    private var isDirty = false

    init(directory: String) throws(CacheError) {
        self.directory = directory
        path = directory + "/" + Self.fileName
        try FileSystem.createDirectory(at: directory)
    }

    func loadEntries() throws(CacheError) -> [StoredEntry] {
        guard let bytes = try FileSystem.readFile(at: path) else { return [] }
        var reader = ByteReader(bytes)
        guard let magic = reader.readBytes(8), Array(magic) == Self.magic else {
            throw .corruptFile(path: path, reason: "bad magic")
        }
        guard let version = reader.read(UInt32.self), let count = reader.read(UInt32.self) else {
            throw .corruptFile(path: path, reason: "truncated header")
        }
        guard version == Self.version else { throw .unsupportedFormatVersion(path: path, version: version) }
        var loaded: [[UInt8]: Entry] = [:]
        for _ in 0..<count {
            switch EntryRecord.decode(from: &reader) {
            case .unreadable(let reason):
                throw .corruptFile(path: path, reason: reason)
            case .record(let record, let valueIsIntact):
                if !valueIsIntact { corruptKeys.insert(record.key) }
                loaded[record.key] = Entry(
                    key: String(decoding: record.key, as: UTF8.self), value: record.value,
                    metadata: record.metadata)
            }
        }
        guard reader.remaining == 0 else {
            throw .corruptFile(path: path, reason: "\(reader.remaining) bytes after the last entry")
        }
        entries = loaded
        return loaded.values.map {
            StoredEntry(key: $0.key, byteCount: $0.value.count, metadata: $0.metadata)
        }
    }

    func value(forKey key: String) throws(CacheError) -> [UInt8] {
        let bytes = Array(key.utf8)
        if corruptKeys.contains(bytes) {
            throw .corruptEntry(key: key, reason: "value checksum mismatch in \(path)")
        }
        guard let entry = entries[bytes] else {
            throw .corruptEntry(key: key, reason: "missing from \(path)")
        }
        return entry.value
    }

    func write(_ value: [UInt8], forKey key: String, metadata: CacheEntryMetadata) throws(CacheError) {
        let bytes = Array(key.utf8)
        corruptKeys.remove(bytes)
        entries[bytes] = Entry(key: key, value: value, metadata: metadata)
        isDirty = true
    }

    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError) {
        entries[Array(key.utf8)]?.metadata = metadata
        isDirty = true
    }

    func removeValue(forKey key: String) throws(CacheError) {
        let bytes = Array(key.utf8)
        corruptKeys.remove(bytes)
        if entries.removeValue(forKey: bytes) != nil { isDirty = true }
    }

    func removeAll() throws(CacheError) {
        entries.removeAll()
        corruptKeys.removeAll()
        isDirty = true
    }

    func synchronize() throws(CacheError) {
        guard isDirty else { return }
        try FileSystem.writeAtomically(encodedFile(), to: path, durable: true)
        isDirty = false
    }

    /// The file bytes; entries in ascending key byte order so equal caches give equal files.
    func encodedFile() -> [UInt8] {
        let size = entries.values.reduce(16) {
            $0 + EntryRecord.overhead + $1.key.utf8.count + $1.value.count
        }
        var writer = ByteWriter(capacity: size)
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.append(UInt32(entries.count))
        for (key, entry) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            // A value that failed its checksum stays corrupt on disk until it is read and removed.
            if corruptKeys.contains(key) { continue }
            EntryRecord.encode(key: key, value: entry.value, metadata: entry.metadata, into: &writer)
        }
        let written = UInt32(entries.count - corruptKeys.count)
        withUnsafeBytes(of: written.littleEndian) { writer.bytes.replaceSubrange(12..<16, with: $0) }
        return writer.bytes
    }

    func compact(now: Int64) throws(CacheError) {
        try synchronize()
    }

    func removeUnreferencedFiles() throws(CacheError) {
        for name in try FileSystem.contentsOfDirectory(at: directory)
        where name.hasPrefix(FileSystem.temporaryPrefix + Self.fileName) {
            try FileSystem.removeFile(at: directory + "/" + name)
        }
    }

    func close() throws(CacheError) {
        try synchronize()
    }
}
