extension ImageCache {
    /// Removes the entry for `key`. Returns whether a live entry was removed; an expired entry
    /// is removed too but reported as absent, like `contains` (§5.3).
    /// - Throws: ``CacheError/invalidKey(byteCount:)``, ``CacheError/readOnly(path:)``, or a
    ///   backend error.
    @discardableResult
    public func removeValue(forKey key: String) throws(CacheError) -> Bool {
        let keyBytes = try Self.validatedKey(key)
        return try withWriterLock(mutating: true) { () throws(CacheError) -> Bool in
            let now = clock.now()
            guard let removed = try removeEntry(keyBytes) else { return false }
            if storage.compactionIsDue { try compactLocked(now: now) }
            return !removed.metadata.isExpired(at: now)
        }
    }

    /// Removes every entry, and the backend's files' contents (§5.3). The access counter is
    /// not reset.
    public func removeAll() throws(CacheError) {
        try withWriterLock(mutating: true) { () throws(CacheError) in
            try storage.removeAll()
            variants.removeAll()
            variantCount = 0
            totalBytes = 0
            expiryLowerBound = .max
            candidates.reset()
            memory?.removeAll()
        }
    }

    /// Makes every change so far durable, including the access metadata of hits (§5.2).
    /// A read-only cache has nothing to make durable.
    ///
    /// When an fsync fails, what it covered is written again into new files before this
    /// returns (`Spec/backends.md` §8.10); when that fails too, the error is thrown and the
    /// next call rewrites it.
    /// - Throws: ``CacheError/ioFailure(operation:path:errno:)`` (a full disk, a failing
    ///   device), ``CacheError/cacheClosed``.
    public func synchronize() throws(CacheError) {
        try withWriterLock(mutating: false) { () throws(CacheError) in
            if !configuration.readOnly { try storage.synchronize() }
        }
    }

    /// Removes every entry expired now and deletes files nothing references (§4.5).
    /// - Returns: the number of entries removed.
    @discardableResult
    public func purgeExpired() throws(CacheError) -> Int {
        try withWriterLock(mutating: true) { () throws(CacheError) -> Int in
            let removed = try removeExpiredEntries(now: clock.now(), force: true)
            try storage.removeUnreferencedFiles()
            return removed
        }
    }

    /// Purges expired entries, then lets the backend reclaim space (§5.4).
    public func compact() throws(CacheError) {
        try withWriterLock(mutating: true) { () throws(CacheError) in try compactLocked(now: clock.now()) }
    }

    /// Purge, then backend compaction; the caller holds the writer lock. Also run after a
    /// store or removal when the backend reports that compaction is due (§5.4).
    func compactLocked(now: Int64) throws(CacheError) {
        try removeExpiredEntries(now: now, force: true)
        try storage.compact(now: now)
        try storage.removeUnreferencedFiles()
        // Compaction may give entries new versions; the eviction batch is rebuilt on demand.
        candidates.reset()
    }

    /// Synchronizes and releases the backend's files and the folder's lock. Later calls throw
    /// ``CacheError/cacheClosed`` (the inspecting properties report an empty cache). Calling
    /// it again does nothing.
    ///
    /// - Throws: what synchronizing throws; the cache is closed even then.
    public func close() throws(CacheError) {
        try writerLock.withLock { () throws(CacheError) in
            guard !isClosed else { return }
            isClosed = true
            OpenCaches.unregister(self)
            defer {
                memory?.removeAll()
                folder.release()
            }
            var failure: CacheError?
            do throws(CacheError) {
                try applyRecordedHits()
            } catch {
                failure = error
            }
            do throws(CacheError) {
                try storage.close()
            } catch {
                failure = failure ?? error
            }
            if let failure { throw failure }
        }
    }
}
