#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// How a handle follows what other processes write (`Spec/store.md` §12.4, §12.5): the records
/// they published in the log file and its staging area, a log another process compacted, or,
/// for a reader beside a writer that does not share, the file as it grows.
extension LogStore {
    /// Before a read: catches up with what other processes published, when there is anything
    /// (one look at the coordination file; a reader without one looks at the file at most once
    /// a millisecond). A failure leaves the handle as it was: the read answers from it.
    @inline(__always)
    func catchUpIfNeeded() {
        guard followsOtherProcesses, !isInSection else { return }
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
        guard followsOtherProcesses, !isInSection else { return try stateLock.withReadLock(body) }
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

    /// Runs `body`, a read that may copy records from the staging area, under the read side of
    /// the state lock as ``withCaughtUpReadLock(_:)`` does, and keeps its answer only when the
    /// area was not reused meanwhile (§12.7): otherwise, whatever `body` returned or threw, the
    /// handle catches up (the records are in the log file now) and `body` runs again.
    func withStableStaging<Result>(_ body: () throws(LogStoreError) -> Result) throws(LogStoreError) -> Result
    {
        // Inside a section no other process can reuse the staging area.
        guard followsOtherProcesses, !isInSection else { return try stateLock.withReadLock(body) }
        var caughtUp = false
        while true {
            var outcome: Result?
            var failure: LogStoreError?
            let stable = stateLock.withReadLock { () -> Bool? in
                if !caughtUp && isBehind { return nil }
                do throws(LogStoreError) {
                    outcome = try body()
                } catch {
                    failure = error
                }
                return stagingIsUnchanged
            }
            if stable == true {
                if let failure { throw failure }
                return outcome!
            }
            caughtUp = stable == nil
            catchUpNow()
        }
    }

    /// Whether the staging area still holds what this handle read of it: always, unless the
    /// handle follows a coordination file and another process reused the area or started it
    /// afresh since (§12.7). Caller holds the read side of the state lock.
    var stagingIsUnchanged: Bool {
        guard let coordination, bufferedCount > 0 || olderCount > 0 else { return true }
        return coordination.stagingIsUnchanged(since: (generation, stagingEpoch))
    }

    /// Whether other processes published something this handle has not applied, or (a reader
    /// without a coordination file) the time has come to look at the file again. Caller holds
    /// the read side of the state lock.
    @inline(__always)
    private var isBehind: Bool {
        if isClosed { return false }
        guard let coordination else { return SystemTime.monotonicNanoseconds() >= nextFileCheck }
        return coordination.isAhead(ofGeneration: generation, epoch: stagingEpoch, applied: appliedLength)
    }

    func catchUpNow() {
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
    /// after its length, in the log file or the staging area, or, when another process
    /// compacted, the new log. Holds `writerLock`.
    func catchUp(holdingLockOfChanges: Bool) throws(LogStoreError) {
        guard followsOtherProcesses, !isClosed else { return }
        guard let coordination else { return try catchUpWithoutCoordination() }
        // A section's look when nothing changed since the handle's last: the four words of the
        // look before a read.
        if holdingLockOfChanges && stagingIncarnation != 0 && !isBehind { return }
        // Another process may reuse the staging area while this one reads it (§12.7): what
        // was read then is thrown away, and the next reading of the published state finds the
        // records in the log file. A read that answered from the handle as it was would miss
        // changes whose calls had returned.
        for _ in 0..<Self.stagingAttempts {
            guard
                let state = coordination.published
                    ?? (holdingLockOfChanges ? nil : publishedOnceTheHolderIsDone(coordination))
            else {
                if !isWritable && !coordination.isWellFormed {
                    stateLock.withWriteLock { forgetCoordination() }
                    try catchUpWithoutCoordination()
                }
                return
            }
            if try catchUp(to: state) { return }
        }
    }

    /// The published state once the holder of the lock of changes has finished publishing
    /// another generation (the words read nil meanwhile, §12.4): waited for while that holder
    /// lives, for at most a second; nil when it died there (the next section publishes its
    /// log, §12.3 step 3), or the file is not well-formed. Not for a holder of the lock:
    /// whatever it finds unfinished, a dead holder left.
    private func publishedOnceTheHolderIsDone(_ coordination: Coordination) -> PublishedState? {
        let start = SystemTime.monotonicNanoseconds()
        var lastCheck: UInt64 = 0
        while coordination.isWellFormed {
            let now = SystemTime.monotonicNanoseconds()
            if now - start >= 1_000_000_000 { return nil }
            // Asked at once, then once a millisecond: a dead holder's words stay so until the
            // next section, and every read would otherwise wait here.
            if lastCheck == 0 || now - lastCheck >= Self.holderCheckInterval {
                lastCheck = now
                let holder = coordination.holder(of: .changes)
                if holder == 0 || holder == token || holderIsGone(holder) { return coordination.published }
            }
            SystemTime.sleep(nanoseconds: Self.shortestWait)
            if let state = coordination.published { return state }
        }
        return nil
    }

    /// How often a catch-up starts again when the staging area was reused under it.
    static let stagingAttempts = 64

    /// One catch-up to `state`; false when the staging area was reused while it was read.
    private func catchUp(to state: PublishedState) throws(LogStoreError) -> Bool {
        let applied = appliedLength
        // Another incarnation: the file was started afresh or made not valid since this handle
        // read it, and the staged records it took may be gone (§12.4).
        let restarted = stagingIncarnation != 0 && state.incarnation != stagingIncarnation
        if state.generation != generation || restarted {
            guard try reload(expecting: state.generation, state: state) else { return false }
            // The path names a log newer than the published one: a later compaction named it
            // and its holder has not published it (it is in its section, or died there). That
            // log holds everything published, so it is read, whole records only; answering
            // from the old log would hide values whose store has returned (§12.4).
            if generation != state.generation && pathNamesAnotherFile() {
                try reload(expecting: nil, state: nil)
            }
            return true
        }
        guard state.epoch != stagingEpoch || state.length > applied || stagingIncarnation == 0 else {
            return true
        }
        return try applyPublished(state, from: applied)
    }

    /// Whether the log's path names another file than the one this handle has open (a
    /// compaction elsewhere renamed its new log there).
    func pathNamesAnotherFile() -> Bool {
        guard let current = FileSystem.identity(ofPath: path) else { return false }
        return current != (try? FileSystem.status(descriptor, path: path).identity)
    }

    /// A reader beside a writer that keeps no coordination file: the file's length and identity
    /// tell, looked at no more than once a millisecond. At the same look, a coordination file
    /// that has become valid is taken up and followed from then on (§12.5).
    private func catchUpWithoutCoordination() throws(LogStoreError) {
        let now = SystemTime.monotonicNanoseconds()
        guard now >= nextFileCheck else { return }
        stateLock.withWriteLock { nextFileCheck = now + 1_000_000 }
        if !isWritable, let found = Coordination.openForReading(path: coordinationPath), found.isWellFormed {
            stateLock.withWriteLock { adopt(found) }
            return try catchUp(holdingLockOfChanges: false)
        }
        if pathNamesAnotherFile() {
            try reload(expecting: nil, state: nil)
            return
        }
        let size = try storeIO { try FileSystem.size(descriptor, path: path) }
        if size > flushedLength {
            var records: [CollectedRecord] = []
            func collect(_ header: ScannedHeader, _ key: UnsafeRawBufferPointer, _ offset: UInt64) {
                records.append((header, Array(key), offset))
            }
            var end = try scanInChunks(from: flushedLength, to: size, verifyingValues: true, collect)
            if end < size && options.skipsDamagedRecords, let mark = loadSyncMark(generation: generation),
                end < min(mark, size)
            {
                // Below the writer's sync mark the records are durable and whole: one that fails
                // a check there is damage, not a record being written (§12.5). It is skipped as
                // open skips it (§5.4, the durable length at the mark), and the scan reads on.
                let durable = min(mark, size)
                var report = recoveryState
                end = try scan(
                    from: end, fileSize: durable, durableLength: durable, knownTypesOnly: true,
                    report: &report, sink: collect)
                if end == durable && durable < size {
                    end = try scanInChunks(from: end, to: size, verifyingValues: true, collect)
                }
            }
            guard end > flushedLength else { return }
            stateLock.withWriteLock {
                applyCollected(records)
                flushedLength = end
                mapFlushedLength()
            }
        }
    }

    /// A record found by a scan: its header, its key, its offset.
    typealias CollectedRecord = (header: ScannedHeader, key: [UInt8], offset: UInt64)

    /// Applies the records others published after `applied` (§12.4): those below `base` from the
    /// log file, those up to `split` from the other area, the rest from the current one; the
    /// areas must not have been reused while they were read (§12.7; otherwise nothing is
    /// applied, false, and the caller reads the state again). The handle's view becomes
    /// `state`'s.
    private func applyPublished(_ state: PublishedState, from applied: UInt64) throws(LogStoreError) -> Bool {
        var records: [CollectedRecord] = []
        func collect(_ header: ScannedHeader, _ key: UnsafeRawBufferPointer, _ offset: UInt64) {
            records.append((header, Array(key), offset))
        }
        var end = applied
        if applied < state.base {
            end = try scanPublished(from: applied, to: state.base, collect)
            if end < state.base && skipsPublishedDamage {
                // A published record that fails its checks is damage (§12.4): the scan skips
                // it (§5.4, the durable length at `base`) and reads on.
                var report = recoveryState
                end = try scan(
                    from: end, fileSize: state.base, durableLength: state.base, knownTypesOnly: true,
                    following: .published, report: &report, sink: collect)
            }
        }
        var staged = StagedEnds(other: state.base, current: state.split)
        if end >= state.base {
            staged = parseStaged(state, from: applied, collect)
            options.stagedRecordsParsed?()
            guard stagingHolds(state) else { return false }
        }
        stateLock.withWriteLock {
            applyCollected(records)
            if end >= state.base {
                takeView(of: state, staged: staged)
            } else {
                // A published record in the file fails its checks and is not skipped: what came
                // before it is applied, the areas are not (their records would not follow on),
                // and the next look tries again.
                flushedLength = end
                olderCount = 0
                bufferedCount = 0
                stagingEpoch = 0
            }
            mapFlushedLength()
        }
        return true
    }

    /// How far the staged records were parsed, in the other area and in the current one.
    struct StagedEnds {
        var other: UInt64
        var current: UInt64
    }

    /// Parses the staged records of `state` after `applied`, in place in the areas: the other
    /// area's up to `split`, then, when those all parsed, the current one's up to the length.
    /// What it reads counts only once ``stagingHolds(_:)`` says no area was reused meanwhile.
    private func parseStaged(
        _ state: PublishedState, from applied: UInt64,
        _ sink: (ScannedHeader, UnsafeRawBufferPointer, UInt64) -> Void
    ) -> StagedEnds {
        guard let coordination else { return StagedEnds(other: state.base, current: state.split) }
        func parse(_ area: Int, areaStart: UInt64, from start: UInt64, to end: UInt64) -> UInt64 {
            guard start < end else { return max(start, end) }
            let bytes = UnsafeRawBufferPointer(
                start: coordination.area(area) + Int(start - areaStart), count: Int(end - start))
            return start + UInt64(parsePublished(bytes, at: start, verifyingValues: false, sink))
        }
        let other = parse(
            1 - state.current, areaStart: state.base, from: max(applied, state.base), to: state.split)
        guard other >= state.split else { return StagedEnds(other: other, current: state.split) }
        let current = parse(
            state.current, areaStart: state.split, from: max(applied, state.split), to: state.length)
        return StagedEnds(other: state.split, current: current)
    }

    /// Makes `state` this handle's view of the areas, with the staged records parsed up to
    /// `staged`, the file up to `base` applied. Caller holds the write side of the state lock.
    private func takeView(of state: PublishedState, staged: StagedEnds) {
        guard let coordination else { return }
        flushedLength = state.base
        olderBuffer = coordination.area(1 - state.current)
        buffer = coordination.area(state.current)
        olderCount = Int(staged.other - state.base)
        if staged.other == state.split {
            bufferedCount = Int(staged.current - state.split)
            stagingEpoch = state.epoch
        } else {
            // A staged record fails its checks: no view past it; the next look tries again.
            bufferedCount = 0
            stagingEpoch = 0
        }
        stagingIncarnation = state.incarnation
    }

    /// Whether the staging area still means what `state` says (§12.7).
    private func stagingHolds(_ state: PublishedState) -> Bool {
        coordination?.stagingIsUnchanged(since: (state.generation, state.epoch)) ?? false
    }

    /// Applies scanned records to the index, noting a change for each (§12.4). Caller holds
    /// `writerLock` and the write side of the state lock.
    private func applyCollected(_ records: [CollectedRecord]) {
        for record in records {
            record.key.withUnsafeBytes { key in
                // Once the changes are one `reloaded`, which says "derive everything again"
                // from the index as it is when the owner takes them, a record needs no change
                // of its own.
                let (before, after) = Self.apply(
                    record.header, key: key, at: record.offset, to: index, liveBytes: &liveBytes)
                guard !changesCollapsed else { return }
                if record.header.type == RecordFormat.RecordType.clear.rawValue {
                    pendingChanges.append(.cleared)
                } else {
                    let (before, after) = (before.map(EntryInfo.init), after.map(EntryInfo.init))
                    if before != after {
                        pendingChanges.append(.entry(key: record.key, before: before, after: after))
                    }
                }
                // An owner that never takes them (a read-only cache that only reads) must
                // not hold them without end: past the bound, one `reloaded` replaces them.
                if pendingChanges.count > pendingChangeLimit { pendingChanges = [.reloaded] }
            }
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

    /// The records of a published range of the log file (§12.4), parsed in memory: from the
    /// file mapping when it covers the range (a writer cuts back only what it has not
    /// published, so those bytes stay in the file; the values are not touched at all),
    /// otherwise read with `pread`. Each record is whole; the first that fails a check ends the
    /// range.
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

    /// Parses the whole records at the start of `bytes`, which begin at log offset `start`;
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

    /// Another process replaced the log (compaction), or dropped staged records this handle
    /// took: opens the file the path names now and loads its index, from its snapshot when it
    /// has one, up to `state`'s `base` in the file and its length in the staging area (`state`
    /// nil: the file's whole records, and nothing staged). A file of another generation than
    /// `expected` is left alone, and so is everything when the staging area is reused while it
    /// is read (false: the caller reads the published state again).
    @discardableResult
    func reload(expecting expected: UInt64?, state: PublishedState?) throws(LogStoreError) -> Bool {
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
        else { return true }
        // A compaction elsewhere may have made the log format 3 (§13): read it as such.
        formatMajor = decoded.major
        let size = try storeIO { try FileSystem.size(fd, path: path) }
        let end = min(state?.base ?? size, size)
        var newIndex = KeyIndex()
        var newLiveBytes: UInt64 = 0
        var start = UInt64(RecordFormat.fileHeaderSize)
        if options.usesSnapshot, let snapshot = loadSnapshot(generation: decoded.generation, fileSize: end) {
            newIndex = snapshot.index
            newLiveBytes = snapshot.liveBytes
            start = snapshot.logLength
        }
        var report = recoveryState
        var scanned: [CollectedRecord] = []
        let scannedEnd = try scan(
            from: start, fileSize: end, durableLength: end, knownTypesOnly: true,
            following: state != nil ? .published : .unpublished, in: fd, report: &report
        ) { header, key, offset in scanned.append((header, Array(key), offset)) }
        var staged: StagedEnds?
        if let state, scannedEnd == state.base {
            staged = parseStaged(state, from: state.base) { scanned.append(($0, Array($1), $2)) }
            guard stagingHolds(state) else { return false }
        }
        for (header, key, offset) in scanned {
            key.withUnsafeBytes {
                _ = Self.apply(header, key: $0, at: offset, to: newIndex, liveBytes: &newLiveBytes)
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
            generation = decoded.generation
            if let state, let staged {
                takeView(of: state, staged: staged)
            } else {
                // The file's whole records only: no view of the areas when the file did not
                // reach `base` (the next look tries again), or, for a log no one published
                // (`state` nil), none to take (its section publishes it with empty areas).
                flushedLength = scannedEnd
                olderCount = 0
                bufferedCount = 0
                stagingEpoch = state == nil ? (coordination?.epoch ?? 0) : 0
                // The areas the words name: this handle's last view of them may be older than
                // the last switch (a section that found no published state to catch up with,
                // a dead compactor's publish under way), and its section appends to `buffer`.
                if let coordination, coordination.isWellFormed {
                    let current = coordination.plainState.current
                    buffer = coordination.area(current)
                    olderBuffer = coordination.area(1 - current)
                }
            }
            snapshotLength = nil
            pendingChanges = [.reloaded]
            mapFlushedLength()
        }
        // No reader is left on the replaced file: reads copy and pread under the read lock, and
        // a lent mapping keeps its own reference.
        if isWritable { releaseLock(of: oldDescriptor, path: path) }
        FileSystem.close(oldDescriptor)
        return true
    }
}
