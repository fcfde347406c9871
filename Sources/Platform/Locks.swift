// Small wrappers over pthread locks. `Synchronization.Mutex` needs macOS 15 and the package
// supports macOS 13, so the package brings its own. The lock storage is allocated once and
// never moves, as pthread requires.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A readers–writer lock: many concurrent readers or one writer.
///
/// A waiting writer goes before readers that arrive after it. glibc's default prefers
/// readers, and then two threads reading without pause keep the lock held by some reader at
/// every instant, so a store could wait for tens of milliseconds. A read lock must therefore
/// never be taken again by a thread that already holds it (it would wait behind a waiting
/// writer that waits for it).
public final class ReadWriteLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    public init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    @inline(__always)
    public func withReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    @inline(__always)
    public func withWriteLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}

/// A mutual-exclusion lock.
public final class MutualExclusion: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A mutex; `recursive`: the thread that holds it may take it again (each `withLock`
    /// nests inside the last).
    public init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` under the lock if it is free now; returns nil without waiting otherwise.
    @inline(__always)
    public func withLockIfAvailable<Result, Failure: Error>(_ body: () throws(Failure) -> Result)
        throws(Failure) -> Result?
    {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A readers–writer lock whose readers do not touch each other's memory: one
/// ``ReadWriteLock`` per shard, each on cache lines of its own; a reader takes only the shard
/// of its thread, a writer takes every shard in order.
///
/// Readers of different threads then share no lock word, so they never contend, not even for
/// a cache line (unless two threads' numbers fall on one shard); a writer pays one lock per
/// shard. The same rule as ``ReadWriteLock`` holds: a thread must never take the read lock
/// again while it holds it.
public final class ShardedReadWriteLock: @unchecked Sendable {
    /// Bytes between two shards: two cache lines, so neither a line nor its prefetched
    /// neighbour is shared.
    private static let stride = 128
    private let storage: UnsafeMutableRawPointer
    private let mask: Int

    /// - Parameter shards: the number of shards, rounded up to a power of two; by default
    ///   twice the processors the system has, at least 2 and at most 16.
    public init(shards: Int? = nil) {
        let wanted = shards ?? min(16, max(2, 2 * SystemInformation.processorCount))
        var count = 1
        while count < wanted { count *= 2 }
        mask = count - 1
        precondition(MemoryLayout<pthread_rwlock_t>.size <= Self.stride)
        storage = .allocate(byteCount: count * Self.stride, alignment: Self.stride)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        for index in 0..<count {
            let lock = (storage + index * Self.stride).bindMemory(to: pthread_rwlock_t.self, capacity: 1)
            lock.initialize(to: pthread_rwlock_t())
            let status = pthread_rwlock_init(lock, &attributes)
            precondition(status == 0, "pthread_rwlock_init failed: \(status)")
        }
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        for index in 0...mask { pthread_rwlock_destroy(shard(index)) }
        storage.deallocate()
    }

    @inline(__always)
    private func shard(_ index: Int) -> UnsafeMutablePointer<pthread_rwlock_t> {
        (storage + index * Self.stride).assumingMemoryBound(to: pthread_rwlock_t.self)
    }

    /// Runs `body` holding the calling thread's shard for reading.
    @inline(__always)
    public func withReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let lock = shard(SystemTime.currentThreadNumber() & mask)
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` holding every shard for writing: no reader runs meanwhile.
    @inline(__always)
    public func withWriteLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        for index in 0...mask { pthread_rwlock_wrlock(shard(index)) }
        defer { for index in (0...mask).reversed() { pthread_rwlock_unlock(shard(index)) } }
        return try body()
    }
}
