import Dispatch

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Rewrites the live records into a new file, dropping entries with `expiresAt <= now`,
    /// and replaces the old file with it (`Spec/store.md` §7).
    ///
    /// Reads keep working while it runs; mutations wait. A crash at any step leaves either the
    /// old or the new file in place, both complete.
    /// - Parameter now: the time in ms since the epoch that decides expiry.
    /// - Returns: what was kept and dropped.
    /// - Throws: `readOnly`, `diskFull`, `fileSizeLimitExceeded`, `ioError`, `closed`; on a
    ///   throw the store is unchanged.
    /// - Complexity: O(live bytes + entries · log entries).
    public func compact(now: Int64) throws(LogStoreError) -> CompactionResult {
        try withExclusiveAccess { () throws(LogStoreError) -> CompactionResult in
            try writerLock.withLock { () throws(LogStoreError) -> CompactionResult in
                try checkWritable()
                return try compactHoldingWriterLock(now: now)
            }
        }
    }

    /// Runs compaction after a mutation when dead bytes pass the configured ratio (§7.4).
    /// Failures are not the mutation's: they are swallowed, and retried once the file grew.
    func compactAutomaticallyIfNeeded() {
        guard let ratio = options.compactionDeadRatio, !isClosed else { return }
        let size = appliedLength
        guard size >= options.compactionMinimumFileSize, size >= nextAutomaticCompactionSize else { return }
        let dead =
            size - UInt64(RecordFormat.fileHeaderSize)
            - min(liveBytes, size - UInt64(RecordFormat.fileHeaderSize))
        guard Double(dead) >= ratio * Double(size) else { return }
        do {
            _ = try compactHoldingWriterLock(now: options.clock())
            nextAutomaticCompactionSize = 0
        } catch {
            nextAutomaticCompactionSize = size + size / 4
        }
    }

    /// Compaction itself. `now` nil drops nothing (the rewrite that makes a log format 3);
    /// `major` is the new log's major version (default: the log's own, §12.4).
    func compactHoldingWriterLock(now: Int64?, major: UInt16? = nil) throws(LogStoreError) -> CompactionResult
    {
        let newMajor = major ?? formatMajor
        try flushBuffer()
        // The new log is made durable as a whole: whatever its records name must be first.
        try prepareToWriteRecords()
        let bytesBefore = flushedLength
        let live = liveEntriesInFileOrder()
        let temporary = compactionPath
        try storeIO { try FileSystem.remove(temporary) }
        let newDescriptor = try storeIO {
            try FileSystem.open(temporary, .readWrite, options: .exclusiveCreate)
        }
        var committed = false
        var crashed = false
        var newFileLocked = false
        defer {
            if !committed && !crashed {
                if newFileLocked { releaseLock(of: newDescriptor, path: temporary) }
                FileSystem.close(newDescriptor)
                try? FileSystem.remove(temporary)
            }
        }
        /// A test hook: stop here as a crash would, leaving the files as they are.
        func checkpoint(_ step: CompactionStep) throws(LogStoreError) {
            guard options.compactionFault == step else { return }
            crashed = true
            stateLock.withWriteLock {
                if descriptor != newDescriptor {
                    ExclusiveLock.release(newDescriptor, path: temporary)
                    FileSystem.close(newDescriptor)
                }
                closeDescriptor()
            }
            throw .injectedFault(step: step)
        }

        let newGeneration = UInt64.random(in: 1...UInt64.max)
        let appender = FileAppender(descriptor: newDescriptor, path: temporary)
        try withUnsafeTemporaryAllocation(byteCount: RecordFormat.fileHeaderSize, alignment: 8) {
            (header) throws(LogStoreError) in
            RecordFormat.encodeFileHeader(generation: newGeneration, major: newMajor, into: header)
            try appender.append(UnsafeRawBufferPointer(header))
        }
        let reader = WindowedReader(descriptor: descriptor, path: path, end: flushedLength)
        let head = UnsafeMutableRawBufferPointer.allocate(
            byteCount: RecordFormat.recordHeaderSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer { head.deallocate() }
        let newIndex = KeyIndex(
            minimumCapacity: live.count, keyBytesCapacity: live.reduce(0) { $0 + Int($1.entry.keyLength) })
        var newLiveBytes: UInt64 = 0
        var expired = 0
        // Byte-for-byte copies of adjacent records are merged into runs. Long runs are copied
        // inside the kernel where it can (copy_file_range); short ones through the buffers,
        // which is faster than a system call per few kilobytes.
        var kernelCopies = true
        var run: (source: UInt64, destination: UInt64, count: UInt64)?
        func finishRun() throws(LogStoreError) {
            guard let pending = run else { return }
            run = nil
            if kernelCopies && pending.count >= 1 << 20 {
                try appender.flush()
                let outcome = try storeIO {
                    try FileSystem.copyRange(
                        from: descriptor, at: pending.source, to: newDescriptor, at: pending.destination,
                        count: pending.count, path: temporary)
                }
                switch outcome {
                case .copied:
                    try appender.skip(pending.count)
                    return
                case .sourceEnded(let copied):
                    throw .truncatedRecord(offset: pending.source + copied)
                case .unsupported:
                    kernelCopies = false
                }
            }
            try reader.read(pending.source, count: pending.count) { piece throws(LogStoreError) in
                try appender.append(piece)
            }
        }
        var nextDestination = appender.length
        for (position, (number, entry)) in live.enumerated() {
            if position == live.count / 2 { try checkpoint(.writingRecords) }
            if let now, entry.metadata.isExpired(at: now) {
                expired += 1
                continue
            }
            let newOffset = nextDestination
            if entry.recordIsCurrent {
                // The record is copied byte for byte: a damaged one stays detectably damaged.
                if let pending = run, pending.source + pending.count == entry.offset {
                    run!.count += entry.recordLength
                } else {
                    try finishRun()
                    run = (entry.offset, newOffset, entry.recordLength)
                }
            } else {
                try finishRun()
                try rewriteRecord(entry, head: head, reader: reader, appender: appender)
            }
            var moved = entry
            moved.offset = newOffset
            moved.metadataMatchesRecord = true
            moved.putUserMetadataLength = entry.userMetadataLength
            moved.userMetadataOffset = entry.userMetadataLength == 0 ? 0 : newOffset
            nextDestination += moved.recordLength
            newIndex.insert(index.key(at: number), moved)
            newLiveBytes += moved.recordLength
        }
        try finishRun()
        if live.isEmpty { try checkpoint(.writingRecords) }
        try appender.flush()
        try checkpoint(.synchronizingNewFile)
        try storeIO {
            try FileSystem.synchronizeFile(newDescriptor, path: temporary, mode: options.flushMode)
        }
        // Lock the new file before it takes the store's name, so no other process can open
        // and lock it in between (a shared store's writer, shared, §12.1).
        do {
            if options.sharing == nil {
                try ExclusiveLock.acquire(newDescriptor, path: temporary, patienceMilliseconds: 0)
            } else {
                try ExclusiveLock.acquireShared(newDescriptor, path: temporary, patienceMilliseconds: 0)
            }
        } catch {
            // Nothing else can know this file yet; a refusal means the system refused the call.
            if case .system(let failure) = error { throw LogStoreError(failure) }
            throw .storeLocked(path: temporary, byThisProcess: error == .heldByThisProcess)
        }
        newFileLocked = true
        try checkpoint(.replacingOldFile)
        try storeIO { try FileSystem.rename(temporary, to: path) }
        committed = true
        let oldDescriptor = descriptor
        stateLock.withWriteLock {
            unmapFile()
            descriptor = newDescriptor
            index = newIndex
            flushedLength = appender.length
            liveBytes = newLiveBytes
            generation = newGeneration
            formatMajor = newMajor
            snapshotLength = nil
            mapFlushedLength()
        }
        // The last close of the replaced file frees its blocks and page cache, which takes
        // long for a large file; nothing uses the descriptor any more, so do it off this thread.
        releaseLock(of: oldDescriptor, path: path)
        DispatchQueue.global(qos: .utility).async { FileSystem.close(oldDescriptor) }
        try checkpoint(.synchronizingDirectory)
        do {
            try storeIO {
                try FileSystem.synchronizeDirectory(FileSystem.directory(of: path), mode: options.flushMode)
            }
        } catch {
            // The new log's name may not be durable, so a power cut may bring back the old
            // file, without what is appended from now on: the next synchronize compacts again.
            logDataInDoubt = true
            throw error
        }
        // Every live record is in a durable file under the log's durable name: nothing a failed
        // fdatasync of the old file covered is needed any more (§8.3).
        logDataInDoubt = false
        writeSyncMark(length: flushedLength, generation: generation, durable: true)
        if let coordination, isWritable {
            // Shared (`Spec/store.md` §12.3): the new log is published now, its records all in
            // its file and the staging areas empty, so that records the section appends after
            // it are staged where the areas say.
            publishNewGeneration(coordination, length: flushedLength)
        }
        try checkpoint(.writingSnapshot)
        if options.usesSnapshot {
            // The snapshot only speeds up the next open; failing to write it is not an error.
            try? writeSnapshot()
        }
        return CompactionResult(
            keptEntries: newIndex.count, expiredEntries: expired, bytesBefore: bytesBefore,
            bytesAfter: appender.length)
    }

    /// The index's entries in the order of their records in the file, which compaction and
    /// migration copy them in.
    func liveEntriesInFileOrder() -> [(number: Int, entry: IndexEntry)] {
        var live: [(number: Int, entry: IndexEntry)] = []
        live.reserveCapacity(index.count)
        index.forEachEntry { number, _, entry in live.append((number, entry)) }
        live.sort { $0.entry.offset < $1.entry.offset }
        return live
    }

    /// Copies a put record whose metadata was changed by touch records (or whose user metadata
    /// a user-metadata record replaced), with a new header, the value copied as it is and the
    /// current user-metadata block copied as it is, checksum included (§13.4). The value checksum is carried over from the old header, once
    /// that header's own checksum vouches for it; a value damaged on disk therefore stays
    /// detectably damaged. A record whose header no longer passes gets a value checksum that
    /// cannot match (the complement of the value's), for the same reason (§7.1).
    private func rewriteRecord(
        _ entry: IndexEntry, head: UnsafeMutableRawBufferPointer, reader: WindowedReader,
        appender: FileAppender
    ) throws(LogStoreError) {
        let headLength = RecordFormat.recordHeaderSize + Int(entry.keyLength)
        try reader.copy(entry.offset, count: headLength, into: head.baseAddress!)
        let old = RecordFormat.decodeHeader(UnsafeRawBufferPointer(head), major: formatMajor)
        var valueChecksum = old.valueChecksum
        if RecordFormat.headChecksum(UnsafeRawBufferPointer(rebasing: head[..<headLength]))
            != old.headerChecksum
        {
            var computed = XXH3()
            try reader.read(entry.offset + UInt64(headLength), count: entry.valueLength) {
                computed.update($0)
            }
            valueChecksum = ~computed.value
        }
        let key = UnsafeRawBufferPointer(
            start: head.baseAddress! + RecordFormat.recordHeaderSize, count: Int(entry.keyLength))
        RecordFormat.encodeHead(
            type: .put, key: key, valueLength: entry.valueLength, valueChecksum: valueChecksum,
            metadata: entry.metadata, userMetadataLength: Int(entry.userMetadataLength),
            into: head.baseAddress!)
        try appender.append(UnsafeRawBufferPointer(rebasing: head[..<headLength]))
        try reader.read(entry.offset + UInt64(headLength), count: entry.valueLength) {
            piece throws(LogStoreError) in
            try appender.append(piece)
        }
        if entry.userMetadataLength > 0 {
            try reader.read(
                userMetadataBlockOffset(entry),
                count: RecordFormat.userMetadataBlockLength(Int(entry.userMetadataLength))
            ) {
                piece throws(LogStoreError) in
                try appender.append(piece)
            }
        }
    }
}
