extension ImageCache {
    // Inspecting is not a hit (§4.4): nothing is extended, no sequence is taken, nothing is
    // removed. Each takes the writer lock so that the hits recorded before it count.

    /// The number of entries not expired now (`Spec/cache.md` §4.4). 0 after `close()`.
    public var count: Int {
        (try? withWriterLock(mutating: false) { () throws(CacheError) -> Int in
            let now = clock.now()
            guard mayHoldExpiredEntries(at: now) else { return storage.entryCount }
            return try liveEntries(at: now).count
        }) ?? 0
    }

    /// The keys of the entries not expired now, in ascending order of their UTF-8 bytes.
    /// Empty after `close()`.
    public var keys: [String] {
        let live = (try? withWriterLock(mutating: false) { () throws(CacheError) in
            try liveEntries(at: clock.now()).map(\.key)
        }) ?? []
        return live.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The sum of the value lengths of the entries not expired now, in bytes (§6.1).
    public var totalByteCount: Int {
        (try? withWriterLock(mutating: false) { () throws(CacheError) -> Int in
            let now = clock.now()
            guard mayHoldExpiredEntries(at: now) else { return totalBytes }
            return try liveEntries(at: now).reduce(0) { $0 + $1.state.byteCount }
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
        return try withWriterLock(mutating: false) { () throws(CacheError) -> CacheEntryMetadata? in
            guard let state = try storage.state(forKey: keyBytes), !state.metadata.isExpired(at: clock.now())
            else { return nil }
            return state.metadata
        }
    }
}
