import Foundation
import ImageCacheKit
import LogStoreKit

/// A store opened for one command: every command works on both kinds of store through this
/// (`Spec/cache.md` §12.1).
enum OpenedStore {
    /// A cache folder that holds no cache yet: reads find nothing, and nothing is created.
    case empty
    /// A bare log store file.
    case log(LogStore)
    /// A cache opened through the library: read-only for the reading commands, writable (an
    /// open purges expired entries) for the others.
    case cache(ImageCache)

    /// Opens `location` for a command that reads.
    ///
    /// Log store files, and caches of every backend, are opened read-only (`Spec/cache.md`
    /// §5.6): no lock, nothing created, changed or deleted, so they can be inspected beside a
    /// writer and in a folder the user cannot write. `mustWrite` is for `get` on a cache, whose
    /// hit extends the expiry and takes an access sequence number, unless `--read-only` asks
    /// it not to.
    static func forReading(
        _ location: StoreLocation, settings: CacheSettings, readOnly: Bool, mustWrite: Bool = false
    ) throws -> OpenedStore {
        switch location {
        case .logFile(let path):
            return .log(try LogStore(path: path, options: .init(readOnly: true)))
        case .cacheFolder(_, _, exists: false):
            return .empty
        case .cacheFolder(let directory, let backend, exists: true):
            let configuration = settings.configuration(
                directory: directory, backend: backend, readOnly: readOnly || !mustWrite)
            return .cache(try ImageCache(configuration: configuration))
        }
    }

    /// Opens `location` for a command that writes; a cache folder with no cache yet is
    /// created only when `creating` (`put`).
    static func forWriting(_ location: StoreLocation, settings: CacheSettings, creating: Bool = false) throws
        -> OpenedStore
    {
        switch location {
        case .logFile(let path):
            return .log(try LogStore(path: path))
        case .cacheFolder(_, _, exists: false) where !creating:
            return .empty
        case .cacheFolder(let directory, let backend, _):
            return .cache(
                try ImageCache(configuration: settings.configuration(directory: directory, backend: backend)))
        }
    }

    /// Runs `body` on `store` and closes it, also when `body` throws (the body's error wins).
    static func using<Result>(_ store: OpenedStore, _ body: (OpenedStore) throws -> Result) throws -> Result {
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

    func close() throws {
        switch self {
        case .empty: break
        case .log(let store): try store.close()
        case .cache(let cache): try cache.close()
        }
    }

    /// The live entries at `now` in ascending order of the keys' UTF-8 bytes.
    func entries(at now: Int64) -> [ListedEntry] {
        switch self {
        case .empty:
            return []
        case .log(let store):
            return store.entries().filter { !$0.metadata.isExpired(at: now) }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .map {
                    ListedEntry(
                        key: $0.key, byteCount: $0.valueLength, createdAt: $0.metadata.createdAt,
                        expiresAt: $0.metadata.expiresAt, accessSequence: $0.metadata.accessSequence)
                }
        case .cache(let cache):
            // The cache's clock is the same `--now` or system clock.
            return cache.entries().map {
                ListedEntry(
                    key: $0.key, byteCount: UInt64($0.byteCount), createdAt: $0.metadata.createdAt,
                    expiresAt: $0.metadata.expiresAt, accessSequence: $0.metadata.accessSequence)
            }
        }
    }
}

/// One line of `ls`.
struct ListedEntry {
    var key: String
    var byteCount: UInt64
    var createdAt: Int64
    var expiresAt: Int64
    var accessSequence: UInt64
}
