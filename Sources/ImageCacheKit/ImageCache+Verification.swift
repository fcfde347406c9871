/// What ``ImageCache/verify()-5jd4a`` found (`Spec/cache.md` §8.4).
public struct CacheVerificationReport: Sendable, Equatable {
    /// A held entry whose stored bytes are missing or fail their checksum.
    public struct DamagedEntry: Sendable, Equatable {
        /// The entry's key.
        public var key: String
        /// What is wrong, in words for a person: the file that is missing or the checksum
        /// that failed.
        public var reason: String
    }

    /// How many held entries were read, expired ones included.
    public var checkedEntries = 0
    /// The value bytes read and found intact.
    public var intactBytes = 0
    /// The damaged entries, in ascending order of their keys' UTF-8 bytes.
    public var damagedEntries: [DamagedEntry] = []

    /// Whether every held entry read back intact.
    public var isIntact: Bool { damagedEntries.isEmpty }
}

extension ImageCache {
    /// Reads every held entry's stored bytes through its backend's checks and reports the
    /// damaged ones, without changing the cache (`Spec/cache.md` §8.4).
    ///
    /// Unlike a read, verifying is not a hit: no expiry slides, no access sequence is taken,
    /// and a damaged entry is reported, not removed, so a user can inspect the files first.
    /// It holds the writer lock throughout: other operations but reads wait until it finishes.
    ///
    /// - Returns: the entries checked, the intact bytes and the damaged entries.
    /// - Throws: ``CacheError/cacheClosed``, or an I/O error other than damage to one entry.
    /// - Complexity: reads every stored value once.
    public func verify() throws(CacheError) -> CacheVerificationReport {
        try withWriterLock(mutating: false) { () throws(CacheError) in
            var report = CacheVerificationReport()
            var keys: [[UInt8]] = []
            try storage.forEachEntry { key, _ in keys.append(Array(key)) }
            // Variants (0xFF…) sort after every original; each damaged one is listed after them.
            for key in keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                do throws(CacheError) {
                    guard let value = try storage.read(key) else { continue }
                    report.checkedEntries += 1
                    report.intactBytes += value.bytes.count
                } catch {
                    guard case .corruptEntry(_, let reason) = error else { throw error }
                    report.checkedEntries += 1
                    // A variant is reported under its original (`Spec/thumbnail.md` §5.6).
                    if let variant = VariantKey(key) {
                        report.damagedEntries.append(
                            .init(
                                key: displayKey(variant.original),
                                reason: "variant \(variant.maximumPixelSize): \(reason)"))
                    } else {
                        report.damagedEntries.append(.init(key: displayKey(key), reason: reason))
                    }
                }
            }
            return report
        }
    }
}
