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
///
/// A shard copies each hit's key bytes into one buffer of its own rather than keeping the
/// reader's key array: holding hundreds of arrays alive until the writer came, then retaining
/// and releasing each of them again while their lines had left the processor's caches, made a
/// 4 KiB cache hit about 5% slower.
final class HitLog: @unchecked Sendable {
    /// One recorded hit. Its key is `keyLength` bytes from `keyStart` in the key bytes of its
    /// shard, and of the ``Batch`` that takes it.
    struct Hit {
        var keyStart: Int
        var keyLength: Int
        /// The version of the entry that was read; a hit on a value replaced since is dropped.
        var version: UInt64
        /// The time of the read, which decides the new expiry.
        var now: Int64
        /// When the hit was made, on the monotonic clock: the order hits are applied in.
        var tick: UInt64
    }

    /// Hits a drain took, in the order they were made, with the bytes of their keys.
    struct Batch {
        private(set) var hits: [Hit] = []
        private(set) var keyBytes: [UInt8] = []

        var isEmpty: Bool { hits.isEmpty }
        var count: Int { hits.count }
        subscript(position: Int) -> Hit { hits[position] }

        /// The key of hit `position`, as an array of its own.
        func key(at position: Int) -> [UInt8] {
            let hit = hits[position]
            return Array(keyBytes[hit.keyStart..<hit.keyStart + hit.keyLength])
        }

        /// Calls `body` with a view of each hit's key bytes, valid while `body` runs.
        func withKeys<Result, Failure>(
            _ body: (_ key: (_ position: Int) -> UnsafeRawBufferPointer) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            let result: Swift.Result<Result, Failure> = keyBytes.withUnsafeBytes { all in
                do throws(Failure) {
                    return .success(
                        try body { position in
                            let hit = hits[position]
                            return UnsafeRawBufferPointer(
                                rebasing: all[hit.keyStart..<hit.keyStart + hit.keyLength])
                        })
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        /// Takes a shard's hits and keys: whole when the batch is empty (one reading thread),
        /// else appended, their key starts moved past the keys already held.
        fileprivate mutating func take(_ shard: Shard) {
            if hits.isEmpty {
                swap(&hits, &shard.hits)
                swap(&keyBytes, &shard.keyBytes)
                // The next batch will be about as large: room for it at once, not by doubling.
                shard.hits.reserveCapacity(hits.count)
                shard.keyBytes.reserveCapacity(keyBytes.count)
                return
            }
            let base = keyBytes.count
            hits += shard.hits.lazy.map { hit in
                var moved = hit
                moved.keyStart += base
                return moved
            }
            keyBytes += shard.keyBytes
            shard.hits.removeAll(keepingCapacity: true)
            shard.keyBytes.removeAll(keepingCapacity: true)
        }

        /// Puts the hits in the order of their ticks. Stable, so equal ticks keep their order
        /// within a shard. (Hits of one thread are already in order, and then nothing moves.)
        fileprivate mutating func sortByTick() {
            guard hits.count > 1, !zip(hits, hits.dropFirst()).allSatisfy({ $0.tick <= $1.tick }) else {
                return
            }
            hits = hits.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
                .map(\.element)
        }
    }

    fileprivate final class Shard: @unchecked Sendable {
        let lock = MutualExclusion()
        // Used only under `lock`, so the run-time exclusivity checks (about 1% of a cache hit)
        // would find nothing.
        @exclusivity(unchecked) var hits: [Hit] = []
        @exclusivity(unchecked) var keyBytes: [UInt8] = []
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

    /// Records a hit on `key`; returns how many hits its shard now holds.
    func record(
        key: [UInt8], version: UInt64, now: Int64, tick: UInt64 = SystemTime.monotonicNanoseconds()
    ) -> Int {
        let shard = shards[SystemTime.currentThreadNumber() % shards.count]
        return shard.lock.withLock {
            shard.hits.append(
                Hit(
                    keyStart: shard.keyBytes.count, keyLength: key.count, version: version, now: now,
                    tick: tick))
            shard.keyBytes += key
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
                shard.keyBytes.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Takes every recorded hit, in the order they were made.
    func drain() -> Batch {
        // A hit recorded on another thread while this load runs waits for the next drain, as
        // it would had it come a moment later. One recorded on this thread, or on another
        // before anything this thread has since synchronized with (a lock, a queue), is
        // counted in what the load sees.
        var batch = Batch()
        if held.value == 0 { return batch }
        for shard in shards {
            shard.lock.withLock {
                guard !shard.hits.isEmpty else { return }
                held.add(-shard.hits.count)
                batch.take(shard)
            }
        }
        batch.sortByTick()
        return batch
    }
}
