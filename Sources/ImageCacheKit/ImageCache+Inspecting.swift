extension ImageCache {
    // Inspecting is not a hit (§4.4): nothing is extended, no sequence is taken, nothing is
    // removed. Each takes the writer lock so that the hits recorded before it count, and reads
    // only the index in memory: the one error it can meet is `cacheClosed`, which the
    // non-throwing members answer with an empty cache (§5.5).

    /// The number of entries not expired now (`Spec/cache.md` §4.4). 0 after `close()`.
    public var count: Int {
        (try? withWriterLock(mutating: false) { () throws(CacheError) -> Int in
            let now = clock.now()
            guard mayHoldExpiredEntries(at: now) else { return storage.entryCount - variantCount }
            return try liveEntries(at: now).count
        }) ?? 0
    }

    /// The keys of the entries not expired now, in ascending order of their UTF-8 bytes.
    /// Empty after `close()`.
    public var keys: [String] { entries().map(\.key) }

    /// The sum of the value lengths of the entries not expired now, in bytes (§6.1).
    ///
    /// This is what ``CacheConfiguration/maximumBytes`` limits, not what the cache takes on
    /// disk: for that, read ``CacheStatistics/diskBytes`` from ``statistics``, which also counts
    /// expired entries not yet purged, the log's dead records before compaction, the index,
    /// and whole file-system blocks.
    public var totalByteCount: Int {
        (try? withWriterLock(mutating: false) { () throws(CacheError) -> Int in
            let now = clock.now()
            // Orphaned variants (held by a read-only cache only) count with no original.
            guard mayHoldExpiredEntries(at: now) else { return totalBytes - orphanedVariantBytes }
            // Variants count with their originals (`Spec/thumbnail.md` §5.6); a variant of an
            // expired original is as good as gone.
            let live = try liveEntries(at: now, includingVariants: true)
            let liveOriginals = Set(live.lazy.filter { !VariantKey.isVariant($0.key) }.map(\.key))
            return live.reduce(0) { total, entry in
                if let variant = VariantKey(entry.key),
                    !liveOriginals.contains(variant.original)
                {
                    return total
                }
                return total + entry.state.byteCount
            }
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
            guard !VariantKey.isVariant(keyBytes), let state = try storage.state(forKey: keyBytes),
                !state.metadata.isExpired(at: clock.now())
            else { return nil }
            return state.metadata
        }
    }

    /// Counts of the held entries now (§4.4), in one consistent look: not a hit, changes
    /// nothing. All zero after `close()`.
    public var statistics: CacheStatistics {
        (try? withWriterLock(mutating: false) { () throws(CacheError) -> CacheStatistics in
            let now = clock.now()
            var statistics = CacheStatistics()
            try storage.forEachEntry { key, state in
                if VariantKey.isVariant(key) {
                    statistics.variants += 1
                    statistics.variantBytes += state.byteCount
                } else if state.metadata.isExpired(at: now) {
                    statistics.expiredEntries += 1
                } else {
                    statistics.entries += 1
                    statistics.bytes += state.byteCount
                }
            }
            statistics.diskBytes = try allocatedDiskBytes()
            return statistics
        }) ?? CacheStatistics()
    }
}

/// What ``ImageCache/statistics`` counts, in one consistent look at the cache.
public struct CacheStatistics: Sendable, Hashable {
    /// Live entries, as ``ImageCache/count``.
    public var entries = 0
    /// The sum of the live entries' sizes in bytes, variants excluded.
    public var bytes = 0
    /// Held entries that are expired now: the next purge removes them.
    public var expiredEntries = 0
    /// Variants held (`Spec/thumbnail.md` §5).
    public var variants = 0
    /// The sum of the held variants' sizes in bytes.
    public var variantBytes = 0
    /// The bytes allocated on disk for the cache folder and every file, folder and link in it:
    /// the sum of their `st_blocks` × 512, links not followed. This is the space the cache
    /// takes from the device, what a user sees in the system's storage settings.
    ///
    /// It exceeds the value lengths (``bytes``, ``variantBytes``, ``ImageCache/totalByteCount``)
    /// by each backend's overhead: the index or the records' headers, the log's dead records
    /// until compaction, expired entries not yet purged, and the rounding of every file up to
    /// whole blocks (4 KiB on most file systems, which dominates for small values in the
    /// `directory` backend). Everything in the folder counts, files the cache did not make
    /// included. What the backend still buffers in memory counts once written, at the latest
    /// by ``ImageCache/synchronize()-48e0z``. 0 for a read-only cache of a missing folder.
    public var diskBytes = 0

    /// The statistics of an empty cache: every count 0. ``ImageCache/statistics`` fills them in.
    public init() {}
}
