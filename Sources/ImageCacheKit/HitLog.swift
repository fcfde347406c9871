#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// Hits that readers recorded and the writer has not applied yet (`Spec/cache.md` §10).
///
/// A hit's bookkeeping (sliding expiry, a new access sequence, a touch record) is a write. So
/// that readers never wait for each other or for a writer, a reader only appends its hit here,
/// to the shard of its thread, under that shard's lock; whoever next holds the cache's writer
/// lock applies every recorded hit before it does anything else. Hits are applied in the order
/// of a monotonic clock read when they were made, so the hits of one thread, or of one task
/// that moves between threads, keep their order, which is all the cache's ordering promise
/// needs; no reader writes to memory another reader writes.
final class HitLog: @unchecked Sendable {
    struct Hit {
        var key: [UInt8]
        /// The version of the entry that was read; a hit on a value replaced since is dropped.
        var version: UInt64
        /// The time of the read, which decides the new expiry.
        var now: Int64
        /// When the hit was made, on the monotonic clock: the order hits are applied in.
        var tick: UInt64 = SystemTime.monotonicNanoseconds()
    }

    private final class Shard: @unchecked Sendable {
        let lock = MutualExclusion()
        var hits: [Hit] = []
    }

    private let shards: [Shard]
    /// How many hits the shards hold: changed under the shard lock with each append and each
    /// take, so a writer with nothing to apply (every store of a process that never reads)
    /// checks one word instead of taking every shard's lock. Where the system has no atomics
    /// (``AtomicCount``) the count is nil, and every drain takes the locks.
    private let held = AtomicCount()

    init(shardCount: Int = 16) {
        shards = (0..<shardCount).map { _ in Shard() }
    }

    /// Records a hit; returns how many hits its shard now holds.
    func record(_ hit: Hit) -> Int {
        let shard = shards[SystemTime.currentThreadNumber() % shards.count]
        return shard.lock.withLock {
            shard.hits.append(hit)
            held.add(1)
            return shard.hits.count
        }
    }

    /// Forgets every recorded hit (a shared cache whose lock another process holds for long,
    /// `Spec/backends.md` §9.4): a lost hit only makes an entry expire sooner or look less
    /// recently used.
    func dropAll() {
        for shard in shards {
            shard.lock.withLock {
                held.add(-shard.hits.count)
                shard.hits.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Takes every recorded hit, in the order they were made.
    func drain() -> [Hit] {
        // A hit recorded on another thread while this load runs waits for the next drain, as
        // it would had it come a moment later. One recorded on this thread, or on another
        // before anything this thread has since synchronized with (a lock, a queue), is
        // counted in what the load sees.
        if held.value == 0 { return [] }
        var all: [Hit] = []
        for shard in shards {
            shard.lock.withLock {
                guard !shard.hits.isEmpty else { return }
                held.add(-shard.hits.count)
                all += shard.hits
                shard.hits.removeAll(keepingCapacity: true)
            }
        }
        if all.count > 1 && !zip(all, all.dropFirst()).allSatisfy({ $0.tick <= $1.tick }) {
            // Stable, so equal ticks keep their order within a shard. (Hits of one thread are
            // already in order, and then nothing is sorted.)
            all = all.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
                .map(\.element)
        }
        return all
    }
}
