extension LogStore {
    /// One more than the largest `accessSequence` among the held entries: 1 for an empty store,
    /// and `UInt64.max` at most.
    ///
    /// It is where a cache over this store starts its access counter when it opens
    /// (`Spec/cache.md` §2.5). A tool that writes a bare store as a cache would
    /// (`imagecache put` on a log store file, `Spec/store.md` §10.2) gives a new entry this
    /// number. Expired entries that compaction has not dropped yet count; removed ones do not.
    ///
    /// Safe from any thread, as the other reads are.
    /// - Complexity: O(n) over the in-memory index; no file is read and no key is copied.
    public var nextAccessSequence: UInt64 {
        stateLock.withReadLock {
            var largest: UInt64 = 0
            index.forEachEntry { _, _, entry in largest = max(largest, entry.metadata.accessSequence) }
            return largest == .max ? .max : largest + 1
        }
    }
}
