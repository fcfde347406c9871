/// The least recently used entries, found in batches, so that the cache keeps no per-entry
/// structure of its own for eviction (`Spec/cache.md` §6.2, step 6b).
///
/// One scan of the backend's index keeps the `capacity` smallest (accessSequence, key bytes)
/// pairs. They stay the smallest: every later store and hit takes a larger sequence than any
/// entry had at the scan, so an entry outside the batch can never become smaller than one
/// inside it. A batch entry that was hit, replaced or removed since is skipped (its sequence
/// no longer matches). When the batch runs out, the next eviction scans again. Eviction order
/// is therefore exact, at the cost of one scan per `capacity` evictions.
struct EvictionCandidates {
    private var batch: [(sequence: UInt64, key: [UInt8])] = []
    private var position = 0

    /// Forgets the batch (after `removeAll()`, or when the index was rebuilt).
    mutating func reset() {
        batch = []
        position = 0
    }

    /// The held entry with the smallest (accessSequence, key bytes) other than `protected`,
    /// or nil when there is none.
    mutating func next(in storage: any CacheStorage, protecting protected: [UInt8]) throws(CacheError)
        -> [UInt8]?
    {
        for pass in 0..<2 {
            while position < batch.count {
                let candidate = batch[position]
                position += 1
                guard candidate.key != protected,
                    let state = try storage.state(forKey: candidate.key),
                    state.metadata.accessSequence == candidate.sequence
                else { continue }
                return candidate.key
            }
            if pass == 0 { try refill(from: storage, protecting: protected) }
        }
        return nil
    }

    private mutating func refill(from storage: any CacheStorage, protecting protected: [UInt8])
        throws(CacheError)
    {
        let capacity = max(64, storage.entryCount / 256)
        // A max-heap of the smallest pairs seen so far: the root is the largest of them.
        var heap: [(sequence: UInt64, key: [UInt8])] = []
        heap.reserveCapacity(capacity)
        func precedes(_ sequence: UInt64, _ key: UnsafeRawBufferPointer, _ other: (UInt64, [UInt8])) -> Bool {
            if sequence != other.0 { return sequence < other.0 }
            return key.lexicographicallyPrecedes(other.1)
        }
        func larger(_ a: Int, _ b: Int) -> Bool {
            if heap[a].sequence != heap[b].sequence { return heap[a].sequence > heap[b].sequence }
            return heap[b].key.lexicographicallyPrecedes(heap[a].key)
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                var largest = parent
                for child in [2 * parent + 1, 2 * parent + 2]
                where child < heap.count && larger(child, largest) {
                    largest = child
                }
                if largest == parent { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard larger(child, parent) else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }
        try storage.forEachEntry { key, state in
            let sequence = state.metadata.accessSequence
            // Variants go with their originals, never on their own (`Spec/thumbnail.md` §5.6).
            if VariantKey.isVariant(key) || key.elementsEqual(protected) { return }
            if heap.count < capacity {
                heap.append((sequence, Array(key)))
                siftUp(heap.count - 1)
            } else if precedes(sequence, key, heap[0]) {
                heap[0] = (sequence, Array(key))
                siftDown(0)
            }
        }
        batch = heap.sorted { lhs, rhs in
            lhs.sequence != rhs.sequence
                ? lhs.sequence < rhs.sequence : lhs.key.lexicographicallyPrecedes(rhs.key)
        }
        position = 0
    }
}
