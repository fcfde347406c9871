import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// How to open an ``ImageCache`` (`Spec/cache.md` §3).
public struct CacheConfiguration: Sendable {
    /// Where the entries live. Default ``Backend/log``.
    public var backend: Backend
    /// The folder that holds the backend's files; created when missing (unless read-only).
    public var directory: URL
    /// Sliding expiration: a store or a hit makes the entry live this long from then. nil (the
    /// default) means entries do not slide-expire. Whole milliseconds count; at least 1 ms.
    public var timeToLive: Duration?
    /// Hard maximum age from the store, which no read extends. nil (the default) means none.
    /// Whole milliseconds count; at least 1 ms.
    public var maximumAge: Duration?
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
    /// Open without writing anything: no lock is taken, no file is created, changed or
    /// deleted, and every mutation throws ``CacheError/readOnly(path:)`` (`Spec/cache.md` §5.6).
    /// For example an app extension that reads the app's cache. Default false.
    public var readOnly: Bool
    /// With a value `M`, `store(_ bitmap:forKey:)` also stores the bitmap's thumbnail: its
    /// variant downsampled to fit `M` × `M` pixels (`Spec/thumbnail.md` §5.4). nil (the default)
    /// stores none; `variant(forKey:maximumPixelSize:)` still makes variants on demand.
    public var thumbnailMaximumPixelSize: Int?
    /// The limits `bitmap(forKey:)` decodes a stored PNG within. Default
    /// ``defaultDecodingLimits``: 89,478,485 pixels, as Pillow's decompression-bomb guard.
    public var decodingLimits: PNGLimits
    /// What `synchronize()` waits for on Apple platforms (`Spec/backends.md` §8.8): `.durable`
    /// (the default, `F_FULLFSYNC`: a power cut loses nothing synchronized) or `.ordered`
    /// (`F_BARRIERFSYNC`: much cheaper; a power cut may lose the last synchronizations, whole,
    /// and the cache opens with an earlier state). On Linux both make the data durable.
    public var flushMode: FlushMode
    /// Open the folder to write it together with the other processes that open it so: an app
    /// and its extensions (`Spec/backends.md` §9). Each sees the others' stores, removals and
    /// clears at its next operation, the limits and the LRU order apply to what they hold
    /// together, and a writer that does not share gets ``CacheError/locked(path:byThisProcess:)``.
    /// `log` and `hybrid` only (others throw ``CacheError/sharingUnsupported(backend:)``).
    /// Every change then takes a lock the processes share and is written to the file before it
    /// returns, so stores cost more than alone (`imagecache bench shared`). Default false.
    public var sharedAcrossProcesses: Bool

    /// The default ``decodingLimits``: at most 89,478,485 pixels (Pillow's `MAX_IMAGE_PIXELS`,
    /// about 341 MiB as RGBA8) and as many decompressed bytes as such an image needs in RGBA16.
    public static let defaultDecodingLimits = PNGLimits(
        maximumPixelCount: 89_478_485, maximumDecompressedBytes: 89_478_485 * 8 + 65_536)

    /// A configuration for a cache in `directory`; every other setting has the default stated
    /// on its property. Ranges are checked when the cache opens (`Spec/cache.md` §3.1).
    public init(
        directory: URL,
        backend: Backend = .log,
        timeToLive: Duration? = nil,
        maximumAge: Duration? = nil,
        maximumBytes: Int? = nil,
        maximumEntryCount: Int? = nil,
        clock: any CacheClock = SystemClock(),
        memoryCostLimit: Int? = nil,
        externalStorageThreshold: Int = 128 * 1024,
        readOnly: Bool = false,
        decodingLimits: PNGLimits = CacheConfiguration.defaultDecodingLimits,
        thumbnailMaximumPixelSize: Int? = nil,
        flushMode: FlushMode = .durable,
        sharedAcrossProcesses: Bool = false
    ) {
        self.sharedAcrossProcesses = sharedAcrossProcesses
        self.flushMode = flushMode
        self.thumbnailMaximumPixelSize = thumbnailMaximumPixelSize
        self.directory = directory
        self.backend = backend
        self.timeToLive = timeToLive
        self.maximumAge = maximumAge
        self.maximumBytes = maximumBytes
        self.maximumEntryCount = maximumEntryCount
        self.clock = clock
        self.memoryCostLimit = memoryCostLimit
        self.externalStorageThreshold = externalStorageThreshold
        self.readOnly = readOnly
        self.decodingLimits = decodingLimits
    }

    /// ``timeToLive`` in whole milliseconds, the unit of the files (`Spec/cache.md` §3.1).
    var timeToLiveMilliseconds: Int64? { timeToLive.map(Self.milliseconds) }
    /// ``maximumAge`` in whole milliseconds.
    var maximumAgeMilliseconds: Int64? { maximumAge.map(Self.milliseconds) }

    /// Whole milliseconds in `duration`, rounded toward zero; `Int64.max` or `.min` beyond.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds > 0 ? .max : .min }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if sumOverflow { return seconds > 0 ? .max : .min }
        return sum
    }

    /// The `expiresAt` of an entry stored at `now` with these settings (`Spec/cache.md` §4.2):
    /// the earlier of `now + timeToLive` and `now + maximumAge`, or `Int64.max` (never) when
    /// neither is given.
    ///
    /// This is the rule every store of an ``ImageCache`` follows. A tool that writes a bare
    /// `LogStore` as a cache would (`imagecache put` on a log store file, `Spec/store.md`
    /// §10.2) takes its expiry from here, so both follow one rule.
    /// - Parameters:
    ///   - now: the time of the store, in milliseconds since the Unix epoch.
    ///   - timeToLive: the sliding expiration, as ``timeToLive``; whole milliseconds count.
    ///   - maximumAge: the hard maximum age, as ``maximumAge``; whole milliseconds count.
    /// - Returns: milliseconds since the Unix epoch; a sum beyond `Int64` is `Int64.max`.
    public static func expiration(ofEntryStoredAt now: Int64, timeToLive: Duration?, maximumAge: Duration?)
        -> Int64
    {
        expiration(
            ofEntryStoredAt: now, timeToLiveMilliseconds: timeToLive.map(milliseconds),
            maximumAgeMilliseconds: maximumAge.map(milliseconds))
    }

    /// ``expiration(ofEntryStoredAt:timeToLive:maximumAge:)`` with the settings in whole
    /// milliseconds, as the cache keeps them.
    static func expiration(
        ofEntryStoredAt now: Int64, timeToLiveMilliseconds: Int64?, maximumAgeMilliseconds: Int64?
    ) -> Int64 {
        var expiresAt = Int64.max
        if let timeToLiveMilliseconds {
            expiresAt = min(expiresAt, ImageCache.saturatingSum(now, timeToLiveMilliseconds))
        }
        if let maximumAgeMilliseconds {
            expiresAt = min(expiresAt, ImageCache.saturatingSum(now, maximumAgeMilliseconds))
        }
        return expiresAt
    }

    /// Checks the ranges in `Spec/cache.md` §3.1.
    func validate() throws(CacheError) {
        if sharedAcrossProcesses && !backend.canBeShared { throw .sharingUnsupported(backend: backend) }
        if let timeToLive, Self.milliseconds(timeToLive) < 1 {
            throw .invalidConfiguration(
                reason: "timeToLive must be at least 1 millisecond, got \(timeToLive)")
        }
        if let maximumAge, Self.milliseconds(maximumAge) < 1 {
            throw .invalidConfiguration(
                reason: "maximumAge must be at least 1 millisecond, got \(maximumAge)")
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
        if let thumbnailMaximumPixelSize, !(1...Int(UInt32.max)).contains(thumbnailMaximumPixelSize) {
            throw .invalidConfiguration(
                reason: "thumbnailMaximumPixelSize must be 1 to 4294967295, got \(thumbnailMaximumPixelSize)")
        }
        if decodingLimits.maximumPixelCount < 1 || decodingLimits.maximumDecompressedBytes < 1 {
            throw .invalidConfiguration(reason: "decodingLimits must be positive")
        }
        guard directory.isFileURL else { throw .invalidConfiguration(reason: "directory must be a file URL") }
    }
}
