/// A count that threads change and read without taking a lock, where the system has atomics.
///
/// It lets a hot path ask "is there anything to do?" with one load instead of taking a row of
/// locks (the cache's hit log, whose writer checks it before every change). Where the system
/// has no atomics (`RelaxedAtomicWord`), ``value`` is nil, and the caller takes the slow path
/// it had anyway: nothing is wrong there, only slower.
///
/// Every access is relaxed: the count orders nothing, so a caller that must see what the count
/// counts changes it and reads that under the same lock (as the hit log does per shard), or
/// accepts seeing a change one check later.
public final class AtomicCount: @unchecked Sendable {
    private let word = RelaxedAtomicWord()

    public init() {}

    /// The count, or nil where the system has no atomics.
    @inline(__always)
    public var value: Int? {
        word.load().map { Int(bitPattern: $0) }
    }

    /// Adds `delta` (negative to subtract); does nothing where the system has no atomics.
    @inline(__always)
    public func add(_ delta: Int) {
        word.wrappingAdd(UInt(bitPattern: delta))
    }
}
