import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The source of the current time for a cache (`Spec/cache.md` §3).
///
/// Time is `Int64` milliseconds since the Unix epoch (UTC). Injecting a clock lets tests and
/// the conformance suite move time forward without sleeping.
public protocol CacheClock: Sendable {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    func now() -> Int64
}

/// The wall clock.
public struct SystemClock: CacheClock {
    /// The system's clock; the default of ``CacheConfiguration/clock``.
    public init() {}

    /// The current time from `Date()`, in whole milliseconds since the Unix epoch, rounded down.
    ///
    /// It follows the system's wall clock: setting that clock forward or back makes entries
    /// expire that much sooner or later.
    public func now() -> Int64 {
        // clock_gettime itself: a cache hit reads the clock, and Date() costs more.
        SystemTime.currentMilliseconds()
    }
}

/// A clock that moves only when told to; for tests and the conformance driver.
///
/// Safe to read and advance from many threads.
public final class ManualClock: CacheClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int64

    /// Starts the clock at `milliseconds` since the epoch (default 0).
    public init(milliseconds: Int64 = 0) {
        current = milliseconds
    }

    /// The time the clock was set to, in milliseconds since the Unix epoch.
    public func now() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward (or back, for a negative argument) by `milliseconds`.
    public func advance(by milliseconds: Int64) {
        lock.lock()
        defer { lock.unlock() }
        current += milliseconds
    }

    /// Moves the clock forward (or back, for a negative duration) by whole milliseconds.
    public func advance(by duration: Duration) {
        advance(by: CacheConfiguration.milliseconds(duration))
    }

    /// Sets the clock to `milliseconds` since the epoch.
    public func set(milliseconds: Int64) {
        lock.lock()
        defer { lock.unlock() }
        current = milliseconds
    }
}
