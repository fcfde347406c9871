#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

extension ImageCache {
    // MARK: Inspecting (no bookkeeping: these are not hits, §4.4)

    /// The number of entries not expired now (`Spec/cache.md` §4.4). 0 after `close()`.
    public var count: Int {
        (try? withLock { () throws(CacheError) in liveCount(at: configuration.clock.now()) }) ?? 0
    }

    /// The keys of the entries not expired now, in ascending order of their UTF-8 bytes.
    /// Empty after `close()`.
    public var keys: [String] {
        let keyBytes =
            (try? withLock { () throws(CacheError) in liveKeyBytes(at: configuration.clock.now()) }) ?? []
        return keyBytes.sorted { $0.lexicographicallyPrecedes($1) }.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The sum of the value lengths of the entries not expired now, in bytes (§6.1).
    public var totalByteCount: Int {
        (try? withLock { () throws(CacheError) in
            let now = configuration.clock.now()
            guard mayHoldExpiredEntries(at: now) else { return totalBytes }
            return index.values.reduce(0) { $0 + ($1.metadata.isExpired(at: now) ? 0 : $1.byteCount) }
        }) ?? 0
    }

    /// Whether an entry for `key` exists and is not expired. Not a hit: nothing is extended
    /// and nothing is removed. False for an invalid key and after `close()`.
    public func contains(_ key: String) -> Bool {
        (try? metadata(forKey: key)) != nil
    }

    /// The metadata of the live entry for `key`, or nil. Not a hit (§4.4).
    public func metadata(forKey key: String) throws(CacheError) -> CacheEntryMetadata? {
        let keyBytes = try Self.validatedKey(key)
        return try withLock { () throws(CacheError) in
            guard let entry = index[keyBytes], !entry.metadata.isExpired(at: configuration.clock.now()) else {
                return nil
            }
            return entry.metadata
        }
    }

    // MARK: Storing

    /// Stores raw bytes (for example a JPEG as downloaded) for `key`, replacing any entry
    /// (`Spec/cache.md` §6). The bytes are stored as they are.
    ///
    /// May evict other entries to respect the limits (§6.2); never the one just written.
    /// - Throws: ``CacheError/invalidKey(byteCount:)``, ``CacheError/valueTooLarge(key:byteCount:limit:)``
    ///   (nothing changed), or a backend error.
    public func store(_ data: [UInt8], forKey key: String) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        try withLock { () throws(CacheError) in
            try storeLocked(data, key: key, keyBytes: keyBytes, decoded: nil)
        }
    }

    /// The store itself; the caller holds the lock.
    func storeLocked(_ value: [UInt8], key: String, keyBytes: [UInt8], decoded: Bitmap?) throws(CacheError) {
        if let limit = configuration.maximumBytes, value.count > limit {
            throw .valueTooLarge(key: key, byteCount: value.count, limit: limit)
        }
        let now = configuration.clock.now()
        let metadata = CacheEntryMetadata(
            createdAt: now, expiresAt: expirationForStore(at: now), accessSequence: nextSequence)
        nextSequence &+= 1
        // Persist first: a failed write leaves the old entry as it was.
        try storage.write(value, forKey: key, metadata: metadata)
        if let replaced = index[keyBytes] { totalBytes -= replaced.byteCount }
        index[keyBytes] = IndexEntry(
            key: key, byteCount: value.count, metadata: metadata, generation: nextGeneration)
        nextGeneration += 1
        recency.touch(keyBytes)
        totalBytes += value.count
        expiryLowerBound = min(expiryLowerBound, metadata.expiresAt)
        memory?.removeValue(forKey: keyBytes)
        if let decoded { memory?.insert(decoded, cost: decoded.pixels.count, forKey: keyBytes) }
        try enforceLimits(now: now, protecting: keyBytes)
        if storage.compactionIsDue { try compactLocked(now: now) }
    }

    // MARK: Reading

    /// What a read found, decided under the lock.
    enum Lookup {
        case miss
        /// The stored bytes; `generation` identifies the stored value.
        case stored([UInt8], generation: UInt64)
        case decoded(Bitmap)
    }

    /// Looks `key` up as a read (`Spec/cache.md` §4.3): an expired entry is removed and is a
    /// miss; a hit slides the expiry and takes a new access sequence. The caller holds the lock.
    func lookUpLocked(_ keyBytes: [UInt8], allowMemory: Bool) throws(CacheError) -> Lookup {
        guard let entry = index[keyBytes] else { return .miss }
        let now = configuration.clock.now()
        if entry.metadata.isExpired(at: now) {
            try removeEntry(keyBytes)
            return .miss
        }
        let result: Lookup
        if allowMemory, let bitmap = memory?.value(forKey: keyBytes) {
            result = .decoded(bitmap)
        } else {
            do {
                result = .stored(try storage.value(forKey: entry.key), generation: entry.generation)
            } catch {
                // A damaged entry is removed so the rest of the cache, and the next read, are sound.
                if case .corruptEntry = error { try removeEntry(keyBytes) }
                throw error
            }
        }
        var metadata = entry.metadata
        metadata.expiresAt = expirationForHit(on: metadata, at: now)
        metadata.accessSequence = nextSequence
        nextSequence &+= 1
        index[keyBytes]?.metadata = metadata
        recency.touch(keyBytes)
        expiryLowerBound = min(expiryLowerBound, metadata.expiresAt)
        try storage.updateMetadata(metadata, forKey: entry.key)
        return result
    }

    /// The raw bytes stored for `key`, or nil on a miss (`Spec/cache.md` §4.3).
    ///
    /// A hit extends the entry's expiry by the time-to-live (never past the maximum age) and
    /// makes it the most recently used.
    /// - Throws: ``CacheError/corruptEntry(key:reason:)`` when the entry is damaged (it has been
    ///   removed; the next read is a miss), ``CacheError/invalidKey(byteCount:)``, or a backend error.
    public func data(forKey key: String) throws(CacheError) -> [UInt8]? {
        let keyBytes = try Self.validatedKey(key)
        return try withLock { () throws(CacheError) -> [UInt8]? in
            switch try lookUpLocked(keyBytes, allowMemory: false) {
            case .miss: return nil
            case .stored(let bytes, _): return bytes
            case .decoded: return nil
            }
        }
    }

    // MARK: Removing and maintenance

    /// Removes the entry for `key`. Returns whether a live entry was removed; an expired entry
    /// is removed too but reported as absent, like `contains`.
    @discardableResult
    public func removeValue(forKey key: String) throws(CacheError) -> Bool {
        let keyBytes = try Self.validatedKey(key)
        return try withLock { () throws(CacheError) -> Bool in
            guard let entry = index[keyBytes] else { return false }
            let now = configuration.clock.now()
            try removeEntry(keyBytes)
            if storage.compactionIsDue { try compactLocked(now: now) }
            return !entry.metadata.isExpired(at: now)
        }
    }

    /// Removes every entry, and the backend's files' contents (§5.3).
    public func removeAll() throws(CacheError) {
        try withLock { () throws(CacheError) in
            try storage.removeAll()
            index.removeAll()
            recency.removeAll()
            totalBytes = 0
            expiryLowerBound = .max
            memory?.removeAll()
        }
    }

    /// Makes every change so far durable, including the access metadata of hits (§5.2).
    public func synchronize() throws(CacheError) {
        try withLock { () throws(CacheError) in try storage.synchronize() }
    }

    /// Removes every entry expired now and deletes files nothing references (§4.5).
    /// - Returns: the number of entries removed.
    @discardableResult
    public func purgeExpired() throws(CacheError) -> Int {
        try withLock { () throws(CacheError) -> Int in
            expiryLowerBound = .min
            let removed = try removeExpiredEntries(now: configuration.clock.now())
            try storage.removeUnreferencedFiles()
            return removed
        }
    }

    /// Purges expired entries, then lets the backend reclaim space (§5.4).
    public func compact() throws(CacheError) {
        try withLock { () throws(CacheError) in try compactLocked(now: configuration.clock.now()) }
    }

    /// Purge, then backend compaction; the caller holds the lock. Also run after a store when
    /// the backend reports that compaction is due (the log's dead-record ratio, §5.4).
    func compactLocked(now: Int64) throws(CacheError) {
        expiryLowerBound = .min
        try removeExpiredEntries(now: now)
        try storage.compact(now: now)
        try storage.removeUnreferencedFiles()
    }

    /// Synchronizes and releases the backend's files. Later calls throw
    /// ``CacheError/cacheClosed`` (the inspecting properties report an empty cache).
    public func close() throws(CacheError) {
        try withLock { () throws(CacheError) in
            try storage.close()
            isClosed = true
            memory?.removeAll()
        }
    }
}
