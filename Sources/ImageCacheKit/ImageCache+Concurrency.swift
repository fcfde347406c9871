import Dispatch
import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

// The async API, for Swift concurrency callers (`Spec/cache.md` §10).
//
// Each method runs its synchronous twin on a Dispatch global queue and suspends the caller
// until it finishes, so file I/O, checksums and PNG coding never block the caller's executor
// (an actor, the main actor, or the cooperative thread pool). In an async context Swift picks
// these over the synchronous methods of the same name. The contract is the synchronous one:
// any number of calls may run at once; reads run in parallel; each call takes effect
// atomically, in an order consistent with each task's order of calls. A call that has started
// runs to completion: cancelling the task does not interrupt it.
extension ImageCache {
    /// Opens a cache off the caller's executor; see ``init(configuration:)``.
    public static func open(configuration: CacheConfiguration) async throws(CacheError) -> ImageCache {
        try await offload { () throws(CacheError) in try ImageCache(configuration: configuration) }
    }

    /// Runs `work` on a global queue and returns its result to the suspended caller.
    static func offload<Value: Sendable>(_ work: @escaping @Sendable () throws(CacheError) -> Value)
        async throws(CacheError) -> Value
    {
        let outcome: Result<Value, CacheError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(CacheError) in try work() })
            }
        }
        return try outcome.get()
    }

    /// Stores `data` under `key`, off the caller's executor; see the synchronous
    /// `store(_:forKey:)` for the rules and errors.
    public func store(_ data: Data, forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(data, forKey: key) }
    }

    /// Stores `bytes` under `key`, off the caller's executor; see the synchronous
    /// `store(_:forKey:)` for the rules and errors.
    public func store(_ bytes: [UInt8], forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(bytes, forKey: key) }
    }

    /// Encodes `bitmap` to PNG and stores it under `key`, off the caller's executor; see the
    /// synchronous `store(_:forKey:)` for the rules and errors.
    public func store(_ bitmap: Bitmap, forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(bitmap, forKey: key) }
    }

    /// The value stored under `key` as `Data`, or nil on a miss, read off the caller's
    /// executor; see the synchronous `data(forKey:)`.
    public func data(forKey key: String) async throws(CacheError) -> Data? {
        try await Self.offload { () throws(CacheError) in try self.data(forKey: key) }
    }

    /// The value stored under `key` as bytes, or nil on a miss, read off the caller's
    /// executor; see the synchronous `bytes(forKey:)`.
    public func bytes(forKey key: String) async throws(CacheError) -> [UInt8]? {
        try await Self.offload { () throws(CacheError) in try self.bytes(forKey: key) }
    }

    /// The bitmap stored under `key`, or nil on a miss, read and decoded off the caller's
    /// executor; see the synchronous `bitmap(forKey:)`.
    public func bitmap(forKey key: String) async throws(CacheError) -> Bitmap? {
        try await Self.offload { () throws(CacheError) in try self.bitmap(forKey: key) }
    }

    /// The image under `key` downsampled to fit `maximumPixelSize` × `maximumPixelSize`,
    /// made or read off the caller's executor; see the synchronous
    /// `variant(forKey:maximumPixelSize:)`.
    public func variant(forKey key: String, maximumPixelSize: Int) async throws(CacheError) -> Bitmap? {
        try await Self.offload { () throws(CacheError) in
            try self.variant(forKey: key, maximumPixelSize: maximumPixelSize)
        }
    }

    /// Stores `data` under the URL's `absoluteString`, off the caller's executor.
    public func store(_ data: Data, forKey url: URL) async throws(CacheError) {
        try await store(data, forKey: url.absoluteString)
    }

    /// The value stored under the URL's `absoluteString`, or nil, read off the caller's
    /// executor.
    public func data(forKey url: URL) async throws(CacheError) -> Data? {
        try await data(forKey: url.absoluteString)
    }

    /// The bitmap stored under the URL's `absoluteString`, or nil, read and decoded off the
    /// caller's executor.
    public func bitmap(forKey url: URL) async throws(CacheError) -> Bitmap? {
        try await bitmap(forKey: url.absoluteString)
    }

    /// Removes the entry for `key` off the caller's executor; returns whether a live entry
    /// was removed. See the synchronous `removeValue(forKey:)`.
    @discardableResult
    public func removeValue(forKey key: String) async throws(CacheError) -> Bool {
        try await Self.offload { () throws(CacheError) in try self.removeValue(forKey: key) }
    }

    /// Removes every entry, off the caller's executor; see the synchronous `removeAll()`.
    public func removeAll() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.removeAll() }
    }

    /// Makes every change so far durable, off the caller's executor; see the synchronous
    /// `synchronize()`.
    public func synchronize() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.synchronize() }
    }

    /// Removes every expired entry off the caller's executor; returns how many. See the
    /// synchronous `purgeExpired()`.
    @discardableResult
    public func purgeExpired() async throws(CacheError) -> Int {
        try await Self.offload { () throws(CacheError) in try self.purgeExpired() }
    }

    /// Purges, then lets the backend reclaim space, off the caller's executor; see the
    /// synchronous `compact()`.
    public func compact() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.compact() }
    }

    /// Reads every held entry and checks it, off the caller's executor; see the synchronous
    /// `verify()`.
    public func verify() async throws(CacheError) -> CacheVerificationReport {
        try await Self.offload { () throws(CacheError) in try self.verify() }
    }

    /// Synchronizes and releases the cache's files and lock, off the caller's executor; see the
    /// synchronous `close()`.
    public func close() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.close() }
    }
}
