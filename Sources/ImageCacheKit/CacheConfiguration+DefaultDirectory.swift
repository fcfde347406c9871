import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

extension CacheConfiguration {
    /// The platform's cache folder for a cache named `name` (`Spec/cache.md` §3.2).
    ///
    /// - Linux and other non-Apple platforms: `$XDG_CACHE_HOME/<name>` when that variable holds
    ///   an absolute path, otherwise `~/.cache/<name>`.
    /// - Apple platforms: `Library/Caches/<name>` in the user domain; the folder is created
    ///   and marked excluded from backup (as every writable open marks its folder).
    /// - Throws: ``CacheError/ioFailure(operation:path:errno:)`` when the folder cannot be made.
    public static func defaultDirectory(named name: String) throws(CacheError) -> URL {
        let url = defaultDirectory(named: name, environment: ProcessInfo.processInfo.environment)
        #if canImport(Darwin)
            try cacheIO { () throws(SystemCallError) in try FileSystem.createDirectory(url.path) }
            BackupExclusion.exclude(folderAt: url.path)
        #endif
        return url
    }

    /// The folder, computed without touching the disk; `environment` is injectable for tests.
    static func defaultDirectory(named name: String, environment: [String: String]) -> URL {
        #if canImport(Darwin)
            let caches =
                FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Caches")
            return caches.appendingPathComponent(name, isDirectory: true)
        #else
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                    name, isDirectory: true)
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache", isDirectory: true)
                .appendingPathComponent(name, isDirectory: true)
        #endif
    }
}
