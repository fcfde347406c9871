/// How many synchronizations (`fsync`, `fdatasync`, Darwin's `F_FULLFSYNC` / `F_BARRIERFSYNC`)
/// this process completed: what `imagecache bench durability` divides by the operations it
/// timed. One uncontended lock per synchronization, against a call that waits for a disk.
public enum SynchronizationCounter {
    private static let lock = MutualExclusion()
    nonisolated(unsafe) private static var completed = 0

    /// The synchronizations completed so far.
    public static var count: Int { lock.withLock { completed } }

    static func increment() {
        lock.withLock { completed += 1 }
    }
}
