import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

/// A persistent cache of images and raw data with sliding expiration, a hard maximum age,
/// size and count limits, and an optional memory tier, over one of four backends.
///
/// Every rule lives here, once (`Spec/cache.md`); the backends only persist entries and their
/// metadata, so switching ``Backend`` changes cost, never behaviour.
///
/// Thread safety: every method may be called from any number of threads at once. Operations
/// run one at a time under an internal lock, except PNG encoding and decoding, which run
/// outside it.
public final class ImageCache: @unchecked Sendable {
    /// The configuration the cache was opened with.
    public let configuration: CacheConfiguration

    struct IndexEntry {
        var key: String
        var byteCount: Int
        var metadata: CacheEntryMetadata
        /// Identifies one stored value within this process, so a bitmap decoded outside the
        /// lock is cached only if the entry was not replaced meanwhile.
        var generation: UInt64
    }

    let lock = NSLock()
    // Everything below is guarded by `lock`.
    var storage: any CacheStorage
    var index: [[UInt8]: IndexEntry] = [:]
    /// Keys from least to most recently used: ascending (accessSequence, key bytes).
    var recency = RecencyList<[UInt8]>()
    /// The sum of the value lengths of every held entry, expired ones included (§6.1).
    var totalBytes = 0
    var nextSequence: UInt64 = 1
    var nextGeneration: UInt64 = 1
    /// No held entry expires before this instant; lets count, keys and eviction skip scans.
    var expiryLowerBound = Int64.max
    var memory: MemoryTier<Bitmap>?
    var isClosed = false

    /// How many expired entries opening removed (`Spec/cache.md` §5.1).
    public private(set) var expiredEntriesRemovedOnOpen = 0

    /// Opens (or creates) the cache described by `configuration` and purges expired entries
    /// (`Spec/cache.md` §5).
    ///
    /// - Throws: ``CacheError/invalidConfiguration(reason:)`` for out-of-range settings;
    ///   ``CacheError/corruptFile(path:reason:)``, ``CacheError/unsupportedFormatVersion(path:version:)``,
    ///   ``CacheError/ioFailure(operation:path:errno:)`` or ``CacheError/logStoreFailure(path:reason:)``
    ///   when the backend's files cannot be opened.
    public init(configuration: CacheConfiguration) throws(CacheError) {
        try configuration.validate()
        self.configuration = configuration
        storage = try Self.makeStorage(for: configuration)
        if let limit = configuration.memoryCostLimit { memory = MemoryTier(costLimit: limit) }
        let loaded = try storage.loadEntries()
        let ordered = loaded.sorted { lhs, rhs in
            if lhs.metadata.accessSequence != rhs.metadata.accessSequence {
                return lhs.metadata.accessSequence < rhs.metadata.accessSequence
            }
            return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
        }
        for entry in ordered {
            let keyBytes = Array(entry.key.utf8)
            if let replaced = index[keyBytes] { totalBytes -= replaced.byteCount }
            index[keyBytes] = IndexEntry(
                key: entry.key, byteCount: entry.byteCount, metadata: entry.metadata,
                generation: nextGeneration)
            nextGeneration += 1
            recency.touch(keyBytes)
            totalBytes += entry.byteCount
            expiryLowerBound = min(expiryLowerBound, entry.metadata.expiresAt)
            nextSequence = max(nextSequence, entry.metadata.accessSequence &+ 1)
        }
        expiredEntriesRemovedOnOpen = try removeExpiredEntries(now: configuration.clock.now())
        try storage.removeUnreferencedFiles()
    }

    static func makeStorage(for configuration: CacheConfiguration) throws(CacheError) -> any CacheStorage {
        let path = configuration.directory.standardizedFileURL.path
        switch configuration.backend {
        case .dictionary: return try DictionaryStorage(directory: path)
        case .directory: return try DirectoryStorage(directory: path)
        case .log: return try LogStorage(directory: path)
        case .hybrid:
            return try HybridStorage(directory: path, threshold: configuration.externalStorageThreshold)
        }
    }

    /// Runs `body` under the lock; throws ``CacheError/cacheClosed`` after `close()`.
    func withLock<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .cacheClosed }
        return try body()
    }

    /// The UTF-8 bytes of a valid key (`Spec/cache.md` §2.1).
    static func validatedKey(_ key: String) throws(CacheError) -> [UInt8] {
        let bytes = Array(key.utf8)
        guard (1...65_535).contains(bytes.count) else { throw .invalidKey(byteCount: bytes.count) }
        return bytes
    }
}
