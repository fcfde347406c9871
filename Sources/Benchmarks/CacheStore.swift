import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import PNG
#endif

/// One of the cache's backends seen through the benchmarks' store protocol: every call goes
/// straight to ``ImageCache`` with its default configuration (no memory tier), so the figures
/// are what an application gets.
final class CacheStore: BenchmarkExpiringStore, BenchmarkImageStore {
    let cache: ImageCache

    init(backend: Backend, settings: StoreSettings) throws {
        var configuration = CacheConfiguration(
            directory: settings.directory, backend: backend,
            timeToLive: settings.timeToLive.map { Duration.milliseconds($0) })
        if let clock = settings.clock { configuration.clock = clock }
        cache = try ImageCache(configuration: configuration)
    }

    deinit {
        // The experiments close every store they finish with; this only covers a store left
        // behind by a failed experiment, whose error is already on its way to the user.
        try? cache.close()
    }

    func store(_ value: [UInt8], forKey key: String) throws { try cache.store(value, forKey: key) }
    func value(forKey key: String) throws -> [UInt8]? { try cache.bytes(forKey: key) }
    func store(_ bitmap: Bitmap, forKey key: String) throws { try cache.store(bitmap, forKey: key) }
    func bitmap(forKey key: String) throws -> Bitmap? { try cache.bitmap(forKey: key) }
    func removeAll() throws { try cache.removeAll() }
    func synchronize() throws { try cache.synchronize() }
    func purgeExpired() throws -> Int { try cache.purgeExpired() }
    func compact() throws { try cache.compact() }
    func close() throws { try cache.close() }
    var count: Int { cache.count }

    /// The cache's own figures (`CacheStatistics`): value bytes, variants included, and
    /// `diskBytes`.
    func diskUsage() throws -> DiskUsage {
        let statistics = cache.statistics
        return DiskUsage(
            valueBytes: statistics.bytes + statistics.variantBytes, diskBytes: statistics.diskBytes)
    }
}

extension BenchmarkSubjects {
    /// Every backend the cache offers, as subjects, in the cache's own order.
    static var cacheBackends: [BenchmarkSubject] {
        Backend.allCases.map { backend in
            BenchmarkSubject(name: backend.rawValue, role: .backend) { settings in
                try CacheStore(backend: backend, settings: settings)
            }
        }
    }

    /// The backend a configuration gets when it names none.
    static var cacheDefaultBackend: String {
        CacheConfiguration(directory: URL(fileURLWithPath: "/")).backend.rawValue
    }
}
