import Foundation
import ImageCacheKit

/// A cache folder as the commands see it (`Spec/cache.md` §12): the library applies every rule,
/// and its clock is the command's `now`. `variant(forKey:maximumPixelSize:)` and `close()` are
/// the cache's own.
extension ImageCache: OpenedStore {
    func liveValue(forKey key: String, at now: Int64) throws -> [UInt8]? {
        try bytes(forKey: key)
    }

    func put(
        _ value: [UInt8], forKey key: String, at now: Int64, settings: CacheSettings, userMetadata: [UInt8]
    )
        throws
    {
        try store(value, forKey: key, userMetadata: userMetadata)
    }

    func liveUserMetadata(forKey key: String, at now: Int64) throws -> [UInt8]? {
        try userMetadata(forKey: key)
    }

    func removeEntry(forKey key: String, at now: Int64) throws -> Bool {
        try removeValue(forKey: key)
    }

    func purgeExpired(at now: Int64) throws -> Int {
        // Opening purges too, so what the open removed counts as well.
        expiredEntriesRemovedOnOpen + (try purgeExpired())
    }

    func compact(at now: Int64) throws -> CompactionSummary {
        let dropped = try purgeExpired(at: now)
        try compact()
        return CompactionSummary(keptEntries: count, expiredEntries: dropped)
    }

    func removeAllEntries() throws -> Int {
        let removed = count
        try removeAll()
        return removed
    }

    func entries(at now: Int64) -> [ListedEntry] {
        entries().map {
            ListedEntry(
                key: $0.key, byteCount: UInt64($0.byteCount), createdAt: $0.metadata.createdAt,
                expiresAt: $0.metadata.expiresAt, accessSequence: $0.metadata.accessSequence)
        }
    }

    func statistics(at now: Int64) -> [StatisticsFigure] {
        let statistics = self.statistics
        return [
            .count("entries", statistics.entries),
            .bytes("bytes", UInt64(statistics.bytes)),
            .count("expired entries", statistics.expiredEntries),
            .count("variants", statistics.variants),
            .bytes("variant bytes", UInt64(statistics.variantBytes)),
            .bytes("file bytes", Self.bytesOfFiles(under: configuration.directory.path)),
            .bytes("disk bytes", UInt64(statistics.diskBytes)),
        ]
    }

    func verifyEntries() throws -> EntryVerification {
        let report = try verify()
        return EntryVerification(
            entries: report.checkedEntries, intactBytes: UInt64(report.intactBytes),
            damaged: report.damagedEntries.map { ($0.key, $0.reason) })
    }

    /// The sizes of the regular files under `path`, added up (links are not followed).
    private static func bytesOfFiles(under path: String) -> UInt64 {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total: UInt64 = 0
        while walker.nextObject() != nil {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                total += (walker.fileAttributes?[.size] as? NSNumber)?.uint64Value ?? 0
            }
        }
        return total
    }
}
