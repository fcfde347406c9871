#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The two staging areas of a shared store (`Spec/store.md` §12.7): records are appended to the
/// current one; when it fills, the areas switch, and the full one goes to the log file in one
/// write while the processes go on appending to the other. That write runs outside the lock of
/// changes, under the flush lock, so the other processes' sections do not wait for it.
extension LogStore {
    /// Makes room for a record in the buffer: a store that shares switches its areas (rule 2),
    /// one that does not writes its buffer to the file. Holds `writerLock` (and, shared, the
    /// lock of changes).
    func makeRoom() throws(LogStoreError) {
        guard let coordination, isWritable else { return try flushBuffer() }
        try switchAreas(coordination)
    }

    /// §12.7 rule 2: the other area is made empty (written out first, waiting for a process
    /// that is writing it out), then becomes the current one, starting at this handle's length;
    /// what the current area holds is the other area's now. Holds `writerLock` and the lock of
    /// changes.
    private func switchAreas(_ coordination: Coordination) throws(LogStoreError) {
        // The words decide, not this handle's view: an area that still holds records must
        // never become the current one, whose bytes the next appends overwrite.
        if olderCount > 0 || coordination.otherAreaHoldsRecords {
            try writeOtherAreaOut(coordination, waiting: true)
        }
        let split = appliedLength
        // Published before it is the other area's: the words never say split > length.
        coordination.publish(length: split)
        coordination.switchAreas(at: split, halfway: options.areasSwitchingHalfway)
        stateLock.withWriteLock {
            olderCount = bufferedCount
            swap(&buffer, &olderBuffer)
            bufferedCount = 0
            stagingEpoch = coordination.epoch
        }
    }

    /// §12.7 rule 3: holding the flush lock (waiting for it, or only when it is free at once),
    /// writes the other area to the log file at `base` and moves `base` to `split`; whether it
    /// took the lock. This handle's view moves with `base` when it is of the same areas. Holds
    /// `writerLock` (the write goes to this handle's descriptor, which a catch-up of another
    /// thread could otherwise replace meanwhile).
    @discardableResult
    func writeOtherAreaOut(_ coordination: Coordination, waiting: Bool) throws(LogStoreError) -> Bool {
        guard takeFlushLock(coordination, waiting: waiting) else { return false }
        defer { coordination.release(.flush) }
        let state = coordination.plainState
        // Another log than this handle's (a compaction it has not followed yet) has nothing
        // staged of this one, and a compaction empties the areas first (rule 4).
        guard state.generation == generation else { return true }
        if state.base < state.split {
            try writeToFile(
                coordination.area(1 - state.current), count: Int(state.split - state.base), at: state.base)
            coordination.moveBase(to: state.split)
        }
        if state.epoch == stagingEpoch && flushedLength < state.split && splitOffset == state.split {
            stateLock.withWriteLock {
                olderCount = 0
                flushedLength = state.split
                mapFlushedLength()
            }
        }
        return true
    }

    /// §12.7 rule 4: everything staged goes to the log file (the other area, then the current
    /// one up to this handle's length, published first), and the areas are empty, the current
    /// one used again from its start. Holds `writerLock` and the lock of changes.
    func writeEverythingOut(_ coordination: Coordination) throws(LogStoreError) {
        guard appliedLength > flushedLength || coordination.base < coordination.plainState.split else {
            return
        }
        waitForFlushLock(coordination)
        defer { coordination.release(.flush) }
        let state = coordination.plainState
        if state.base < state.split {
            try writeToFile(
                coordination.area(1 - state.current), count: Int(state.split - state.base), at: state.base)
            coordination.moveBase(to: state.split)
        }
        let length = appliedLength
        if length > state.split {
            coordination.publish(length: length)
            try writeToFile(
                coordination.area(state.current), count: Int(length - state.split), at: state.split)
        }
        coordination.emptyAreas(at: length)
        stateLock.withWriteLock {
            flushedLength = length
            olderCount = 0
            bufferedCount = 0
            stagingEpoch = coordination.epoch
            mapFlushedLength()
        }
    }

    /// Publishes this handle's log as a new generation with empty areas (§12.3 step 6), holding
    /// the flush lock (§12.7): a process writing the other area out after its section holds
    /// that lock only, and reads `base` and `split` as they must stay until it is done. Holds
    /// `writerLock` and the lock of changes, not the flush lock.
    func publishNewGeneration(_ coordination: Coordination, length: UInt64) {
        waitForFlushLock(coordination)
        defer { coordination.release(.flush) }
        publishNewGenerationHoldingFlushLock(coordination, length: length)
    }

    /// ``publishNewGeneration(_:length:)`` for a caller that holds the flush lock already.
    func publishNewGenerationHoldingFlushLock(_ coordination: Coordination, length: UInt64) {
        stateLock.withWriteLock {
            coordination.publish(generation: generation, length: length)
            stagingEpoch = coordination.epoch
        }
    }

    /// After a section, once the lock of changes is released (§12.7 rule 3): writes the other
    /// area out when it holds records and no process is writing it out already, so the write
    /// overlaps the next sections of the others. A failure is left to the next writer: the
    /// area stays as it is. Holds `accessLock`.
    func writeOtherAreaOutAfterSection() {
        guard let coordination, isWritable, !isClosed, coordination.otherAreaHoldsRecords else { return }
        writerLock.withLock {
            guard !isClosed else { return }
            _ = try? writeOtherAreaOut(coordination, waiting: false)
        }
    }

    /// Writes `count` bytes of an area to the log file at `offset`, the owner's hook first
    /// (§8.6); a partial write is cut back to `offset` (§8.4), which leaves the records in their
    /// area.
    private func writeToFile(_ area: UnsafeMutableRawPointer, count: Int, at offset: UInt64)
        throws(LogStoreError)
    {
        try prepareToWriteRecords()
        do {
            try storeIO {
                try FileSystem.write(
                    descriptor, UnsafeRawBufferPointer(start: area, count: count), at: offset, path: path)
            }
        } catch {
            try undoPartialWrite(to: offset, after: error)
        }
    }
}
