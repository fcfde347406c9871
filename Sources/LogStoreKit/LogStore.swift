#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

/// An append-only single-file key–value store with an in-memory index (`Spec/store.md`).
///
/// Every mutation appends a record; an index maps each key to its latest record; compaction
/// rewrites the live records into a fresh file. Values are read with one positioned read and
/// checked against the record's checksum (XXH3-64, `Spec/checksum.md`).
///
/// Thread safety: every method may be called from any thread. Reads (`value(forKey:)`,
/// `metadata(forKey:)`, `entries()`, `statistics`) run concurrently with each other and with a
/// running compaction; mutations are serialized. One process at a time may open a store for
/// writing (advisory `flock`); read-only handles take no lock and see the store as it was when
/// they opened it.
public final class LogStore: @unchecked Sendable {
    /// How a store is opened and maintained.
    public struct Options: Sendable {
        /// Open without writing or locking; mutations throw `readOnly`. Default false.
        public var readOnly: Bool
        /// Check every value read against its record checksum (`Spec/store.md` §3.1). Default true.
        public var verifyChecksumsOnRead: Bool
        /// Compact automatically after a mutation once dead bytes exceed this fraction of the
        /// file (and the file exceeds ``compactionMinimumFileSize``). Nil: only on demand. Default 0.5.
        public var compactionDeadRatio: Double?
        /// Files smaller than this are never compacted automatically. Default 4 MiB.
        public var compactionMinimumFileSize: UInt64
        /// Size of the in-memory write buffer in bytes; records larger than half of it are
        /// written directly. Reads see buffered records. 0 disables buffering. Default 1 MiB.
        public var writeBufferSize: Int
        /// Load the index snapshot at open and write it at close and compaction. Default true.
        public var usesSnapshot: Bool
        /// At open, cut the store at a damaged record in the synchronized part of the file
        /// instead of refusing with `corruptRecord` (`Spec/store.md` §5.3). Default false.
        public var repairsDamage: Bool
        /// At open, skip a damaged record in the synchronized part of the file and go on with
        /// the records after it, instead of refusing (`Spec/store.md` §5.4): the damage costs
        /// the damaged records, which ``RecoveryReport/damagedRecords`` lists. Takes precedence
        /// over ``repairsDamage``. A cache opens its log this way. Default false.
        public var skipsDamagedRecords: Bool
        /// Called, holding the writer's lock, before the store writes records to its file (a
        /// flush of the write buffer, a record written directly, a compaction): a caller whose
        /// records name data kept elsewhere makes that data durable here, so no record that
        /// can reach the disk names data that cannot (`Spec/backends.md` §8.6). A failure stops
        /// the write and is thrown as `ioError`. Default nil.
        public var willWriteRecords: (@Sendable () throws(SystemCallError) -> Void)?
        /// What ``synchronize()`` waits for on Darwin (`FlushMode`, from Platform); the same either way on
        /// Linux. Default `.durable`.
        public var flushMode: FlushMode
        /// Open the store to write it together with other processes (`Spec/store.md` §12): no
        /// lock on the log, a coordination file beside it, every mutation under the lock of
        /// changes and published when it returns, every read caught up first. Nil (the
        /// default): one writing process at a time.
        public var sharing: Sharing?
        /// Read records through a memory mapping of the file (`Spec/store.md` §8.2), which saves
        /// the system call of every read; off, reads use `pread`. A read-only handle copies from
        /// the mapping only what no writer can cut back (the length the writers published, or
        /// the one the last synchronize made durable): a writer may cut the file back after a
        /// failed write, and a mapped read past the new end would crash (`SIGBUS`) where
        /// `pread` reports a short read; younger records it reads with `pread`. Default true.
        public var mapsFileForReads: Bool
        /// The time source for automatic compaction, in ms since the epoch.
        public var clock: @Sendable () -> Int64
        /// Test hook: stop compaction at this step as a crash would.
        var compactionFault: CompactionStep?
        /// Test hook: runs when a catch-up has parsed staged records and has not yet checked
        /// that the staging area still holds them (§12.7), where another process may reuse it.
        var stagedRecordsParsed: (@Sendable () -> Void)?
        /// Test hook: runs inside a switch of the staging areas (§12.7 rule 2), between the
        /// store of the areas word and that of the new epoch, where another process may read
        /// the words.
        var areasSwitchingHalfway: (@Sendable () -> Void)?
        /// Test hook: runs when a shared synchronize outside a section has made the log durable
        /// and has not yet taken the lock again to write the mark.
        var synchronizedBeforeMark: (@Sendable () -> Void)?

        /// Options with the defaults each property states; name only what differs.
        public init(
            readOnly: Bool = false, verifyChecksumsOnRead: Bool = true, compactionDeadRatio: Double? = 0.5,
            compactionMinimumFileSize: UInt64 = 4 << 20, writeBufferSize: Int = 1 << 20,
            usesSnapshot: Bool = true, repairsDamage: Bool = false, mapsFileForReads: Bool = true,
            clock: @escaping @Sendable () -> Int64 = LogStore.currentTimeMilliseconds,
            skipsDamagedRecords: Bool = false,
            willWriteRecords: (@Sendable () throws(SystemCallError) -> Void)? = nil,
            flushMode: FlushMode = .durable, sharing: Sharing? = nil
        ) {
            self.sharing = sharing
            self.flushMode = flushMode
            self.skipsDamagedRecords = skipsDamagedRecords
            self.willWriteRecords = willWriteRecords
            self.mapsFileForReads = mapsFileForReads
            self.readOnly = readOnly
            self.verifyChecksumsOnRead = verifyChecksumsOnRead
            self.compactionDeadRatio = compactionDeadRatio
            self.compactionMinimumFileSize = compactionMinimumFileSize
            self.writeBufferSize = max(0, writeBufferSize)
            self.usesSnapshot = usesSnapshot
            self.repairsDamage = repairsDamage
            self.clock = clock
        }
    }

    /// Where a key's latest record lives, and the entry's current metadata.
    struct IndexEntry {
        var offset: UInt64
        var valueLength: UInt64
        var metadata: EntryMetadata
        var keyLength: UInt16
        /// False once a touch record changed the metadata: compaction must rewrite the header.
        var metadataMatchesRecord: Bool
        /// The user-metadata length of the put record (format 3, §13.1): part of its length.
        var putUserMetadataLength: UInt16 = 0
        /// The length of the entry's current user metadata (0: none).
        var userMetadataLength: UInt16 = 0
        /// Where the key's bytes start in the index's key arena (-1: a free entry).
        var keyStart: Int = 0
        /// The offset of the record whose block holds the current user metadata: the put's, or
        /// a later user-metadata record's (§13.2). Meaningless when `userMetadataLength` is 0.
        var userMetadataOffset: UInt64 = 0

        var recordLength: UInt64 {
            UInt64(RecordFormat.recordHeaderSize) + UInt64(keyLength) + valueLength
                + RecordFormat.userMetadataBlockLength(Int(putUserMetadataLength))
        }

        /// Whether the put record holds the entry exactly: its metadata and user metadata, so
        /// compaction may copy it byte for byte.
        var recordIsCurrent: Bool {
            metadataMatchesRecord
                && (userMetadataLength == 0
                    ? putUserMetadataLength == 0
                    : userMetadataOffset == offset && userMetadataLength == putUserMetadataLength)
        }
    }

    /// The wall-clock time in milliseconds since the Unix epoch (UTC), the default clock.
    @Sendable public static func currentTimeMilliseconds() -> Int64 {
        SystemTime.currentMilliseconds()
    }

    /// The store file's path.
    public let path: String
    /// The options the store was opened with.
    public let options: Options
    /// What open found and repaired.
    public var recovery: RecoveryReport { stateLock.withReadLock { recoveryState } }

    // Locking: `writerLock` serializes mutations, compaction and close. State read by readers is
    // changed only while holding both `writerLock` and the write side of `stateLock`, so a
    // writer may read it holding `writerLock` alone. It is recursive: a shared store's section
    // holds it throughout, and the mutations inside take it again.
    let writerLock = MutualExclusion(recursive: true)
    /// Readers take only their thread's shard of it, so readers of different threads never
    /// contend (`Spec/store.md` §8.6).
    let stateLock = ShardedReadWriteLock()

    var descriptor: Int32 = -1
    /// The file mapped for reads (§8.2); it covers at least `flushedLength`.
    var mapping: FileMapping?
    /// Reads copy from the mapping only below this length: `flushedLength` for a writable
    /// handle; for a read-only one, what no writer cuts back (published or synchronized, §8.2).
    var mappedReadLimit: UInt64 = 0
    /// Set when mapping failed once, so every flush does not try again.
    var mappingUnavailable = false
    var index = KeyIndex()
    /// Bytes of the file on disk; buffered records follow at this offset. Shared, the staging
    /// area's `base` as this handle last read it (`Spec/store.md` §12.7).
    var flushedLength: UInt64 = 0
    /// The write buffer: this handle's own, or, for a store that follows a coordination file,
    /// its staging area, where records of every process wait (§12.7).
    var buffer: UnsafeMutableRawPointer
    var bufferCapacity: Int
    /// The buffer this handle allocated, freed with it.
    let ownBuffer: UnsafeMutableRawPointer
    /// The bytes of `buffer` the index holds records of.
    var bufferedCount = 0
    /// Shared: the other area (§12.7), and how many of its bytes, the log's from
    /// `flushedLength` on, the index holds records of; 0 for a store that does not share. The
    /// current area (`buffer`) starts after them.
    var olderBuffer: UnsafeMutableRawPointer
    var olderCount = 0
    /// The epoch and incarnation of the coordination file when this handle last read it
    /// (§12.4); 0 when it holds no view.
    var stagingEpoch: UInt64 = 0
    var stagingIncarnation: UInt64 = 0
    var liveBytes: UInt64 = 0
    var generation: UInt64 = 0
    /// The log's major version (`Spec/store.md` §2, §13): 2 until it holds user metadata.
    var formatMajor: UInt16 = RecordFormat.majorVersion
    var isClosed = false
    var isWritable: Bool
    /// Whether this handle holds the writer's lock on `descriptor` (`Spec/store.md` §5.1).
    var holdsLock = false
    /// The log length the snapshot on disk describes, if it matches this file.
    var snapshotLength: UInt64?
    /// The sync mark's descriptor (writers only, opened on first use) and what it says.
    var syncMarkDescriptor: Int32 = -1
    var syncMarkLength: UInt64 = 0
    var syncMarkGeneration: UInt64 = 0
    /// An fdatasync of the log failed and no compaction has rewritten it since (its
    /// unsynchronized bytes may never reach the disk, whatever a later fdatasync says), or the
    /// folder's fsync after a compaction failed (the log's name may not be durable): the next
    /// synchronize compacts (§8.3).
    var logDataInDoubt = false
    /// The coordination file (`Spec/store.md` §12.2): a shared writer's, or a reader's when it
    /// exists.
    var coordination: Coordination?
    /// Serializes the sections of ``withExclusiveAccess(_:)`` in this process. A thread inside
    /// a section never takes it again (``isInSection``).
    let accessLock = MutualExclusion()
    /// A shared writer's token and its liveness file (§12.8), and what it last saw of the
    /// holders of the two locks it waited for (all under `accessLock`).
    var token: UInt64 = 0
    var livenessDescriptor: Int32 = -1
    var changesWatch = HolderWatch()
    var flushWatch = HolderWatch()
    /// The thread that runs a section of this handle now, if any (``isInSection``).
    let sectionOwner = ThreadOwner()
    /// Changes of other processes applied since the owner last took them (under `writerLock`).
    var pendingChanges: [Change] = []
    /// When a reader without a coordination file next looks at the file (monotonic ns); read
    /// under the read side of `stateLock`, set under its write side.
    var nextFileCheck: UInt64 = 0
    /// Auto-compaction waits for the file to pass this size after a failed attempt.
    var nextAutomaticCompactionSize: UInt64 = 0
    var recoveryState = RecoveryReport(
        usedSnapshot: false, scannedRecords: 0, tailOffset: nil, discardedBytes: 0)

    var snapshotPath: String { path + ".hint" }
    var compactionPath: String { path + ".compacting" }

    /// Opens the store at `path`, creating it if it does not exist (unless read-only).
    ///
    /// Rebuilds the index from the snapshot and the log after it, or from a full header scan;
    /// cuts off an incomplete tail (`Spec/store.md` §5).
    /// - Throws: `notAStore`, `unsupportedVersion`, `newerMinorVersion`, `corruptFileHeader`,
    ///   `corruptRecord`, `storeLocked`, `ioError`.
    public init(path: String, options: Options = .init()) throws(LogStoreError) {
        self.path = path
        self.options = options
        self.isWritable = !options.readOnly
        self.bufferCapacity = options.readOnly ? 0 : options.writeBufferSize
        self.ownBuffer = .allocate(byteCount: max(bufferCapacity, 1), alignment: 16)
        self.buffer = ownBuffer
        self.olderBuffer = ownBuffer
        do {
            try openAndRecover()
            mapFlushedLength()
            refreshReaderReadLimit()
        } catch {
            giveUpToken()
            closeDescriptor()
            throw error
        }
    }

    /// Releases the lock (if held) and closes the store's file; the handle is closed afterwards.
    /// The caller holds the write side of `stateLock`, or has the handle to itself.
    func closeDescriptor() {
        unmapFile()
        closeSyncMark()
        // The staging area goes with the coordination file's mapping.
        buffer = ownBuffer
        bufferedCount = 0
        olderBuffer = ownBuffer
        olderCount = 0
        coordination = nil
        dropLivenessFile()
        releaseLock()
        if descriptor >= 0 { FileSystem.close(descriptor) }
        descriptor = -1
        isClosed = true
    }

    /// Forgets this handle's lock on its current descriptor (before the descriptor is closed).
    func releaseLock() {
        guard holdsLock, descriptor >= 0 else { return }
        releaseLock(of: descriptor, path: path)
        holdsLock = false
    }

    /// Forgets this handle's lock on `fd`: exclusive, or shared for a shared store (§12.1).
    func releaseLock(of fd: Int32, path: String) {
        if options.sharing == nil {
            ExclusiveLock.release(fd, path: path)
        } else {
            ExclusiveLock.releaseShared(fd, path: path)
        }
    }

    deinit {
        if !isClosed { try? close() }
        ownBuffer.deallocate()
    }

    /// Every live entry: key, value length and metadata, in no particular order.
    public func entries() -> [Entry] {
        return withCaughtUpReadLock {
            var list: [Entry] = []
            list.reserveCapacity(index.count)
            index.forEachEntry { _, keyBytes, entry in
                list.append(
                    Entry(
                        key: String(decoding: keyBytes, as: UTF8.self), valueLength: entry.valueLength,
                        metadata: entry.metadata))
            }
            return list
        }
    }

    /// Where the current area (or this handle's own buffer) starts: after the file and the
    /// other area (§12.7).
    var splitOffset: UInt64 { flushedLength + UInt64(olderCount) }

    /// The log's length as far as this handle's index holds its records: the file, the other
    /// area, the current one.
    var appliedLength: UInt64 { splitOffset + UInt64(bufferedCount) }

    /// The number of live entries.
    public var count: Int {
        withCaughtUpReadLock { index.count }
    }

    /// Entries, live and dead bytes, file size and the index's memory estimate.
    public var statistics: Statistics {
        return withCaughtUpReadLock {
            let fileSize = appliedLength
            let header = UInt64(RecordFormat.fileHeaderSize)
            let indexBytes = index.memoryBytes
            return Statistics(
                entries: index.count, liveBytes: liveBytes,
                deadBytes: fileSize > header + liveBytes ? fileSize - header - liveBytes : 0,
                fileSize: fileSize, indexBytes: indexBytes)
        }
    }

}

/// Runs `body` with the UTF-8 bytes of `key`.
@inline(__always)
func withKeyBytes<Result>(_ key: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    var key = key
    return key.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}
