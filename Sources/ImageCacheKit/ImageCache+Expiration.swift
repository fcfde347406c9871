extension ImageCache {
    /// `a + b`, or the type's `max` (`min`) when the sum does not fit (§3.4). Used for times
    /// and for byte totals, which a hostile file must not be able to overflow.
    static func saturatingSum<Number: FixedWidthInteger>(_ a: Number, _ b: Number) -> Number {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `expiresAt` for a value stored at `now` (`Spec/cache.md` §4.2), by the configuration's
    /// rule.
    func expirationForStore(at now: Int64) -> Int64 {
        CacheConfiguration.expiration(
            ofEntryStoredAt: now, timeToLiveMilliseconds: timeToLive, maximumAgeMilliseconds: maximumAge)
    }

    /// `expiresAt` after a hit at `now` (`Spec/cache.md` §4.3): slides by the time-to-live,
    /// never past `createdAt + maximumAge`.
    func expirationForHit(on metadata: CacheEntryMetadata, at now: Int64) -> Int64 {
        var expiresAt = metadata.expiresAt
        if let timeToLive { expiresAt = Self.saturatingSum(now, timeToLive) }
        if let maximumAge { expiresAt = min(expiresAt, Self.saturatingSum(metadata.createdAt, maximumAge)) }
        return expiresAt
    }

    /// Applies every hit readers recorded since the last writer operation, in the order they
    /// were made (§10): each takes the next access sequence and slides the expiry from the
    /// time of its read. A hit on a value replaced or removed since is dropped, as the store
    /// or removal that followed it would have overwritten its effect. The caller holds the
    /// writer lock.
    func applyRecordedHits() throws(CacheError) {
        let recorded = hits.drain()
        guard !recorded.isEmpty else { return }
        // One batch for the backend, so readers are held off once, not once per hit; a key hit
        // twice starts its second hit from the metadata of its first.
        try storage.applyHits(recorded) { position, current in
            var metadata = current
            metadata.expiresAt = expirationForHit(on: metadata, at: recorded[position].now)
            metadata.accessSequence = takeSequence()
            expiryLowerBound = min(expiryLowerBound, metadata.expiresAt)
            return metadata
        }
    }

    /// The next access sequence (§2.5). The caller holds the writer lock.
    func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    /// Removes one held entry, its variants first (`Spec/thumbnail.md` §5.5), from the backend
    /// and the memory tier; returns its state. The caller holds the writer lock.
    @discardableResult
    func removeEntry(_ key: [UInt8]) throws(CacheError) -> EntryState? {
        try removeVariants(of: key)
        guard let state = try storage.state(forKey: key) else { return nil }
        try storage.remove(key)
        totalBytes -= state.byteCount
        memory?.removeValue(forKey: key)
        if let variant = VariantKey(key) { forget(variant) }
        return state
    }

    /// Whether any held entry might be expired at `now`.
    func mayHoldExpiredEntries(at now: Int64) -> Bool {
        now >= expiryLowerBound
    }

    /// Removes every entry expired at `now`, in ascending (accessSequence, key bytes) order
    /// (`Spec/cache.md` §4.5). Returns how many it removed. The caller holds the writer lock.
    @discardableResult
    func removeExpiredEntries(now: Int64, force: Bool = false) throws(CacheError) -> Int {
        guard force || mayHoldExpiredEntries(at: now) else { return 0 }
        var expired: [(sequence: UInt64, key: [UInt8])] = []
        var lowest = Int64.max
        try storage.forEachEntry { key, state in
            if VariantKey.isVariant(key) { return }
            if state.metadata.isExpired(at: now) {
                expired.append((state.metadata.accessSequence, Array(key)))
            } else {
                lowest = min(lowest, state.metadata.expiresAt)
            }
        }
        expired.sort { lhs, rhs in
            lhs.sequence != rhs.sequence
                ? lhs.sequence < rhs.sequence : lhs.key.lexicographicallyPrecedes(rhs.key)
        }
        for entry in expired { try removeEntry(entry.key) }
        expiryLowerBound = lowest
        return expired.count
    }

    /// The held entries not expired at `now`: their keys and states; variants only when
    /// `includingVariants`. The caller holds the writer lock.
    func liveEntries(at now: Int64, includingVariants: Bool = false) throws(CacheError)
        -> [(key: [UInt8], state: EntryState)]
    {
        var live: [(key: [UInt8], state: EntryState)] = []
        try storage.forEachEntry { key, state in
            guard includingVariants || !VariantKey.isVariant(key) else { return }
            if !state.metadata.isExpired(at: now) { live.append((Array(key), state)) }
        }
        return live
    }
}
