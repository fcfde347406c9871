extension ImageCache {
    /// `a + b`, or `Int64.max` when the sum does not fit.
    static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `expiresAt` for a value stored at `now` (`Spec/cache.md` §4.2).
    func expirationForStore(at now: Int64) -> Int64 {
        var expiresAt = Int64.max
        if let timeToLive = configuration.timeToLive {
            expiresAt = min(expiresAt, Self.saturatingSum(now, timeToLive))
        }
        if let maximumAge = configuration.maximumAge {
            expiresAt = min(expiresAt, Self.saturatingSum(now, maximumAge))
        }
        return expiresAt
    }

    /// `expiresAt` after a hit at `now` (`Spec/cache.md` §4.3): slides by the time-to-live,
    /// never past `createdAt + maximumAge`.
    func expirationForHit(on metadata: CacheEntryMetadata, at now: Int64) -> Int64 {
        var expiresAt = metadata.expiresAt
        if let timeToLive = configuration.timeToLive { expiresAt = Self.saturatingSum(now, timeToLive) }
        if let maximumAge = configuration.maximumAge {
            expiresAt = min(expiresAt, Self.saturatingSum(metadata.createdAt, maximumAge))
        }
        return expiresAt
    }

    /// Removes one held entry from the backend, the index and the memory tier.
    func removeEntry(_ keyBytes: [UInt8]) throws(CacheError) {
        guard let entry = index[keyBytes] else { return }
        try storage.removeValue(forKey: entry.key)
        index.removeValue(forKey: keyBytes)
        recency.remove(keyBytes)
        totalBytes -= entry.byteCount
        memory?.removeValue(forKey: keyBytes)
    }

    /// Whether any held entry might be expired at `now`.
    func mayHoldExpiredEntries(at now: Int64) -> Bool {
        now >= expiryLowerBound
    }

    /// Removes every entry expired at `now`, in ascending (accessSequence, key bytes) order
    /// (`Spec/cache.md` §4.5). Returns how many it removed.
    @discardableResult
    func removeExpiredEntries(now: Int64) throws(CacheError) -> Int {
        guard mayHoldExpiredEntries(at: now) else { return 0 }
        var removed = 0
        var lowest = Int64.max
        // Walking the recency list visits entries in exactly the specified order.
        for keyBytes in recency.orderedKeys {
            guard let entry = index[keyBytes] else { continue }
            if entry.metadata.isExpired(at: now) {
                try removeEntry(keyBytes)
                removed += 1
            } else {
                lowest = min(lowest, entry.metadata.expiresAt)
            }
        }
        expiryLowerBound = lowest
        return removed
    }

    /// The held entries not expired at `now`, least recently used first.
    func liveKeyBytes(at now: Int64) -> [[UInt8]] {
        recency.orderedKeys.filter { index[$0].map { !$0.metadata.isExpired(at: now) } ?? false }
    }

    /// The number of held entries not expired at `now`.
    func liveCount(at now: Int64) -> Int {
        guard mayHoldExpiredEntries(at: now) else { return index.count }
        return index.values.reduce(0) { $0 + ($1.metadata.isExpired(at: now) ? 0 : 1) }
    }
}
