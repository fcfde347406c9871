#if canImport(Synchronization)
    import Synchronization
#endif

/// A count that threads change and read without taking a lock, where the system has atomics.
///
/// It lets a hot path ask "is there anything to do?" with one load instead of taking a row of
/// locks (the cache's hit log, whose writer checks it before every change). Atomics come from
/// the toolchain's Synchronization module, which Apple systems have from iOS 18, macOS 15,
/// tvOS 18, watchOS 11 and visionOS 2. On older ones ``value`` is nil, and the caller takes the
/// slow path it had anyway: nothing is wrong there, only slower.
///
/// Every access is relaxed: the count orders nothing, so a caller that must see what the count
/// counts changes it and reads that under the same lock (as the hit log does per shard), or
/// accepts seeing a change one check later.
public final class AtomicCount: @unchecked Sendable {
    /// An `Atomic<Int>` where the system has one, else nil.
    private let word: UnsafeMutableRawPointer?

    public init() {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let atomic = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
                atomic.initialize(to: Atomic(0))
                word = UnsafeMutableRawPointer(atomic)
                return
            }
        #endif
        word = nil
    }

    deinit {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                let atomic = word.assumingMemoryBound(to: Atomic<Int>.self)
                atomic.deinitialize(count: 1)
                atomic.deallocate()
            }
        #endif
    }

    /// The count, or nil where the system has no atomics.
    @inline(__always)
    public var value: Int? {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                return word.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .relaxed)
            }
        #endif
        return nil
    }

    /// Adds `delta` (negative to subtract); does nothing where the system has no atomics.
    @inline(__always)
    public func add(_ delta: Int) {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                word.assumingMemoryBound(to: Atomic<Int>.self).pointee.wrappingAdd(delta, ordering: .relaxed)
            }
        #endif
    }
}
