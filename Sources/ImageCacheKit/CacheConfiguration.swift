import Foundation

/// How to open an ``ImageCache`` (`Spec/cache.md` §3).
public struct CacheConfiguration: Sendable {
    /// Where the entries live. Default ``Backend/log``.
    public var backend: Backend
    /// The folder that holds the backend's files; created when missing.
    public var directory: URL
    /// Sliding expiration in milliseconds: a store or hit makes the entry live this long from
    /// now. nil (the default) means entries do not slide-expire.
    public var timeToLive: Int64?
    /// Hard maximum age in milliseconds from the store; no read extends it. nil means none.
    public var maximumAge: Int64?
    /// The most value bytes (the sum of stored values' lengths) the cache holds. nil: no limit.
    public var maximumBytes: Int?
    /// The most entries the cache holds. nil: no limit.
    public var maximumEntryCount: Int?
    /// The source of time. Default ``SystemClock``.
    public var clock: any CacheClock
    /// The cost limit in bytes (decoded pixel bytes) of the in-memory tier of decoded bitmaps.
    /// nil (the default) turns the tier off.
    public var memoryCostLimit: Int?
    /// For ``Backend/hybrid``: values of at least this many bytes go to their own files.
    /// Default 131,072 (128 KiB).
    public var externalStorageThreshold: Int

    /// A configuration for a cache in `directory`; every other setting has the default stated
    /// on its property. Ranges are checked when the cache opens (`Spec/cache.md` §3.1).
    public init(
        directory: URL,
        backend: Backend = .log,
        timeToLive: Int64? = nil,
        maximumAge: Int64? = nil,
        maximumBytes: Int? = nil,
        maximumEntryCount: Int? = nil,
        clock: any CacheClock = SystemClock(),
        memoryCostLimit: Int? = nil,
        externalStorageThreshold: Int = 128 * 1024
    ) {
        self.directory = directory
        self.backend = backend
        self.timeToLive = timeToLive
        self.maximumAge = maximumAge
        self.maximumBytes = maximumBytes
        self.maximumEntryCount = maximumEntryCount
        self.clock = clock
        self.memoryCostLimit = memoryCostLimit
        self.externalStorageThreshold = externalStorageThreshold
    }

    /// Checks the ranges in `Spec/cache.md` §3.
    func validate() throws(CacheError) {
        if let timeToLive, timeToLive <= 0 {
            throw .invalidConfiguration(reason: "timeToLive must be positive, got \(timeToLive)")
        }
        if let maximumAge, maximumAge <= 0 {
            throw .invalidConfiguration(reason: "maximumAge must be positive, got \(maximumAge)")
        }
        if let maximumBytes, maximumBytes < 0 {
            throw .invalidConfiguration(reason: "maximumBytes must not be negative, got \(maximumBytes)")
        }
        if let maximumEntryCount, maximumEntryCount < 1 {
            throw .invalidConfiguration(
                reason: "maximumEntryCount must be at least 1, got \(maximumEntryCount)")
        }
        if let memoryCostLimit, memoryCostLimit < 0 {
            throw .invalidConfiguration(
                reason: "memoryCostLimit must not be negative, got \(memoryCostLimit)")
        }
        if externalStorageThreshold < 1 {
            throw .invalidConfiguration(
                reason: "externalStorageThreshold must be at least 1, got \(externalStorageThreshold)")
        }
        guard directory.isFileURL else { throw .invalidConfiguration(reason: "directory must be a file URL") }
    }
}
