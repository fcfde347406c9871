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
    ///
    /// The common case is one lookup: the backend reads the value together with the entry's
    /// metadata, and a live entry is a hit at once. An entry that looks expired is decided under
    /// the writer lock (§10.2) and, if the recorded hits kept it alive, read again.
    func readValue(_ keyBytes: [UInt8], shownKey: String) throws(CacheError) -> StoredValue? {
        let now = clock.now()
        for _ in 0..<3 {
            let value: StoredValue?
            do {
                value = try storage.read(keyBytes)
            } catch {
                guard case .corruptEntry = error else { throw error }
                // Damage, or a file a concurrent writer replaced or removed under the read:
                // the writer decides, with the index as it is now.
                guard try handleDamage(keyBytes, now: now) else { return nil }
                continue
            }
            guard let value else { return nil }
            if value.metadata.isExpired(at: now) {
                guard try liveState(keyBytes, now: now) != nil else { return nil }
                continue
            }
            recordHit(keyBytes, version: value.version, now: now)
            return value
        }
        // The entry kept changing under three reads in a row: report what it was.
        throw .corruptEntry(key: shownKey, reason: "the entry changed during every read attempt")
    }

    /// Reads the value of `keyBytes` as ``readValue(_:shownKey:)`` does, but lends it to `body`
    /// from the backend (``CacheStorage/lend(_:_:)``) instead of returning a copy; does nothing
    /// on a miss. `body` runs for a live entry only, once; the hit is recorded after it, also
    /// when `body` throws.
    func lendValue(
        _ keyBytes: [UInt8], shownKey: String, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let now = clock.now()
        for _ in 0..<3 {
            var ran = false
            var failure: (any Error)?
            var version: UInt64 = 0
            let found: Bool
            do {
                found = try storage.lend(keyBytes) { bytes, metadata, lentVersion in
                    guard !metadata.isExpired(at: now) else { return }
                    version = lentVersion
                    ran = true
                    do { try body(bytes) } catch { failure = error }
                }
            } catch {
                guard case .corruptEntry = error else { throw error }
                guard try handleDamage(keyBytes, now: now) else { return }
                continue
            }
            guard found else { return }
            guard ran else {
                // Expired as far as the read saw: decided under the writer lock (§4.3).
                guard try liveState(keyBytes, now: now) != nil else { return }
                continue
            }
            recordHit(keyBytes, version: version, now: now)
            if let failure { throw failure }
            return
        }
        throw CacheError.corruptEntry(key: shownKey, reason: "the entry changed during every read attempt")
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

    /// A read of `keyBytes` found damage. Under the writer lock, where no change can race it,
    /// the entry is looked at again. Expired (with the recorded hits applied), it is a miss, as
    /// §4.3 decides expiry before any value is read: false is returned, and a writable cache
    /// removes it. Still damaged, a writable cache removes it (§8.2) and the error is thrown.
    /// Intact or gone (a concurrent writer replaced or removed it under the first read), true
    /// is returned so the read is tried again.
    func handleDamage(_ keyBytes: [UInt8], now: Int64) throws(CacheError) -> Bool {
        try withWriterLock(mutating: false) { () throws(CacheError) -> Bool in
            guard let state = try storage.state(forKey: keyBytes) else { return true }
            if state.metadata.isExpired(at: now) {
                if !configuration.readOnly { try removeEntry(keyBytes) }
                return false
            }
            do throws(CacheError) {
                _ = try storage.read(keyBytes)
                return true
            } catch {
                guard case .corruptEntry = error else { throw error }
                if !configuration.readOnly {
                    // A damaged entry is removed so the rest of the cache, and the next read, are sound.
                    try removeEntry(keyBytes)
                }
                throw error
            }
        }
    }

    /// Records a hit for the writer to apply (§10); applies the recorded hits now when many
    /// have piled up and nobody else holds the writer lock.
    func recordHit(_ keyBytes: [UInt8], version: UInt64, now: Int64) {
        guard !configuration.readOnly else { return }
        let pending = hits.record(key: keyBytes, version: version, now: now)
        // Every 256 hits, then (the lock was busy) every 64 more: not a try, and for a shared
        // cache a system call, on every read while another process holds the lock. A shared
        // cache waits for 1,024: its section costs two locks and a write on top, which at 256
        // hits made its reads 10–18% slower than a lone cache's (`Spec/backends.md` §9.4).
        let batch = configuration.sharedAcrossProcesses ? 1024 : 256
        guard pending >= batch, pending % 64 == 0 else { return }
        if pending >= 1 << 16 && !configuration.sharedAcrossProcesses {
            // Readers outrun the writer by far: wait for the lock rather than grow without end.
            try? withWriterLock(mutating: false) {}
        } else {
            // A reader never waits: not for this process's writer, nor for another process's.
            let applied = writerLock.withLockIfAvailable { () -> Bool in
                guard !isClosed else { return false }
                let section = try? storage.withExclusiveAccessIfAvailable { () throws(CacheError) -> Bool in
                    try absorbChangesOfOtherProcesses()
                    try applyRecordedHits()
                    publishSequence()
                    return true
                }
                return section == true
            }
            // Another process holds the lock for long (an open, a compaction; this process's
            // writer may be waiting for it too): rather than wait or grow without end, lose the
            // hits (`Spec/backends.md` §9.4).
            if applied != true && pending >= 1 << 16 { hits.dropAll() }
        }
    }
}
