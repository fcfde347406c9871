#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

extension LogStore {
    /// How processes that open one store together find out about each other (`Spec/store.md`
    /// §12). The store's owner excludes the processes that do not share (a cache does with its
    /// folder's lock) and tells the store whether it is the first.
    public struct Sharing: Sendable {
        /// Asked once at open, while the store holds the open lock: whether no other process
        /// has the store open. The first process recovers the log as a lone writer would
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

    /// Whether the calling thread runs a section of this handle: it holds the lock of changes
    /// and caught up when the section began, and no other process can publish meanwhile (one
    /// word looked at, ``ThreadOwner``).
    @inline(__always)
    var isInSection: Bool { sectionOwner.isCurrentThread }

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
    /// - Throws: what `body` throws; `ioError` when catching up fails.
    @inlinable
    public func withExclusiveAccess<Result>(_ body: () throws(LogStoreError) -> Result) throws(LogStoreError)
        -> Result
    {
        // Generic only here, where the caller's module specialises it: the section itself is
        // not generic, so it instantiates no generic type at run time.
        var result: Result?
        try runExclusively { () throws(LogStoreError) in result = try body() }
        return result!
    }

    /// The work of ``withExclusiveAccess(_:)``: `body` in a section of a shared store, or
    /// alone, when the store does not share or the thread is in a section already.
    @usableFromInline
    func runExclusively(_ body: () throws(LogStoreError) -> Void) throws(LogStoreError) {
        guard options.sharing != nil, !isInSection else { return try body() }
        try accessLock.withLock { () throws(LogStoreError) in
            defer { writeOtherAreaOutAfterSection() }
            _ = try exclusiveSection(waiting: true, body)
        }
    }

    /// Runs `body` as ``withExclusiveAccess(_:)`` does when the lock of changes can be taken at
    /// once; nil, without running it, when another thread or process holds it. For work that
    /// can wait for a later occasion (a cache applying the hits readers recorded), so that a
    /// reader never waits for another process's compaction.
    public func withExclusiveAccessIfAvailable<Result>(_ body: () throws(LogStoreError) -> Result)
        throws(LogStoreError) -> Result?
    {
        guard options.sharing != nil, !isInSection else { return try body() }
        var result: Result?
        _ = try accessLock.withLockIfAvailable { () throws(LogStoreError) -> Bool in
            defer { writeOtherAreaOutAfterSection() }
            return try exclusiveSection(waiting: false) { () throws(LogStoreError) in result = try body() }
        }
        return result
    }

    /// Inside a section (§12.3): writes the staging area to the log file and publishes
    /// everything the section wrote so far, so that it is kept even if this process, and every
    /// other, dies before the section ends (the next holder cuts only what was not published,
    /// and staged records need a living process or the same boot, §12.10). For work that must
    /// wait until its records are safe: a hybrid holder deleting the files its records stopped
    /// naming. Does nothing outside a section, or when the store does not share.
    /// - Throws: `ioError` when the staging area cannot be written.
    public func publishWrittenRecords() throws(LogStoreError) {
        guard options.sharing != nil, isInSection else { return }
        try writerLock.withLock { () throws(LogStoreError) in
            if isClosed || coordination == nil { return }
            try flushBuffer()
        }
    }

    /// A section (§12.3), holding `accessLock` (a thread in a section of this handle never gets
    /// here again: ``isInSection``); whether it ran, false when `waiting` is false and another
    /// process holds the lock of changes.
    private func exclusiveSection(waiting: Bool, _ body: () throws(LogStoreError) -> Void)
        throws(LogStoreError) -> Bool
    {
        if isClosed { throw .closed(path: path) }
        guard let coordination else { throw .closed(path: path) }
        guard takeLockOfChanges(coordination, waiting: waiting) else { return false }
        // A handle closed inside its section (a test's crash) keeps the lock, as a process that
        // died there would; the next one to want it finds the liveness file let go (§12.8).
        defer { if !isClosed { coordination.release(.changes) } }
        // One hold of the writer lock for the whole section: the mutations inside take it again
        // (it is recursive), at the cost of a count, not of a lock.
        try writerLock.withLock { () throws(LogStoreError) in
            try catchUp(holdingLockOfChanges: true)
            if coordination.isWriting {
                try cleanUpAfterDeadHolder(coordination)
                // Finishing a dead holder's move of the areas changes them: follow them.
                try catchUp(holdingLockOfChanges: true)
            }
            // Appends go where the areas say (§12.7): a view that does not match them must not
            // write. Under the lock nothing is published, so a view short of the length stopped
            // at a published record that fails its checks (§12.4): that is damage, named so.
            guard
                coordination.generation != generation
                    || (splitOffset == coordination.split && appliedLength == coordination.length)
            else {
                if appliedLength < coordination.length { throw .corruptRecord(offset: appliedLength) }
                throw .ioError(
                    operation: "catch up with the shared store", errno: Errno.invalidArgument.rawValue,
                    path: coordinationPath)
            }
            coordination.setWriting(true)
            // Calls this thread makes inside the section know it is caught up and holds the lock.
            sectionOwner.claim()
            defer { sectionOwner.release() }
            defer {
                // Closed inside its section: the flag stays set, as a process that died there
                // would leave it.
                if !isClosed {
                    publish(coordination)
                    coordination.setWriting(false)
                }
            }
            try body()
        }
        return true
    }

    /// §12.3 step 3: the last holder died between writing and publishing. What it wrote past
    /// `base` in the log file was returned to no caller, or is a copy of the staging area it
    /// had not yet counted: cut it. If it died after its compaction named the new log and
    /// before publishing it, that log is the store now: take it up whole (published at the
    /// section's end, with `base` at its end). Holds `writerLock`.
    private func cleanUpAfterDeadHolder(_ coordination: Coordination) throws(LogStoreError) {
        // A process writing the other area out writes past `base`: it finishes first.
        waitForFlushLock(coordination)
        defer { coordination.release(.flush) }
        coordination.finishInterruptedMove()
        if pathNamesAnotherFile() { try reload(expecting: nil, state: nil) }
        // On the published log, never below `base`: the bytes there were published. On a log the
        // dead holder named and never published (taken up now, or by a read before), after its
        // last whole record.
        let end = generation == coordination.generation ? coordination.base : flushedLength
        try storeIO { try FileSystem.truncate(descriptor, to: end, path: path) }
        if generation != coordination.generation {
            // The dead compactor's log is published at once, its areas empty, so that what the
            // section appends is staged where the areas say.
            publishNewGenerationHoldingFlushLock(coordination, length: flushedLength)
        }
    }

    /// Publishes this handle's log (§12.3 step 6): its length, and with another generation
    /// than the published one, `base` and a new epoch too. Holds `writerLock`.
    func publish(_ coordination: Coordination) {
        let length = appliedLength
        if coordination.generation != generation {
            // A new log (a compaction, or a dead compactor's taken up): every record is in its
            // file, and the areas are empty.
            publishNewGeneration(coordination, length: length)
        } else {
            coordination.publish(length: length)
        }
    }

    /// A word every sharing process reads and writes under the lock of changes, for the owner's
    /// use (a cache keeps its next access sequence there, `Spec/backends.md` §9). 0 until set.
    /// Read it and set it inside ``withExclusiveAccess(_:)``.
    public var sharedCounter: UInt64 {
        get { coordination?.counter ?? 0 }
        set { coordination?.setCounter(newValue) }
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

    // MARK: Open (§12.2, §12.9, §12.10)

    /// A writer of a shared store: opens (creates) the coordination file and takes the open
    /// lock, held until the caller lets it go when the open is done (§12.2 step 1).
    func openSharedCoordination() throws(LogStoreError) -> Coordination {
        let opened = try storeIO { try Coordination.openForWriting(path: coordinationPath) }
        try storeIO { try FileLock.lockExclusively(opened.descriptor, path: opened.path) }
        return opened
    }

    /// The coordination file a writer that has the store alone finds beside it (§12.2 rule 3,
    /// §12.9), mapped for writing; nil when it is missing or short (it holds nothing to take).
    func existingCoordination() throws(LogStoreError) -> Coordination? {
        guard FileSystem.exists(coordinationPath) else { return nil }
        let opened = try storeIO { try Coordination.openForWriting(path: coordinationPath) }
        guard try storeIO({ try opened.hasFullSize() }) else { return nil }
        try storeIO { try opened.mapForWriting(extending: false) }
        return opened
    }

    /// Takes up the records the last sharing processes staged and none wrote to the log file
    /// (§12.10), before the open reads the log: cuts the log at `base` and writes them there.
    /// Holds the log's lock and, for a sharer, the open lock; no other writer lives.
    func takeUpStagedRecords(from coordination: Coordination) throws(LogStoreError) {
        guard coordination.holdsStagedRecords(ofGeneration: generation) else { return }
        let state = coordination.plainState
        guard try storeIO({ try FileSystem.size(descriptor, path: path) }) >= state.base else { return }
        try storeIO { try FileSystem.truncate(descriptor, to: state.base, path: path) }
        guard state.length > state.base else { return }
        try prepareToWriteRecords()
        // The other area's records, then the current one's, each where they lie in the log.
        for (area, start, end) in [
            (1 - state.current, state.base, state.split), (state.current, state.split, state.length),
        ] where end > start {
            try storeIO {
                try FileSystem.write(
                    descriptor,
                    UnsafeRawBufferPointer(start: coordination.area(area), count: Int(end - start)),
                    at: start, path: path)
            }
        }
    }

    /// A joining open, holding the lock of changes, whose last holder died (writing is 1):
    /// finishes a move of the areas it left half done (§12.3 step 3), under the flush lock (a
    /// process writing the other area out moves `base`).
    func finishInterruptedMove(_ coordination: Coordination) {
        waitForFlushLock(coordination)
        defer { coordination.release(.flush) }
        coordination.finishInterruptedMove()
    }

    /// Makes the coordination file this handle follows its staging area its write buffer
    /// (§12.7). The caller holds the write side of the state lock, or has the handle to itself.
    func adopt(_ coordination: Coordination) {
        self.coordination = coordination
        let current = coordination.isWellFormed ? coordination.plainState.current : 0
        buffer = coordination.area(current)
        olderBuffer = coordination.area(1 - current)
        bufferCapacity = isWritable ? CoordinationFormat.areaCapacity : 0
        bufferedCount = 0
        olderCount = 0
        stagingEpoch = 0
    }

    /// Lets a coordination file that stopped being valid go (a writer that does not share has
    /// the store, §12.5, §12.9): the reader follows the file from now on. The caller holds the
    /// write side of the state lock.
    func forgetCoordination() {
        coordination = nil
        buffer = ownBuffer
        olderBuffer = ownBuffer
        bufferedCount = 0
        olderCount = 0
        stagingEpoch = 0
    }
}
