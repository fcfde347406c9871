import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import LogStoreKit
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

    /// The cache's error for a LogStore error (`Spec/backends.md` §4.3): damage to the whole
    /// file is `corruptFile`, an unknown major version `unsupportedFormatVersion`, operating
    /// system failures `ioFailure`; anything else `logStoreFailure`.
    static func translate(_ error: LogStoreError, path storePath: String) -> CacheError {
        switch error {
        case .ioError(let operation, let code, let path):
            return .ioFailure(operation: operation, path: path, errno: code)
        case .diskFull(let path):
            return .ioFailure(operation: "write", path: path, errno: ENOSPC)
        case .fileSizeLimitExceeded(let path):
            return .ioFailure(operation: "write", path: path, errno: EFBIG)
        case .notAStore(let path), .corruptFileHeader(let path):
            return .corruptFile(path: path, reason: error.description)
        case .corruptRecord:
            return .corruptFile(path: storePath, reason: error.description)
        case .unsupportedVersion(let path, let major, _):
            return .unsupportedFormatVersion(path: path, version: UInt32(major))
        default:
            return .logStoreFailure(path: storePath, reason: error.description)
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
        EntryMetadata(
            createdAt: metadata.createdAt, expiresAt: metadata.expiresAt,
            accessSequence: metadata.accessSequence)
    }

    static func metadata(_ metadata: EntryMetadata) -> CacheEntryMetadata {
        CacheEntryMetadata(
            createdAt: metadata.createdAt, expiresAt: metadata.expiresAt,
            accessSequence: metadata.accessSequence)
    }

    func loadEntries() throws(CacheError) -> [StoredEntry] {
        store.entries().map {
            StoredEntry(
                key: $0.key, byteCount: Int(clamping: $0.valueLength), metadata: Self.metadata($0.metadata))
        }
    }

    /// The raw log value; a damaged record is a corrupt entry (§4.3).
    func storedValue(forKey key: String) throws(CacheError) -> [UInt8] {
        let value: [UInt8]?
        do {
            value = try store.value(forKey: key)
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
        try perform { () throws(LogStoreError) in
            try store.put(value, forKey: key, metadata: Self.metadata(metadata))
        }
    }

    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError) {
        try perform { () throws(LogStoreError) in
            try store.updateMetadata(Self.metadata(metadata), forKey: key)
        }
    }

    func removeValue(forKey key: String) throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.removeValue(forKey: key) }
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
