import ImageCacheKit
import LogStoreKit
import PNG
import Platform

/// A bare log store file as the commands see it (`Spec/store.md` §10.2). The store keeps
/// entries and their metadata and applies no rule of the cache, so the commands' few rules for
/// it live here: an entry expired at `now` is absent, and a put is stamped as a cache would
/// stamp it (its expiry and access sequence come from the cache's rules).
extension LogStore: OpenedStore {
    func liveValue(forKey key: String, at now: Int64) throws -> [UInt8]? {
        guard let metadata = metadata(forKey: key), !metadata.isExpired(at: now) else { return nil }
        return try value(forKey: key)
    }

    /// A bare store holds no images' variants (`variant` refuses a log store file before it
    /// opens one).
    func variant(forKey key: String, maximumPixelSize: Int) -> Bitmap? { nil }

    func liveUserMetadata(forKey key: String, at now: Int64) throws -> [UInt8]? {
        guard let metadata = metadata(forKey: key), !metadata.isExpired(at: now) else { return nil }
        return try userMetadata(forKey: Array(key.utf8))
    }

    func put(
        _ value: [UInt8], forKey key: String, at now: Int64, settings: CacheSettings, userMetadata: [UInt8]
    )
        throws
    {
        let expiresAt = CacheConfiguration.expiration(
            ofEntryStoredAt: now, timeToLive: settings.timeToLive, maximumAge: settings.maximumAge)
        let metadata = EntryMetadata(createdAt: now, expiresAt: expiresAt, accessSequence: nextAccessSequence)
        try value.withUnsafeBytes { bytes in
            try put(bytes, forKey: Array(key.utf8), metadata: metadata, userMetadata: userMetadata)
        }
    }

    func removeEntry(forKey key: String, at now: Int64) throws -> Bool {
        guard let metadata = metadata(forKey: key) else { return false }
        try removeValue(forKey: key)
        return !metadata.isExpired(at: now)
    }

    /// A compaction that drops the expired entries (`Spec/store.md` §10.2).
    func purgeExpired(at now: Int64) throws -> Int {
        try compact(now: now).expiredEntries
    }

    func compact(at now: Int64) throws -> CompactionSummary {
        let result = try compact(now: now)
        return CompactionSummary(
            keptEntries: result.keptEntries, expiredEntries: result.expiredEntries,
            fileBytes: (result.bytesBefore, result.bytesAfter))
    }

    func removeAllEntries() throws -> Int {
        let removed = count
        try removeAll()
        return removed
    }

    func entries(at now: Int64) -> [ListedEntry] {
        entries().filter { !$0.metadata.isExpired(at: now) }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map {
                ListedEntry(
                    key: $0.key, byteCount: $0.valueLength, createdAt: $0.metadata.createdAt,
                    expiresAt: $0.metadata.expiresAt, accessSequence: $0.metadata.accessSequence)
            }
    }

    func statistics(at now: Int64) throws -> [StatisticsFigure] {
        let held = entries()
        let live = held.filter { !$0.metadata.isExpired(at: now) }
        let statistics = self.statistics
        return [
            .count("entries", live.count),
            .bytes("bytes", live.reduce(0) { $0 + $1.valueLength }),
            .count("expired entries", held.count - live.count),
            .bytes("file bytes", statistics.fileSize),
            .bytes("dead bytes", statistics.deadBytes),
            .bytes("index bytes", UInt64(statistics.indexBytes)),
            // The log and its snapshot (`Spec/store.md` §1), as a cache folder counts them.
            .bytes(
                "disk bytes",
                try FileSystem.allocatedBytes(under: path) + FileSystem.allocatedBytes(under: path + ".hint")),
        ]
    }

    func verifyEntries() throws -> EntryVerification {
        try verifyEntries(readingValues: true)
    }

    /// Reads every held entry's value to name the damaged keys; without `readingValues`, when a
    /// scan of the whole file found every record intact, no value is read again.
    func verifyEntries(readingValues: Bool) throws -> EntryVerification {
        let held = entries().sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var intact: UInt64 = 0
        var damaged: [(key: String, reason: String)] = []
        for entry in held {
            let read =
                readingValues
                ? Result { () throws(LogStoreError) in try value(forKey: entry.key) } : .success(nil)
            switch read {
            case .success: intact += entry.valueLength
            case .failure(let error):
                switch error {
                case .checksumMismatch, .truncatedRecord: damaged.append((entry.key, error.description))
                default: throw error
                }
            }
        }
        return EntryVerification(entries: held.count, intactBytes: intact, damaged: damaged)
    }
}
