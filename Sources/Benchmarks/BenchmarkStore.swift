import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import PNG
#endif

/// The operations the experiments drive, so each experiment is written once and runs over every
/// cache backend and over the raw-file baseline alike (the seeds' "one protocol to rule them all").
///
/// A store is opened by its ``BenchmarkSubject`` on a directory and closed with ``close()``
/// (explicitly: a thread or closure that still holds a reference must not keep files locked).
/// Implementations must be safe to call from several threads at once (the concurrency
/// experiment shares one store between three threads).
public protocol BenchmarkStore: AnyObject, Sendable {
    /// Stores `value` under `key`, replacing what was there.
    func store(_ value: [UInt8], forKey key: String) throws
    /// The value stored under `key`, or `nil`.
    func value(forKey key: String) throws -> [UInt8]?
    /// Removes every entry.
    func removeAll() throws
    /// Makes every change so far durable.
    func synchronize() throws
    /// The number of entries.
    var count: Int { get }
    /// The stored values' bytes and the bytes the store's files take on disk now.
    func diskUsage() throws -> DiskUsage
    /// Releases the store's files; the store is not used afterwards.
    func close() throws
}

/// What a store holds, beside what it takes on disk for it: the difference is the store's
/// overhead (index, record headers, dead data, whole file-system blocks).
public struct DiskUsage: Sendable, Equatable {
    /// The sum of the stored values' lengths.
    public var valueBytes: Int
    /// The bytes allocated on disk for every file of the store (`st_blocks` × 512).
    public var diskBytes: Int

    public init(valueBytes: Int, diskBytes: Int) {
        self.valueBytes = valueBytes
        self.diskBytes = diskBytes
    }
}

/// A store that also expires entries: what the purge experiment needs.
public protocol BenchmarkExpiringStore: BenchmarkStore {
    /// Removes the entries that have expired by the store's clock; returns how many.
    func purgeExpired() throws -> Int
    /// Gives the space of removed entries back to the file system.
    func compact() throws
}

/// A store that also holds images, encoding them to PNG and decoding them on the way back:
/// what the image variant of the store-then-synchronize protocol needs.
public protocol BenchmarkImageStore: BenchmarkStore {
    func store(_ bitmap: Bitmap, forKey key: String) throws
    func bitmap(forKey key: String) throws -> Bitmap?
}

/// Where and how a subject opens its store.
public struct StoreSettings: Sendable {
    /// The store's own directory; it may already hold a store from an earlier open.
    public var directory: URL
    /// Milliseconds an entry lives after it is stored; `nil` for never.
    public var timeToLive: Int64?
    /// The clock the store reads (the cache's injectable clock); experiments that expire entries
    /// pass a `ManualClock` and move it by hand. `nil` for the system clock.
    public var clock: (any CacheClock)?

    public init(directory: URL, timeToLive: Int64? = nil, clock: (any CacheClock)? = nil) {
        self.directory = directory
        self.timeToLive = timeToLive
        self.clock = clock
    }
}

/// Something to measure: a cache backend, or the raw-file baseline the backends are compared with.
public struct BenchmarkSubject: Sendable {
    public enum Role: Sendable, Equatable {
        /// One of the cache's backends.
        case backend
        /// A reference point that is not the cache (plain files through POSIX calls).
        case baseline
    }

    /// The name printed in the `backend` field, for example `log` or `raw-file`.
    public var name: String
    public var role: Role
    /// Opens (or creates) the store in `settings.directory`.
    public var open: @Sendable (StoreSettings) throws -> any BenchmarkStore

    public init(
        name: String, role: Role, open: @escaping @Sendable (StoreSettings) throws -> any BenchmarkStore
    ) {
        self.name = name
        self.role = role
        self.open = open
    }
}
