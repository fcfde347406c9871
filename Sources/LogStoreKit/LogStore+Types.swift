/// The metadata kept with every entry, in every put and touch record (`Spec/store.md` §3.1).
///
/// Times are milliseconds since the Unix epoch (UTC). `expiresAt == Int64.max` means never;
/// an entry is expired at `now` iff `now >= expiresAt`. The store keeps these fields and drops
/// expired entries when it compacts; what they mean beyond that is the caller's (the cache's
/// rules are in `Spec/cache.md` §2.2).
public struct EntryMetadata: Sendable, Hashable {
    /// When the value was stored, in milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// The first instant at which the entry is expired, in milliseconds since the Unix epoch;
    /// `Int64.max` means never.
    public var expiresAt: Int64
    /// Assigned by the cache from a strictly increasing counter; smallest = least recently used.
    public var accessSequence: UInt64

    /// Metadata for a put or a touch; by default the entry never expires and has sequence 0.
    public init(createdAt: Int64, expiresAt: Int64 = .max, accessSequence: UInt64 = 0) {
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.accessSequence = accessSequence
    }

    /// Whether the entry is expired at `now` (ms).
    public func isExpired(at now: Int64) -> Bool { now >= expiresAt }
}

/// The steps of a compaction, in order (`Spec/store.md` §7.1). A test hook stops a compaction
/// at one of them as a crash would, and ``LogStoreError/injectedFault(step:)`` names it.
public enum CompactionStep: String, Sendable, CaseIterable {
    /// Step 1: writing the live records into `<log>.compacting`.
    case writingRecords
    /// Step 2: synchronizing the new file.
    case synchronizingNewFile
    /// Step 3: renaming the new file over the old log.
    case replacingOldFile
    /// Step 4: synchronizing the folder, which makes the rename durable.
    case synchronizingDirectory
    /// Step 5: writing the snapshot of the new log (`Spec/store.md` §4).
    case writingSnapshot
}

extension LogStore {
    /// One live entry, as listed by ``LogStore/entries()``.
    public struct Entry: Sendable, Hashable {
        /// The entry's key.
        public var key: String
        /// The value's length in bytes.
        public var valueLength: UInt64
        /// The entry's metadata, as its latest put or touch record holds it.
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
        /// The store's length before compaction, in bytes.
        public var bytesBefore: UInt64
        /// The new file's length, in bytes.
        public var bytesAfter: UInt64
    }

    /// What ``LogStore/verify()`` found.
    public struct VerificationReport: Sendable, Hashable {
        /// Records whose checksums matched (`Spec/store.md` §3.1).
        public var validRecords: Int
        /// Bytes checked, from the first record to the end of the store.
        public var checkedBytes: UInt64
        /// The offset of the first record that failed, or nil when all passed.
        public var firstDamagedOffset: UInt64?
        /// The failure at that offset.
        public var failure: LogStoreError?
        /// Whether every record passed.
        public var isValid: Bool { firstDamagedOffset == nil }
    }

    /// What open did to bring the store to a consistent state (`Spec/store.md` §5).
    public struct RecoveryReport: Sendable, Hashable {
        /// Whether the index came from the snapshot file (then only the log after it was scanned).
        public var usedSnapshot: Bool
        /// Records whose headers were scanned.
        public var scannedRecords: Int
        /// Where an incomplete or invalid tail began (`Spec/store.md` §5.3); nil when the log
        /// ended cleanly.
        public var tailOffset: UInt64?
        /// How many bytes that tail held: cut off when writable, ignored when read-only; 0 when
        /// the log ended cleanly.
        public var discardedBytes: UInt64
        /// How much of the log a synchronize() had made durable, as open found out (the sync
        /// mark or the snapshot, `Spec/store.md` §5.3): damage before it is damage to
        /// synchronized data, damage after it a write a crash tore.
        public var durableLength: UInt64 = 0
        /// The damaged records of the synchronized part that open skipped
        /// (``Options/skipsDamagedRecords``, `Spec/store.md` §5.4), in file order.
        public var damagedRecords: [DamagedRecord] = []
    }

    /// A damaged span of the synchronized part of a log that open skipped (`Spec/store.md` §5.4).
    public struct DamagedRecord: Sendable, Hashable {
        /// Where the damaged bytes begin.
        public var offset: UInt64
        /// How many bytes were skipped: one record when its lengths still led to a valid record,
        /// otherwise everything up to the next record a valid chain starts at.
        public var length: UInt64
        /// The key the damaged record names, when its lengths could still be followed (it is
        /// then removed, so no earlier value of it comes back); nil otherwise.
        public var key: [UInt8]?
    }
}
