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

    public func store(_ data: Data, forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(data, forKey: key) }
    }

    public func store(_ bytes: [UInt8], forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(bytes, forKey: key) }
    }

    public func store(_ bitmap: Bitmap, forKey key: String) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.store(bitmap, forKey: key) }
    }

    public func data(forKey key: String) async throws(CacheError) -> Data? {
        try await Self.offload { () throws(CacheError) in try self.data(forKey: key) }
    }

    public func bytes(forKey key: String) async throws(CacheError) -> [UInt8]? {
        try await Self.offload { () throws(CacheError) in try self.bytes(forKey: key) }
    }

    public func bitmap(forKey key: String) async throws(CacheError) -> Bitmap? {
        try await Self.offload { () throws(CacheError) in try self.bitmap(forKey: key) }
    }

    public func variant(forKey key: String, maximumPixelSize: Int) async throws(CacheError) -> Bitmap? {
        try await Self.offload { () throws(CacheError) in
            try self.variant(forKey: key, maximumPixelSize: maximumPixelSize)
        }
    }

    public func store(_ data: Data, forKey url: URL) async throws(CacheError) {
        try await store(data, forKey: url.absoluteString)
    }

    public func data(forKey url: URL) async throws(CacheError) -> Data? {
        try await data(forKey: url.absoluteString)
    }

    public func bitmap(forKey url: URL) async throws(CacheError) -> Bitmap? {
        try await bitmap(forKey: url.absoluteString)
    }

    @discardableResult
    public func removeValue(forKey key: String) async throws(CacheError) -> Bool {
        try await Self.offload { () throws(CacheError) in try self.removeValue(forKey: key) }
    }

    public func removeAll() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.removeAll() }
    }

    public func synchronize() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.synchronize() }
    }

    @discardableResult
    public func purgeExpired() async throws(CacheError) -> Int {
        try await Self.offload { () throws(CacheError) in try self.purgeExpired() }
    }

    public func compact() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.compact() }
    }

    public func verify() async throws(CacheError) -> CacheVerificationReport {
        try await Self.offload { () throws(CacheError) in try self.verify() }
    }

    public func close() async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in try self.close() }
    }
}
