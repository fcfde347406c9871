import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The writable caches of this process that are still open, so that a normal exit closes them
/// as `close()` would: nothing a program stored is lost because it returned from `main` or
/// called `exit` without closing its cache (`Spec/cache.md` §5.5).
///
/// The list holds weak references: a cache whose last reference goes away closes itself in
/// `deinit` instead. A crash or a kill runs neither; what survives those is in the README.
enum OpenCaches {
    private final class WeakCache {
        weak var cache: ImageCache?
        init(_ cache: ImageCache) { self.cache = cache }
    }

    private static let lock = MutualExclusion()
    nonisolated(unsafe) private static var caches: [ObjectIdentifier: WeakCache] = [:]
    nonisolated(unsafe) private static var exitHandlerInstalled = false

    static func register(_ cache: ImageCache) {
        lock.withLock {
            caches[ObjectIdentifier(cache)] = WeakCache(cache)
            if !exitHandlerInstalled {
                exitHandlerInstalled = true
                atexit { OpenCaches.closeAll() }
            }
        }
    }

    static func unregister(_ cache: ImageCache) {
        lock.withLock { _ = caches.removeValue(forKey: ObjectIdentifier(cache)) }
    }

    /// Closes every cache still open; errors have nowhere to go at exit and are dropped.
    static func closeAll() {
        let open = lock.withLock { caches.values.compactMap(\.cache) }
        for cache in open { try? cache.close() }
    }
}
