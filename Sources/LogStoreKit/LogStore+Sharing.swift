#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The coordination file of a shared store (`<log>.shared`, `Spec/store.md` §12.2): 64 bytes
/// every process maps, holding what each must know of the others, and the lock of their
/// changes (`flock` on it).
enum CoordinationFormat {
    /// `89 49 43 53 48 52 44 0A`: a high-bit byte, "ICSHRD", LF.
    static let magic: UInt64 = 0x0A44_5248_5343_4989
    static let size = 64
    static let magicOffset = 0
    static let versionOffset = 8
    static let generationOffset = 16
    static let lengthOffset = 24
    static let counterOffset = 32
    static let writingOffset = 40
    static let reservedOffset = 48
}

/// The coordination file, open and mapped (`Spec/store.md` §12.2).
final class Coordination: @unchecked Sendable {
    let path: String
    let descriptor: Int32
    let mapping: SharedMapping

    private init(path: String, descriptor: Int32, mapping: SharedMapping) {
        self.path = path
        self.descriptor = descriptor
        self.mapping = mapping
    }

    deinit { FileSystem.close(descriptor) }

    /// Opens (a writer creates it, 64 zero bytes) and maps the file; nil for a reader when it is
    /// missing or too short.
    static func open(path: String, writable: Bool) throws(SystemCallError) -> Coordination? {
        let fd: Int32
        do {
            fd = try FileSystem.open(
                path, writable ? .readWrite : .readOnly,
                options: writable ? [.create, .noFollow] : [.noFollow])
        } catch {
            if !writable, error.errno == .noSuchFile { return nil }
            throw error
        }
        do {
            if try FileSystem.size(fd, path: path) < UInt64(CoordinationFormat.size) {
                guard writable else {
                    FileSystem.close(fd)
                    return nil
                }
                try withUnsafeTemporaryAllocation(byteCount: CoordinationFormat.size, alignment: 8) {
                    (bytes) throws(SystemCallError) in
                    bytes.initializeMemory(as: UInt8.self, repeating: 0)
                    try FileSystem.write(fd, UnsafeRawBufferPointer(bytes), at: 0, path: path)
                }
            }
            let mapping = try SharedMapping.map(
                fd, length: CoordinationFormat.size, writable: writable, path: path)
            return Coordination(path: path, descriptor: fd, mapping: mapping)
        } catch {
            FileSystem.close(fd)
            throw error
        }
    }

    var isValid: Bool {
        mapping.load(at: CoordinationFormat.magicOffset) == CoordinationFormat.magic
            && mapping.load(at: CoordinationFormat.versionOffset) == 1
    }
    // Plain loads, for a holder of the lock of changes (no one publishes meanwhile); a process
    // outside it reads `published`.
    var generation: UInt64 { mapping.load(at: CoordinationFormat.generationOffset) }
    var length: UInt64 { mapping.load(at: CoordinationFormat.lengthOffset) }
    var counter: UInt64 { mapping.load(at: CoordinationFormat.counterOffset) }
    var isWriting: Bool { mapping.load(at: CoordinationFormat.writingOffset) != 0 }

    /// The published generation and length as one pair, and the log's bytes they cover
    /// readable after it (§12.4): the generation, the length, then the generation again; nil
    /// when none is published or a publish of another generation is under way (the generation
    /// reads 0, or not the same twice).
    var published: (generation: UInt64, length: UInt64)? {
        let generation = mapping.loadAcquiring(at: CoordinationFormat.generationOffset)
        guard generation != 0 else { return nil }
        let length = mapping.loadAcquiring(at: CoordinationFormat.lengthOffset)
        guard mapping.loadAcquiring(at: CoordinationFormat.generationOffset) == generation else { return nil }
        return (generation, length)
    }

    /// Publishes a log, each word after everything before it (the log's bytes first):
    /// generation 0 first when it changes, so a reader never pairs one log's length with
    /// another log's generation (§12.3 step 6).
    func publish(generation: UInt64, length: UInt64) {
        if self.generation != generation {
            mapping.storeReleasing(0, at: CoordinationFormat.generationOffset)
        }
        mapping.storeReleasing(length, at: CoordinationFormat.lengthOffset)
        mapping.storeReleasing(generation, at: CoordinationFormat.generationOffset)
        mapping.store(CoordinationFormat.magic, at: CoordinationFormat.magicOffset)
        mapping.store(1, at: CoordinationFormat.versionOffset)
    }

    /// The first process's fresh start (§12.2 rule 3): counter, writing and the reserved
    /// word 0, whatever an invalid file or a dead process left there; `publish` sets the rest.
    func startAfresh() {
        setCounter(0)
        setWriting(false)
        mapping.store(0, at: CoordinationFormat.reservedOffset)
        mapping.store(0, at: CoordinationFormat.reservedOffset + 8)
    }

    func setCounter(_ value: UInt64) { mapping.store(value, at: CoordinationFormat.counterOffset) }
    func setWriting(_ writing: Bool) { mapping.store(writing ? 1 : 0, at: CoordinationFormat.writingOffset) }
}

extension LogStore {
    /// How processes that open one store together find out about each other (`Spec/store.md`
    /// §12). The store's owner excludes the processes that do not share (a cache does with its
    /// folder's lock) and tells the store whether it is the first.
    public struct Sharing: Sendable {
        /// Asked once at open, while the store holds the lock of changes: whether no other
        /// process has the store open. The first process recovers the log as a lone writer would
        /// (cutting a torn tail, §5.3) and starts the coordination file afresh; a later one
        /// trusts what the others published.
        public var isOnlyProcess: @Sendable () throws(SystemCallError) -> Bool

        /// Shares the store, asking `isOnlyProcess` at open whether this process is the first.
        public init(isOnlyProcess: @escaping @Sendable () throws(SystemCallError) -> Bool) {
            self.isOnlyProcess = isOnlyProcess
        }
    }

    /// A change another process made, found when this handle caught up with the log
    /// (`Spec/store.md` §12.4). ``takeChanges()`` hands them to the owner, which keeps what it
    /// derives from the index (totals, orders) up to date.
    public enum Change: Sendable, Equatable {
        /// The key's entry was `before` and is now `after` (nil: absent).
        case entry(key: [UInt8], before: EntryInfo?, after: EntryInfo?)
        /// Every entry was removed (a clear record).
        case cleared
        /// The log was replaced (another process compacted it): the index was loaded again, and
        /// anything derived from it must be too.
        case reloaded
    }

    var coordinationPath: String { path + ".shared" }

    /// Whether another process may change the file under this handle: a shared writer, or any
    /// reader.
    var followsOtherProcesses: Bool { options.sharing != nil || !isWritable }

    // MARK: The lock of changes (§12.3)

    /// Runs `body` holding the lock of changes of a shared store, caught up with every change
    /// published before, and publishes what `body` appended before the lock goes
    /// (`Spec/store.md` §12.3). Nested calls on one thread take the lock once. A store that is
    /// not shared just runs `body` under its own serialization.
    ///
    /// Every mutation of a shared store runs this way by itself; an owner groups several (a
    /// cache's store and its evictions) into one.
    /// - Throws: what `body` throws; `ioError` when the lock or the catching up fails.
    public func withExclusiveAccess<Result>(_ body: () throws(LogStoreError) -> Result) throws(LogStoreError)
        -> Result
    {
        guard options.sharing != nil else { return try body() }
        return try accessLock.withLock { () throws(LogStoreError) -> Result in
            try exclusiveSection(waiting: true, body)!
        }
    }

    /// Runs `body` as ``withExclusiveAccess(_:)`` does when the lock of changes can be taken at
    /// once; nil, without running it, when another thread or process holds it. For work that
    /// can wait for a later occasion (a cache applying the hits readers recorded), so that a
    /// reader never waits for another process's compaction.
    public func withExclusiveAccessIfAvailable<Result>(_ body: () throws(LogStoreError) -> Result)
        throws(LogStoreError) -> Result?
    {
        guard options.sharing != nil else { return try body() }
        return try accessLock.withLockIfAvailable { () throws(LogStoreError) -> Result? in
            try exclusiveSection(waiting: false, body)
        } ?? nil
    }

    /// Inside a section (§12.3): writes the write buffer and publishes everything the section
    /// wrote so far, so that it is kept even if this process dies before the section ends (the
    /// next holder cuts only what was not published). For work that must wait until its
    /// records are safe from that cut: a hybrid holder deleting the files its records stopped
    /// naming. Does nothing outside a section, or when the store does not share.
    /// - Throws: `ioError` when the buffer cannot be written.
    public func publishWrittenRecords() throws(LogStoreError) {
        guard options.sharing != nil else { return }
        try accessLock.withLock { () throws(LogStoreError) in
            guard accessDepth > 0, let coordination else { return }
            try writerLock.withLock { () throws(LogStoreError) in
                if isClosed { return }
                try flushBuffer()
                stateLock.withWriteLock {
                    coordination.publish(generation: generation, length: flushedLength)
                }
            }
        }
    }

    /// A section (§12.3), holding `accessLock`: nil when `waiting` is false and another process
    /// holds the lock of changes.
    private func exclusiveSection<Result>(waiting: Bool, _ body: () throws(LogStoreError) -> Result)
        throws(LogStoreError) -> Result?
    {
        do {
            accessDepth += 1
            defer { accessDepth -= 1 }
            guard accessDepth == 1 else { return try body() }
            if isClosed { throw .closed(path: path) }
            guard let coordination else { throw .closed(path: path) }
            if waiting {
                try storeIO { try FileLock.lockExclusively(coordination.descriptor, path: coordination.path) }
            } else {
                guard
                    try storeIO({
                        try FileLock.tryLockExclusively(coordination.descriptor, path: coordination.path)
                    })
                else { return nil }
            }
            defer { FileLock.unlock(coordination.descriptor) }
            try writerLock.withLock { () throws(LogStoreError) in
                try catchUp(holdingLockOfChanges: true)
                if coordination.isWriting {
                    // The last holder died between writing and publishing: its bytes past
                    // the published length were never returned to anyone. If it died after
                    // its compaction named the new log, before publishing it, that log is the
                    // store now: take it up whole (§12.3 step 3).
                    if pathNamesAnotherFile() { try reload(expecting: nil, length: nil) }
                    try storeIO { try FileSystem.truncate(descriptor, to: flushedLength, path: path) }
                }
                coordination.setWriting(true)
            }
            defer {
                writerLock.withLock {
                    // A handle closed inside its section (a test's crash) leaves the flag set,
                    // as a process that died there would.
                    guard !isClosed else { return }
                    try? flushBuffer()
                    stateLock.withWriteLock {
                        coordination.publish(generation: generation, length: flushedLength)
                    }
                    coordination.setWriting(false)
                }
            }
            return try body()
        }
    }

    /// A word every sharing process reads and writes under the lock of changes, for the owner's
    /// use (a cache keeps its next access sequence there, `Spec/backends.md` §9). 0 until set.
    /// Read it and set it inside ``withExclusiveAccess(_:)``.
    public var sharedCounter: UInt64 {
        get { stateLock.withReadLock { coordination?.counter ?? 0 } }
        set { stateLock.withWriteLock { coordination?.setCounter(newValue) } }
    }

    /// The changes other processes made that this handle applied since the last call, in order;
    /// or one `reloaded` when more piled up than a handle keeps (4,096, or one for every 16
    /// entries of a larger index, `Spec/store.md` §12.4).
    public func takeChanges() -> [Change] {
        catchUpIfNeeded()
        return writerLock.withLock {
            defer { pendingChanges.removeAll() }
            return pendingChanges
        }
    }

    // MARK: Catching up (§12.4)

    /// Before a read: catches up with what other processes published, when there is anything
    /// (one look at the coordination file; a reader without one looks at the file at most once
    /// a millisecond). A failure leaves the handle as it was: the read answers from it.
    @inline(__always)
    func catchUpIfNeeded() {
        guard followsOtherProcesses else { return }
        guard stateLock.withReadLock({ isBehind }) else { return }
        catchUpNow()
    }

    /// Runs `body` under the read side of the state lock, caught up first as
    /// ``catchUpIfNeeded()`` does, but looking whether the handle is behind under the same hold
    /// of the lock as `body`: a read that is not behind takes the lock once.
    @inline(__always)
    func withCaughtUpReadLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        guard followsOtherProcesses else { return try stateLock.withReadLock(body) }
        var caughtUp = false
        while true {
            let result = try stateLock.withReadLock { () throws(Failure) -> Result? in
                if !caughtUp && isBehind { return nil }
                return try body()
            }
            if let result { return result }
            caughtUp = true
            catchUpNow()
        }
    }

    /// Whether other processes published something this handle has not applied, or (a reader
    /// without a coordination file) the time has come to look at the file again. Caller holds
    /// the read side of the state lock.
    @inline(__always)
    private var isBehind: Bool {
        if isClosed { return false }
        guard let coordination else { return SystemTime.monotonicNanoseconds() >= nextFileCheck }
        guard let published = coordination.published else { return false }
        return published.generation != generation || published.length > flushedLength
    }

    private func catchUpNow() {
        writerLock.withLock {
            try? catchUp(holdingLockOfChanges: false)
            refreshReaderReadLimit()
        }
    }

    /// Raises a read-only handle's ``mappedReadLimit`` to what it may map now
    /// (``readerReadLimit(flushed:generation:)``). Holds `writerLock`.
    func refreshReaderReadLimit() {
        guard !isWritable, !isClosed, mapping != nil, mappedReadLimit < flushedLength else { return }
        let limit = readerReadLimit(flushed: flushedLength, generation: generation)
        guard limit > mappedReadLimit else { return }
        stateLock.withWriteLock { mappedReadLimit = limit }
    }

    /// Applies what other processes published since this handle last looked: records appended
    /// after `flushedLength`, or, when another process compacted, the new log. Holds
    /// `writerLock`.
    func catchUp(holdingLockOfChanges: Bool) throws(LogStoreError) {
        guard followsOtherProcesses, !isClosed else { return }
        guard let coordination else { return try catchUpWithoutCoordination() }
        guard coordination.isValid, let (publishedGeneration, publishedLength) = coordination.published else {
            return
        }
        if publishedGeneration != generation {
            try reload(expecting: publishedGeneration, length: publishedLength)
            // The path names a log newer than the published one: a later compaction named it
            // and its holder has not published it (it is in its section, or died there). That
            // log holds everything published, so it is read, whole records only; answering
            // from the old log would hide values whose store has returned (§12.4).
            if generation != publishedGeneration && pathNamesAnotherFile() {
                try reload(expecting: nil, length: nil)
            }
        } else if publishedLength > flushedLength && bufferedCount == 0 {
            try applyPublished(upTo: publishedLength)
        }
    }

    /// Whether the log's path names another file than the one this handle has open (a
    /// compaction elsewhere renamed its new log there).
    private func pathNamesAnotherFile() -> Bool {
        guard let current = FileSystem.identity(ofPath: path) else { return false }
        return current != (try? FileSystem.status(descriptor, path: path).identity)
    }

    /// A reader beside a writer that keeps no coordination file: the file's length and identity
    /// tell, looked at no more than once a millisecond.
    private func catchUpWithoutCoordination() throws(LogStoreError) {
        let now = SystemTime.monotonicNanoseconds()
        guard now >= nextFileCheck else { return }
        stateLock.withWriteLock { nextFileCheck = now + 1_000_000 }
        if pathNamesAnotherFile() {
            try reload(expecting: nil, length: nil)
            return
        }
        let size = try storeIO { try FileSystem.size(descriptor, path: path) }
        if size > flushedLength { try applyPublished(upTo: size) }
    }

    /// Scans the records between `flushedLength` and `length` and applies them, noting each
    /// change for the owner. Records up to a published length are whole (§12.4); a reader
    /// without coordination stops at the first record not yet whole and tries again later.
    private func applyPublished(upTo length: UInt64) throws(LogStoreError) {
        var records: [(header: ScannedHeader, key: [UInt8], offset: UInt64)] = []
        func collect(_ header: ScannedHeader, _ key: UnsafeRawBufferPointer, _ offset: UInt64) {
            records.append((header, Array(key), offset))
        }
        let end: UInt64
        if coordination != nil && length - flushedLength <= UInt64(Self.publishedReadLimit) {
            // What others published since the last look is mostly a few small records (their
            // stores, their hits): one read of it all costs less than two per record.
            end = try scanPublished(from: flushedLength, to: length, collect)
        } else if coordination == nil {
            end = try scanInChunks(from: flushedLength, to: length, verifyingValues: true, collect)
        } else {
            var report = recoveryState
            end = try scan(
                from: flushedLength, fileSize: length, durableLength: length, knownTypesOnly: true,
                following: .published, report: &report, sink: collect)
        }
        guard end > flushedLength else { return }
        stateLock.withWriteLock {
            for record in records {
                record.key.withUnsafeBytes { key in
                    // Once the changes are one `reloaded`, which says "derive everything again"
                    // from the index as it is when the owner takes them, a record needs no change
                    // of its own.
                    let noting = !changesCollapsed
                    let before = noting ? index[key].map(EntryInfo.init) : nil
                    Self.apply(record.header, key: key, at: record.offset, to: index, liveBytes: &liveBytes)
                    guard noting else { return }
                    if record.header.type == RecordFormat.RecordType.clear.rawValue {
                        pendingChanges.append(.cleared)
                    } else {
                        let after = index[key].map(EntryInfo.init)
                        if before != after {
                            pendingChanges.append(.entry(key: record.key, before: before, after: after))
                        }
                    }
                    // An owner that never takes them (a read-only cache that only reads) must
                    // not hold them without end: past the bound, one `reloaded` replaces them.
                    if pendingChanges.count > pendingChangeLimit { pendingChanges = [.reloaded] }
                }
            }
            flushedLength = end
            mapFlushedLength()
        }
    }

    /// Whether the pending changes are one `reloaded`, which no later record can add to.
    var changesCollapsed: Bool { pendingChanges.count == 1 && pendingChanges[0] == .reloaded }

    /// The most changes a handle keeps for its owner (§12.4): 4,096, or one for every 16
    /// entries of a larger index. A change of a 35-byte key takes about 200 bytes and an entry
    /// of the index about 120, so the changes stay near a tenth of the index's memory. That
    /// matters to a read-only cache in an app extension: it only reads, so it never takes
    /// them, and it runs under a tight memory limit.
    var pendingChangeLimit: Int { max(4_096, index.count / 16) }

    /// The most published bytes ``scanPublished(from:to:_:)`` reads at once.
    static let publishedReadLimit = 1 << 20

    /// The whole records between `start` and `end`, read with `pread` a chunk of up to
    /// ``publishedReadLimit`` bytes at a time and parsed in memory (``parsePublished``); the
    /// first record that is not whole and valid ends the range. With `verifyingValues` (what a
    /// writer without a coordination file appended, §12.5, which it may still be writing) each
    /// value and its user metadata must match their checksums too. (A busy writer appends many
    /// small records: a cache applying its readers' hits writes a touch record per hit. Read
    /// with two calls each, they made a read-only cache beside a writable one serving hits read
    /// at under a third of its speed.) Not from the mapping: such a writer may cut back what it
    /// appended, and a mapped read past the file's end would crash. A record longer than a chunk
    /// is left to ``scan``.
    private func scanInChunks(
        from start: UInt64, to end: UInt64, verifyingValues: Bool,
        _ sink: (ScannedHeader, UnsafeRawBufferPointer, UInt64) -> Void
    ) throws(LogStoreError) -> UInt64 {
        let chunk = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(min(end - start, UInt64(Self.publishedReadLimit))), alignment: 8)
        defer { chunk.deallocate() }
        var offset = start
        while offset < end {
            let wanted = UnsafeMutableRawBufferPointer(
                rebasing: chunk[..<Int(min(end - offset, UInt64(chunk.count)))])
            let got = try storeIO { try FileSystem.read(descriptor, into: wanted, at: offset, path: path) }
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[..<got])
            let parsed = parsePublished(bytes, at: offset, verifyingValues: verifyingValues, sink)
            offset += UInt64(parsed)
            if parsed > 0 && offset < end { continue }
            if parsed == 0 && got == chunk.count && end - offset > UInt64(chunk.count) {
                // The first record may be longer than a chunk: scan reads it by parts. (When the
                // chunk held all the rest, that record is not whole or not valid: stop there.)
                var report = recoveryState
                return try withoutActuallyEscaping(sink) { sink throws(LogStoreError) in
                    try scan(
                        from: offset, fileSize: end, durableLength: end, knownTypesOnly: true,
                        following: verifyingValues ? .unpublished : .published, report: &report, sink: sink)
                }
            }
            break
        }
        return offset
    }

    /// The records of a published range (§12.4), parsed in memory: from the file mapping when
    /// it covers the range (a writer cuts back only what it has not published, so those bytes
    /// stay in the file; the values are not touched at all), otherwise read with one `pread`.
    /// Each record is whole; the first that fails a check ends the range.
    private func scanPublished(
        from start: UInt64, to end: UInt64, _ sink: (ScannedHeader, UnsafeRawBufferPointer, UInt64) -> Void
    ) throws(LogStoreError) -> UInt64 {
        let count = Int(end - start)
        if let mapping, end <= UInt64(mapping.length) {
            let bytes = UnsafeRawBufferPointer(start: mapping.base + Int(start), count: count)
            return start + UInt64(parsePublished(bytes, at: start, verifyingValues: false, sink))
        }
        return try scanInChunks(from: start, to: end, verifyingValues: false, sink)
    }

    /// Parses the whole records at the start of `bytes`, which begin at file offset `start`;
    /// returns how many bytes they span. With `verifyingValues`, a record counts only when its
    /// value and user metadata also match their checksums (records no one published, §12.5).
    private func parsePublished(
        _ bytes: UnsafeRawBufferPointer, at start: UInt64, verifyingValues: Bool,
        _ sink: (ScannedHeader, UnsafeRawBufferPointer, UInt64) -> Void
    ) -> Int {
        let headerSize = RecordFormat.recordHeaderSize
        let got = bytes.count
        var offset = 0
        while got - offset >= headerSize {
            let keyLength = Int(
                RecordFormat.load(
                    at: 18, from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + headerSize]))
                    as UInt16)
            guard got - offset >= headerSize + keyLength else { break }
            let head = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + headerSize + keyLength])
            guard
                let header = Self.validHeader(head, legacy: false, major: formatMajor, knownTypesOnly: true),
                header.recordLength <= UInt64(got - offset),
                !verifyingValues
                    || Self.valueIsIntact(bytes, at: offset + headerSize + keyLength, header: header)
            else { break }
            sink(header, UnsafeRawBufferPointer(rebasing: head[headerSize...]), start + UInt64(offset))
            offset += Int(header.recordLength)
        }
        return offset
    }

    /// Whether the value that starts at `offset` in `bytes`, and its user-metadata block, match
    /// their checksums (what ``valueIsIntact(at:header:in:)`` checks in the file); the caller has
    /// checked that the whole record is in `bytes`.
    private static func valueIsIntact(_ bytes: UnsafeRawBufferPointer, at offset: Int, header: ScannedHeader)
        -> Bool
    {
        let valueEnd = offset + Int(header.valueLength)
        guard
            RecordFormat.valueChecksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<valueEnd]))
                == header.valueChecksum
        else { return false }
        guard header.userMetadataLength > 0 else { return true }
        let blockLength = Int(RecordFormat.userMetadataBlockLength(header.userMetadataLength))
        return RecordFormat.userMetadataBlockIsIntact(Array(bytes[valueEnd..<valueEnd + blockLength]))
    }

    /// Another process replaced the log (compaction): opens the file the path names now and
    /// loads its index, from its snapshot when it has one, up to the published length (`length`
    /// nil: its whole records). A file of another generation than `expected` is left alone.
    private func reload(expecting expected: UInt64?, length: UInt64?) throws(LogStoreError) {
        let fd = try storeIO { try FileSystem.open(path, isWritable ? .readWrite : .readOnly) }
        var keep = false
        defer { if !keep { FileSystem.close(fd) } }
        var header = [UInt8](repeating: 0, count: RecordFormat.fileHeaderSize)
        let got = try storeIO {
            try header.withUnsafeMutableBytes { try FileSystem.read(fd, into: $0, at: 0, path: path) }
        }
        guard got == header.count,
            let decoded = try? header.withUnsafeBytes({ try RecordFormat.decodeFileHeader($0, path: path) }),
            decoded.major >= RecordFormat.majorVersion, expected == nil || decoded.generation == expected
        else { return }
        // A compaction elsewhere may have made the log format 3 (§13): read it as such.
        formatMajor = decoded.major
        let size = try storeIO { try FileSystem.size(fd, path: path) }
        let end = min(length ?? size, size)
        var newIndex = KeyIndex()
        var newLiveBytes: UInt64 = 0
        var start = UInt64(RecordFormat.fileHeaderSize)
        if options.usesSnapshot, let snapshot = loadSnapshot(generation: decoded.generation, fileSize: end) {
            newIndex = snapshot.index
            newLiveBytes = snapshot.liveBytes
            start = snapshot.logLength
        }
        var report = recoveryState
        var scanned: [(ScannedHeader, [UInt8], UInt64)] = []
        let scannedEnd = try scan(
            from: start, fileSize: end, durableLength: end, knownTypesOnly: true,
            following: length != nil ? .published : .unpublished, in: fd, report: &report
        ) { header, key, offset in scanned.append((header, Array(key), offset)) }
        for (header, key, offset) in scanned {
            key.withUnsafeBytes {
                Self.apply(header, key: $0, at: offset, to: newIndex, liveBytes: &newLiveBytes)
            }
        }
        if isWritable {
            // The compacting process locked the new file before naming it (§12.1); joining it
            // can fail only if a writer that does not share took it after all sharers left.
            do {
                try ExclusiveLock.acquireShared(fd, path: path, patienceMilliseconds: 0)
            } catch {
                if case .system(let failure) = error { throw LogStoreError(failure) }
                throw .storeLocked(path: path, byThisProcess: error == .heldByThisProcess)
            }
        }
        keep = true
        let oldDescriptor = descriptor
        stateLock.withWriteLock {
            unmapFile()
            mappedReadLimit = 0
            descriptor = fd
            index = newIndex
            liveBytes = newLiveBytes
            flushedLength = scannedEnd
            generation = decoded.generation
            snapshotLength = nil
            pendingChanges = [.reloaded]
            mapFlushedLength()
        }
        // No reader is left on the replaced file: reads copy and pread under the read lock, and
        // a lent mapping keeps its own reference.
        if isWritable { releaseLock(of: oldDescriptor, path: path) }
        FileSystem.close(oldDescriptor)
    }

    // MARK: Open (§12.2)

    /// Opens the coordination file: a writer of a shared store creates it and takes the lock
    /// of changes for its open (returned, to release once open finishes); any reader maps it
    /// when it exists.
    func openCoordination() throws(LogStoreError) -> Coordination? {
        if options.sharing != nil && isWritable {
            let opened = try storeIO { try Coordination.open(path: coordinationPath, writable: true) }
            coordination = opened
            return opened
        }
        if !isWritable {
            coordination = try? Coordination.open(path: coordinationPath, writable: false)
        }
        return nil
    }
}
