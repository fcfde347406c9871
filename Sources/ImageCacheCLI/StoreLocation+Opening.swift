import ImageCacheKit
import LogStoreKit

/// How a command opens the store at a location, uses it and closes it (`Spec/cache.md` §12.1).
extension StoreLocation {
    /// Opens the store for a command that reads, runs `body` on it and closes it.
    ///
    /// Log store files, and caches of every backend, are opened read-only (`Spec/cache.md`
    /// §5.6): no lock, nothing created, changed or deleted, so they can be inspected beside a
    /// writer and in a folder the user cannot write. `mustWrite` is for `get` and `variant` on
    /// a cache, whose hit extends the expiry and takes an access sequence number, unless
    /// `--read-only` asks it not to.
    func withStoreForReading<Result>(
        settings: CacheSettings, readOnly: Bool, mustWrite: Bool = false,
        _ body: (any OpenedStore) throws -> Result
    ) throws -> Result {
        let store: any OpenedStore
        switch self {
        case .logFile(let path):
            store = try LogStore(path: path, options: .init(readOnly: true))
        case .cacheFolder(_, _, exists: false):
            store = EmptyStore()
        case .cacheFolder(let directory, let backend, exists: true):
            let configuration = settings.configuration(
                directory: directory, backend: backend, readOnly: readOnly || !mustWrite)
            store = try Self.openCache(configuration)
        }
        return try Self.using(store, body)
    }

    /// Opens the store for a command that writes, runs `body` on it and closes it. A cache
    /// folder with no cache yet is created only when `creating` (`put`).
    func withStoreForWriting<Result>(
        settings: CacheSettings, creating: Bool = false, _ body: (any OpenedStore) throws -> Result
    ) throws -> Result {
        let store: any OpenedStore
        switch self {
        case .logFile(let path):
            store = try LogStore(path: path)
        case .cacheFolder(_, _, exists: false) where !creating:
            store = EmptyStore()
        case .cacheFolder(let directory, let backend, _):
            store = try Self.openCache(settings.configuration(directory: directory, backend: backend))
        }
        return try Self.using(store, body)
    }

    /// Opens a cache. A writer that finds the folder held by processes that share it (an app and
    /// its extensions, `Spec/backends.md` §9) joins them rather than fail with `locked`; a folder
    /// nobody shares is opened as a lone writer, so the tool leaves no coordination file behind.
    static func openCache(_ configuration: CacheConfiguration) throws -> ImageCache {
        do {
            return try ImageCache(configuration: configuration)
        } catch {
            guard case .locked(_, byThisProcess: false) = error, configuration.backend.canBeShared,
                !configuration.readOnly
            else { throw error }
            var sharing = configuration
            sharing.sharedAcrossProcesses = true
            return try ImageCache(configuration: sharing)
        }
    }

    /// Runs `body` on `store` and closes it, also when `body` throws (the body's error wins).
    private static func using<Result>(_ store: any OpenedStore, _ body: (any OpenedStore) throws -> Result)
        throws -> Result
    {
        let result: Result
        do {
            result = try body(store)
        } catch {
            try? store.close()
            throw error
        }
        try store.close()
        return result
    }
}
