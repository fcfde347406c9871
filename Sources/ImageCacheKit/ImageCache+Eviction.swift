extension ImageCache {
    /// Whether the held entries exceed `maximumBytes` or `maximumEntryCount` (§6.1).
    var isOverLimit: Bool {
        if let limit = configuration.maximumEntryCount, index.count > limit { return true }
        if let limit = configuration.maximumBytes, totalBytes > limit { return true }
        return false
    }

    /// Brings the cache back within its limits after a store (`Spec/cache.md` §6.2): first
    /// every expired entry goes, then entries in ascending (accessSequence, key bytes) order,
    /// never `protected` (the entry just written).
    ///
    /// - Returns: how many entries were evicted.
    @discardableResult
    func enforceLimits(now: Int64, protecting protected: [UInt8]) throws(CacheError) -> Int {
        guard isOverLimit else { return 0 }
        var evicted = try removeExpiredEntries(now: now)
        while isOverLimit, let victim = recency.first, victim != protected {
            try removeEntry(victim)
            evicted += 1
        }
        return evicted
    }
}
