extension ImageCache {
    /// The raw bytes stored for `key`, or nil on a miss (`Spec/cache.md` §4.3).
    ///
    /// A hit extends the entry's expiry by the time-to-live (never past the maximum age) and
    /// makes it the most recently used. Reads take no cache-wide lock (§10).
    /// - Throws: ``CacheError/corruptEntry(key:reason:)`` when the entry is damaged (a writable
    ///   cache has removed it; the next read is a miss), ``CacheError/invalidKey(byteCount:)``,
    ///   ``CacheError/cacheClosed``, or a backend error.
    public func bytes(forKey key: String) throws(CacheError) -> [UInt8]? {
        let keyBytes = try Self.validatedKey(key)
        return try readValue(keyBytes, shownKey: key)?.bytes
    }

    /// Reads the value of `keyBytes` as a read does (§4.3): a miss, or the stored bytes with
    /// the hit recorded.
    func readValue(_ keyBytes: [UInt8], shownKey: String) throws(CacheError) -> StoredValue? {
        let now = clock.now()
        for _ in 0..<3 {
            guard let state = try liveState(keyBytes, now: now) else { return nil }
            do {
                guard let value = try storage.read(keyBytes) else { return nil }
                recordHit(keyBytes, version: value.version, now: now)
                return value
            } catch {
                guard case .corruptEntry = error else { throw error }
                // Damage, or a file a concurrent writer replaced or removed under the read:
                // the writer decides, with the index as it is now.
                try handleDamage(keyBytes, expected: state, error: error)
            }
        }
        // The entry kept changing under three reads in a row: report what it was.
        throw .corruptEntry(key: shownKey, reason: "the entry changed during every read attempt")
    }

    /// The state of the live entry for `keyBytes` at `now`, or nil on a miss (§4.3 steps 2–3).
    ///
    /// Expiry is decided without a lock when the entry is clearly live; an entry that looks
    /// expired is decided under the writer lock, after the recorded hits (which may have
    /// extended it) are applied, and removed there when it is expired.
    func liveState(_ keyBytes: [UInt8], now: Int64) throws(CacheError) -> EntryState? {
        guard let state = try storage.state(forKey: keyBytes) else { return nil }
        if !state.metadata.isExpired(at: now) { return state }
        if configuration.readOnly { return nil }
        return try withWriterLock(mutating: false) { () throws(CacheError) -> EntryState? in
            guard let current = try storage.state(forKey: keyBytes) else { return nil }
            guard current.metadata.isExpired(at: now) else { return current }
            try removeEntry(keyBytes)
            return nil
        }
    }

    /// A read of `keyBytes`, whose entry was `expected`, found damage. Under the writer lock:
    /// if the entry still holds that value, a writable cache removes it (§8.2) and `error` is
    /// thrown; if the value changed meanwhile, returns so the read is tried again.
    func handleDamage(_ keyBytes: [UInt8], expected: EntryState, error: CacheError) throws(CacheError) {
        let damaged = try withWriterLock(mutating: false) { () throws(CacheError) -> Bool in
            guard let current = try storage.state(forKey: keyBytes), current.version == expected.version else {
                return false
            }
            if !configuration.readOnly {
                // A damaged entry is removed so the rest of the cache, and the next read, are sound.
                try removeEntry(keyBytes)
            }
            return true
        }
        if damaged { throw error }
    }

    /// Records a hit for the writer to apply (§10); applies the recorded hits now when many
    /// have piled up and nobody else holds the writer lock.
    func recordHit(_ keyBytes: [UInt8], version: UInt64, now: Int64) {
        guard !configuration.readOnly else { return }
        let pending = hits.record(HitLog.Hit(key: keyBytes, version: version, now: now))
        guard pending >= 256 else { return }
        if pending >= 1 << 16 {
            // Readers outrun the writer by far: wait for the lock rather than grow without end.
            try? withWriterLock(mutating: false) {}
        } else {
            _ = writerLock.withLockIfAvailable { () -> Void in
                if !isClosed { try? applyRecordedHits() }
            }
        }
    }
}
