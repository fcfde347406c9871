import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import LogStore
#endif

/// The `log` backend (`Spec/backends.md` §4): one LogStore file, `cache.log`, holding each
/// entry's value and metadata; a hit appends a metadata-only touch record.
final class LogStorage: CacheStorage {
    static let fileName = "cache.log"

    let directory: String
    let store: LogStore

    init(directory: String, fileName: String = LogStorage.fileName) throws(CacheError) {
        self.directory = directory
        try FileSystem.createDirectory(at: directory)
        let path = directory + "/" + fileName
        // The cache decides when to compact (after purging, so its index and the log agree).
        let options = LogStore.Options(compactionDeadRatio: nil)
        do {
            store = try LogStore(path: path, options: options)
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// The LogStore key for a cache key (`Spec/backends.md` §4.2).
    ///
    /// LogStore compares keys as Swift strings, where canonically equivalent strings ("é" as
    /// one scalar or as "e" plus a combining accent) are equal; the cache compares UTF-8 bytes.
    /// Keys with a byte of 0x80 or more, or starting with 0x01, are therefore stored as 0x01
    /// followed by the Base64 of their UTF-8 bytes: ASCII strings are equal exactly when their
    /// bytes are, so no two cache keys share a log key.
    static func logKey(forKey key: String) throws(CacheError) -> String {
        let utf8 = key.utf8
        if utf8.first != 0x01 && utf8.allSatisfy({ $0 < 0x80 }) { return key }
        let encoded = "\u{1}" + Data(utf8).base64EncodedString()
        guard encoded.utf8.count <= 65_535 else { throw .invalidKey(byteCount: utf8.count) }
        return encoded
    }

    /// The cache key for a LogStore key; the inverse of ``logKey(forKey:)``.
    static func cacheKey(forLogKey logKey: String) -> String {
        guard logKey.utf8.first == 0x01, let bytes = Data(base64Encoded: String(decoding: logKey.utf8.dropFirst(), as: UTF8.self)) else { return logKey }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func translate(_ error: LogStoreError, path: String) -> CacheError {
        switch error {
        case .ioError(let operation, let code, let path):
            return .ioFailure(operation: operation, path: path, errno: code)
        default:
            return .logStoreFailure(path: path, reason: error.description)
        }
    }

    func perform<Result>(_ body: () throws(LogStoreError) -> Result) throws(CacheError) -> Result {
        do {
            return try body()
        } catch {
            throw Self.translate(error, path: store.path)
        }
    }

    static func metadata(_ metadata: CacheEntryMetadata) -> EntryMetadata {
        EntryMetadata(createdAt: metadata.createdAt, expiresAt: metadata.expiresAt, accessSequence: metadata.accessSequence)
    }

    static func metadata(_ metadata: EntryMetadata) -> CacheEntryMetadata {
        CacheEntryMetadata(createdAt: metadata.createdAt, expiresAt: metadata.expiresAt, accessSequence: metadata.accessSequence)
    }

    func loadEntries() throws(CacheError) -> [StoredEntry] {
        store.entries().map {
            StoredEntry(key: Self.cacheKey(forLogKey: $0.key), byteCount: Int(clamping: $0.valueLength), metadata: Self.metadata($0.metadata))
        }
    }

    /// The raw log value; a damaged record is a corrupt entry (§4.3).
    func storedValue(forKey key: String) throws(CacheError) -> [UInt8] {
        let logKey = try Self.logKey(forKey: key)
        let value: [UInt8]?
        do {
            value = try store.value(forKey: logKey)
        } catch {
            switch error {
            case .checksumMismatch, .truncatedRecord:
                throw .corruptEntry(key: key, reason: error.description)
            default:
                throw Self.translate(error, path: store.path)
            }
        }
        // The cache's index and the log disagree only if the log changed behind the cache.
        guard let value else { throw .corruptEntry(key: key, reason: "missing from \(store.path)") }
        return value
    }

    func value(forKey key: String) throws(CacheError) -> [UInt8] {
        try storedValue(forKey: key)
    }

    func write(_ value: [UInt8], forKey key: String, metadata: CacheEntryMetadata) throws(CacheError) {
        let logKey = try Self.logKey(forKey: key)
        try perform { () throws(LogStoreError) in try store.put(value, forKey: logKey, metadata: Self.metadata(metadata)) }
    }

    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError) {
        let logKey = try Self.logKey(forKey: key)
        try perform { () throws(LogStoreError) in try store.updateMetadata(Self.metadata(metadata), forKey: logKey) }
    }

    func removeValue(forKey key: String) throws(CacheError) {
        let logKey = try Self.logKey(forKey: key)
        try perform { () throws(LogStoreError) in try store.removeValue(forKey: logKey) }
    }

    func removeAll() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.removeAll() }
    }

    func synchronize() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.synchronize() }
    }

    func compact(now: Int64) throws(CacheError) {
        _ = try perform { () throws(LogStoreError) in try store.compact(now: now) }
    }

    /// Compaction pays once dead records are over half of a file of at least 4 MiB (§4.4).
    var compactionIsDue: Bool {
        let statistics = store.statistics
        return statistics.fileSize >= 4 << 20 && statistics.deadBytes * 2 > statistics.fileSize
    }

    func removeUnreferencedFiles() throws(CacheError) {}

    func close() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.close() }
    }
}
