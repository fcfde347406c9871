/// The metadata the cache keeps with every entry (`CONTRACTS.md`, shared conventions).
///
/// Times are milliseconds since the Unix epoch (UTC). `expiresAt == Int64.max` means never;
/// an entry is expired at `now` iff `now >= expiresAt`.
public struct EntryMetadata: Sendable, Hashable {
    public var createdAt: Int64
    public var expiresAt: Int64
    /// Assigned by the cache from a strictly increasing counter; smallest = least recently used.
    public var accessSequence: UInt64

    public init(createdAt: Int64, expiresAt: Int64 = .max, accessSequence: UInt64 = 0) {
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.accessSequence = accessSequence
    }

    /// Whether the entry is expired at `now` (ms).
    public func isExpired(at now: Int64) -> Bool { now >= expiresAt }
}

/// The steps of a compaction, in order (`Spec/store.md` §7). Used by the failure hook.
public enum CompactionStep: String, Sendable, CaseIterable {
    case writingRecords
    case synchronizingNewFile
    case replacingOldFile
    case synchronizingDirectory
    case writingSnapshot
}

extension LogStore {
    /// One live entry, as listed by ``LogStore/entries()``.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var valueLength: UInt64
        public var metadata: EntryMetadata
    }

    /// Sizes and counts, all in bytes except `entries`.
    public struct Statistics: Sendable, Hashable {
        /// Live keys.
        public var entries: Int
        /// Bytes of the records that hold live values (header, key and value).
        public var liveBytes: UInt64
        /// Bytes compaction would reclaim: superseded, removed and metadata-only records.
        public var deadBytes: UInt64
        /// The store's length, including records still in the write buffer.
        public var fileSize: UInt64
        /// An estimate of the in-memory index: table slots plus out-of-line key storage.
        public var indexBytes: Int
        /// `indexBytes / entries` (0 when empty).
        public var indexBytesPerEntry: Double { entries > 0 ? Double(indexBytes) / Double(entries) : 0 }
    }

    /// What ``LogStore/compact(now:)`` did.
    public struct CompactionResult: Sendable, Hashable {
        /// Entries written to the new file.
        public var keptEntries: Int
        /// Entries dropped because `expiresAt <= now`.
        public var expiredEntries: Int
        /// Store length before and after.
        public var bytesBefore: UInt64
        public var bytesAfter: UInt64
    }

    /// What ``LogStore/verify()`` found.
    public struct VerificationReport: Sendable, Hashable {
        /// Records whose CRC-32 matched.
        public var validRecords: Int
        /// Bytes checked, from the first record to the end of the store.
        public var checkedBytes: UInt64
        /// The offset of the first record that failed, or nil when all passed.
        public var firstDamagedOffset: UInt64?
        /// The failure at that offset.
        public var failure: LogStoreError?
        public var isValid: Bool { firstDamagedOffset == nil }
    }

    /// What open did to bring the store to a consistent state (`Spec/store.md` §5).
    public struct RecoveryReport: Sendable, Hashable {
        /// Whether the index came from the snapshot file (then only the log after it was scanned).
        public var usedSnapshot: Bool
        /// Records whose headers were scanned.
        public var scannedRecords: Int
        /// Where an incomplete or invalid tail began, and how many bytes it held (cut off when
        /// writable, ignored when read-only). Nil when the log ended cleanly.
        public var tailOffset: UInt64?
        public var discardedBytes: UInt64
    }
}
