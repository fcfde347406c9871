#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's clocks and the calling thread's identity.
public enum SystemTime {
    /// Milliseconds since the Unix epoch, UTC (the wall clock, which may jump).
    public static func currentMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Nanoseconds on the monotonic clock, which never runs backwards, across threads too.
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Suspends the calling thread for about `nanoseconds` (at least that long, unless a signal
    /// ends the sleep early).
    public static func sleep(nanoseconds: UInt64) {
        var request = timespec(
            tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        _ = nanosleep(&request, nil)
    }

    /// Lets another thread run on this processor, if one is waiting (`sched_yield`).
    public static func yieldProcessor() {
        _ = sched_yield()
    }

    /// A number that stays the same for the calling thread while it runs (its handle's bits,
    /// mixed so that the low ones vary: handles are aligned addresses).
    public static func currentThreadNumber() -> Int {
        #if canImport(Darwin)
            let raw = UInt(bitPattern: pthread_self())
        #else
            let raw = UInt(pthread_self())
        #endif
        return Int(truncatingIfNeeded: (raw &* 0x9E37_79B9_7F4A_7C15) >> 40)
    }
}
