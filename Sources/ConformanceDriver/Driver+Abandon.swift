import Foundation

// The cache's crash hook, `abandon()`, is internal to ImageCacheKit (a test hook, not API), so
// only a debug build, compiled for testing, reaches it; a release build of the driver answers
// `cache.abandon` with `unsupported`.
#if DEBUG && !IMAGECACHE_SINGLE_MODULE
    @testable import ImageCacheKit
#endif

extension Driver {
    /// `cache.abandon` (Spec/conformance.md §5.5): the session's cache stops as a crashed
    /// process would, writing nothing it buffered or deferred and releasing the folder's lock,
    /// so `runner.files` and the next `cache.reopen` see the files a crash leaves.
    func abandon(_ session: CacheSession) throws(RequestFailure) {
        #if DEBUG
            session.cache?.abandon()
            session.cache = nil
        #else
            throw RequestFailure(name: "unsupported")
        #endif
    }
}
