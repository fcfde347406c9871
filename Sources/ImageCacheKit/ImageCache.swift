#if !IMAGECACHE_SINGLE_MODULE
    import LogStoreKit
    import Platform
#endif

/// A persistent cache of images and raw data with sliding expiration, a hard maximum age,
/// size and count limits, and an optional memory tier, over one of four backends.
///
/// Every rule lives here, once (`Spec/cache.md`); the backends only persist entries and keep
/// the one in-memory index of them, so switching ``Backend`` changes cost, never behaviour.
///
/// Thread safety (`Spec/cache.md` §10): every method may be called from any number of
/// threads at once. Reads (`data(forKey:)`, `bytes(forKey:)`, `withValue(forKey:_:)`,
/// `bitmap(forKey:)`) take no cache-wide lock: reads of different keys run in parallel and do
/// not wait for a writer's file I/O. Every other operation takes the writer lock, one at a
/// time. A read's bookkeeping (sliding expiry, recency) is recorded by the reader and applied
/// by the next operation that takes the writer lock, before anything else, so operations
/// still take effect in an order consistent with each thread's (and task's) program order.
/// PNG encoding and decoding run outside every lock.
///
/// Lifecycle: `close()` synchronizes and releases the folder. A cache whose last reference
/// goes away, and every cache still open when the process exits normally, is closed the same
/// way, so nothing stored is lost on a normal exit (`Spec/cache.md` §5.5).
public final class ImageCache: @unchecked Sendable {
    /// The configuration the cache was opened with.
    public let configuration: CacheConfiguration
    /// How many expired entries opening removed (`Spec/cache.md` §5.1).
    public private(set) var expiredEntriesRemovedOnOpen = 0
    /// How many damaged spans of synchronized data opening skipped (`log` and `hybrid`,
    /// `Spec/store.md` §5.4): each cost the entries whose records were in it, never the cache.
    /// 0 for the other backends, which report damage entry by entry when it is read.
    public private(set) var damagedRecordsSkippedOnOpen = 0

    let storage: any CacheStorage
    let folder: CacheFolder
    let clock: any CacheClock
    let timeToLive: Int64?
    let maximumAge: Int64?
    let hits = HitLog()
    let memory: MemoryTier<Bitmap>?

    /// Serializes every operation but reads (§10).
    let writerLock = MutualExclusion()
    // Guarded by `writerLock`.
    var nextSequence: UInt64 = 1
    /// The sum of the value lengths of every held entry, expired ones included (§6.1).
    var totalBytes = 0
    /// No held entry expires before this instant; lets count, keys and eviction skip scans.
    var expiryLowerBound = Int64.max
    var candidates = EvictionCandidates()
    var isClosed = false
    /// The sizes of the variants held for each original (`Spec/thumbnail.md` §5).
    var variants: [[UInt8]: Set<UInt32>] = [:]
    var variantCount = 0
    /// The bytes of the variants whose original is not held, which a read-only cache keeps
    /// (it changes nothing) but does not count (`Spec/thumbnail.md` §5.5, §5.6); 0 when writable.
    var orphanedVariantBytes = 0
    /// Set when opening skipped damaged records: a lost record may have been an original's
    /// newer value, so no stored variant is trusted to belong to the value held now
    /// (`Spec/thumbnail.md` §5.5); a read-only cache makes them again instead.
    var storedVariantsUntrusted = false

    /// Opens (or creates) the cache described by `configuration` and purges expired entries
    /// (`Spec/cache.md` §5.1).
    ///
    /// - Throws: ``CacheError/invalidConfiguration(reason:)`` for out-of-range settings;
    ///   ``CacheError/locked(path:byThisProcess:)`` when another instance writes to the folder;
    ///   ``CacheError/corruptFile(path:reason:)``, ``CacheError/unsupportedFormatVersion(path:version:)``,
    ///   ``CacheError/symbolicLink(path:)``, ``CacheError/ioFailure(operation:path:errno:)`` or
    ///   ``CacheError/logStoreFailure(path:reason:)`` when the backend's files cannot be opened.
    public init(configuration: CacheConfiguration) throws(CacheError) {
        try configuration.validate()
        self.configuration = configuration
        clock = configuration.clock
        timeToLive = configuration.timeToLiveMilliseconds
        maximumAge = configuration.maximumAgeMilliseconds
        memory = configuration.memoryCostLimit.map { MemoryTier(costLimit: $0) }
        let path = configuration.directory.standardizedFileURL.path
        let folder = try CacheFolder(
            path: path, readOnly: configuration.readOnly, shared: configuration.sharedAcrossProcesses)
        self.folder = folder
        if !configuration.readOnly { BackupExclusion.exclude(folderAt: path) }
        do {
            storage = try Self.makeStorage(for: configuration, path: path, folder: folder)
        } catch {
            // A writer that does not share holds the folder (`Spec/backends.md` §9.2).
            if folder.refusedBySoleWriter { throw .locked(path: path, byThisProcess: false) }
            throw error
        }
        // What opening changes, a sharing process changes under the others' lock (§9.3).
        try storage.withExclusiveAccess { () throws(CacheError) in
            _ = try storage.takeChanges()
            try recountFromStorage()
            try finishOpening()
        }
    }

    /// One scan of the backend's index sets what the cache derives from it: the counter
    /// (§2.5), the byte total, the earliest expiry and the variants of each original.
    func recountFromStorage() throws(CacheError) {
        var largestSequence: UInt64 = 0
        var total = 0
        var earliest = Int64.max
        var found: [VariantKey] = []
        try storage.forEachEntry { key, state in
            largestSequence = max(largestSequence, state.metadata.accessSequence)
            total = Self.saturatingSum(total, state.byteCount)
            earliest = min(earliest, state.metadata.expiresAt)
            if let variant = VariantKey(key) { found.append(variant) }
        }
        variants = [:]
        for variant in found { variants[variant.original, default: []].insert(variant.maximumPixelSize) }
        variantCount = found.count
        nextSequence = max(
            nextSequence, largestSequence &+ 1 == 0 ? .max : largestSequence + 1, storage.sharedSequence)
        totalBytes = total
        expiryLowerBound = earliest
        candidates.reset()
    }

    /// Opening's changes: untrusted variants, orphans and expired entries removed, stray files
    /// deleted (§5.1); a reader only counts what it keeps.
    private func finishOpening() throws(CacheError) {
        damagedRecordsSkippedOnOpen = storage.damagedRecordsSkipped
        if damagedRecordsSkippedOnOpen > 0 {
            if configuration.readOnly {
                storedVariantsUntrusted = true
            } else {
                for original in variants.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    try removeVariants(of: original)
                }
            }
        }
        if !configuration.readOnly {
            try removeOrphanedVariants()
            expiredEntriesRemovedOnOpen = try removeExpiredEntries(now: clock.now())
            try storage.removeUnreferencedFiles()
            OpenCaches.register(self)
        } else {
            orphanedVariantBytes = try orphanedVariantByteCount()
        }
        publishSequence()
    }

    deinit {
        // The last reference is gone: flush what was buffered, as close() does.
        try? close()
    }

    static func makeStorage(for configuration: CacheConfiguration, path: String, folder: CacheFolder)
        throws(CacheError) -> any CacheStorage
    {
        let readOnly = configuration.readOnly
        let mode = configuration.flushMode
        if readOnly && !folder.exists { return EmptyStorage() }
        try folder.checkForLinks(in: configuration.backend)
        if try folder.holdsFormatOne(configuration.backend) {
            if readOnly { return EmptyStorage() }
            try folder.discardFormatOne(configuration.backend)
        }
        // A sharing writer's log asks the folder whether it is the first (§9.2).
        let sharing =
            folder.shared
            ? LogStore.Sharing { () throws(SystemCallError) in try folder.isOnlyProcess() } : nil
        switch configuration.backend {
        case .dictionary:
            return try DictionaryStorage(directory: path, readOnly: readOnly, mode: mode)
        case .directory:
            return try DirectoryStorage(directory: path, readOnly: readOnly, mode: mode)
        case .log:
            if readOnly && !FileSystem.exists(path + "/" + LogStorage.fileName) { return EmptyStorage() }
            return try LogStorage(directory: path, readOnly: readOnly, mode: mode, sharing: sharing)
        case .hybrid:
            if readOnly && !FileSystem.exists(path + "/" + HybridStorage.logName) { return EmptyStorage() }
            return try HybridStorage(
                directory: path, threshold: configuration.externalStorageThreshold, readOnly: readOnly,
                mode: mode, sharing: sharing)
        }
    }

    /// Runs `body` under the writer lock, after applying every recorded hit (§10).
    /// - Throws: ``CacheError/cacheClosed`` after `close()`; ``CacheError/readOnly(path:)``
    ///   when `mutating` and the cache is read-only.
    func withWriterLock<Result>(mutating: Bool, _ body: () throws(CacheError) -> Result) throws(CacheError)
        -> Result
    {
        try writerLock.withLock { () throws(CacheError) -> Result in
            guard !isClosed else { throw .cacheClosed }
            if mutating && configuration.readOnly { throw .readOnly(path: folder.path) }
            // Shared, everything below runs under the lock every sharing process takes, on an
            // index caught up with theirs (`Spec/backends.md` §9.3).
            return try storage.withExclusiveAccess { () throws(CacheError) -> Result in
                try absorbChangesOfOtherProcesses()
                if mutating {
                    try applyRecordedHits()
                } else {
                    // An inspection reads no file and must not fail for a write it did not ask
                    // for: hits that cannot be applied are lost, never wrong (`Spec/cache.md`
                    // §10.3), and the answer comes from the index as it is.
                    do { try applyRecordedHits() } catch {}
                }
                let result = try body()
                publishSequence()
                return result
            }
        }
    }

    /// The bytes of a valid key (`Spec/cache.md` §2.1).
    static func validatedKey(_ key: String) throws(CacheError) -> [UInt8] {
        let bytes = Array(key.utf8)
        guard (1...65_535).contains(bytes.count) else { throw .invalidKey(byteCount: bytes.count) }
        return bytes
    }
}
