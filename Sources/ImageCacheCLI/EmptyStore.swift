import PNG

/// A cache folder that holds no cache yet (`Spec/cache.md` §12.1): every read finds nothing,
/// and nothing is created. Only `put` creates a cache, so it never reaches this store.
struct EmptyStore: OpenedStore {
    func liveValue(forKey key: String, at now: Int64) -> [UInt8]? { nil }
    func variant(forKey key: String, maximumPixelSize: Int) -> Bitmap? { nil }

    func liveUserMetadata(forKey key: String, at now: Int64) -> [UInt8]? { nil }

    func put(
        _ value: [UInt8], forKey key: String, at now: Int64, settings: CacheSettings, userMetadata: [UInt8]
    ) {
        preconditionFailure("put opens the store creating it")
    }

    func removeEntry(forKey key: String, at now: Int64) -> Bool { false }
    func purgeExpired(at now: Int64) -> Int { 0 }
    func compact(at now: Int64) -> CompactionSummary { CompactionSummary(keptEntries: 0, expiredEntries: 0) }
    func removeAllEntries() -> Int { 0 }
    func entries(at now: Int64) -> [ListedEntry] { [] }
    func statistics(at now: Int64) -> [StatisticsFigure] { [.count("entries", 0), .bytes("bytes", 0)] }
    func verifyEntries() -> EntryVerification { EntryVerification(entries: 0, intactBytes: 0, damaged: []) }
    func close() {}
}
