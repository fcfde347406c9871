#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Opens, locks and indexes the store (`Spec/store.md` §5).
    func openAndRecover() throws(LogStoreError) {
        if isWritable && !FileSystem.exists(path) { try createEmptyStore() }
        // A shared writer opens under the open lock (§12.2): the first process recovers the log
        // alone; a later one trusts what the others published, under the lock of changes.
        let sharedCoordination = options.sharing != nil && isWritable ? try openSharedCoordination() : nil
        defer { if let sharedCoordination { FileLock.unlock(sharedCoordination.descriptor) } }
        var joining = false
        if let sharedCoordination {
            joining = try !storeIO { try options.sharing!.isOnlyProcess() }
            if joining {
                // Others have it open: the file they keep is well-formed, or they are of another
                // kind.
                guard try storeIO({ try sharedCoordination.hasFullSize() }) else { throw cannotJoin() }
                try storeIO { try sharedCoordination.mapForWriting(extending: false) }
                guard sharedCoordination.isWellFormed else { throw cannotJoin() }
                try takeToken(sharedCoordination)
                waitForLockOfChanges(sharedCoordination)
            } else {
                try storeIO { try sharedCoordination.mapForWriting(extending: true) }
            }
        }
        // A joining open that fails lets the lock of changes go; one that succeeds too, once
        // it has read what the others published.
        defer { if joining { sharedCoordination!.release(.changes) } }
        if joining {
            // Whether the words agree can be told only now, with no holder changing them; a
            // holder that died while moving the areas left them disagreeing, which is finished
            // first, as the next section would (§12.3 step 3).
            if sharedCoordination!.isWriting { finishInterruptedMove(sharedCoordination!) }
            guard sharedCoordination!.isValid else { throw cannotJoin() }
        }
        try openAndLock()
        var fileSize = try storeIO { try FileSystem.size(descriptor, path: path) }
        if fileSize == 0 && isWritable {
            // An empty file holds nothing to lose: make it a store (§2.1 rule 5). Keep the
            // descriptor, and with it the lock; a second open here would contend with itself.
            try writeEmptyHeader(to: descriptor, path: path)
            fileSize = try storeIO { try FileSystem.size(descriptor, path: path) }
        }
        let headerBytes = try withUnsafeTemporaryAllocation(
            byteCount: RecordFormat.fileHeaderSize, alignment: 8
        ) {
            (bytes) throws(LogStoreError) -> [UInt8] in
            let got = try storeIO { try FileSystem.read(descriptor, into: bytes, at: 0, path: path) }
            return Array(bytes[..<got])
        }
        let header = try rethrowingStoreErrors {
            try headerBytes.withUnsafeBytes { bytes in
                try RecordFormat.decodeFileHeader(bytes, path: path)
            }
        }
        if header.major == LegacyRecordFormat.majorVersion {
            // Format 1 is migrated by a lone writer and refused to a reader (§2.1 rule 3, §11)
            // and to a shared writer, which another process may have joined (§12.2).
            guard isWritable, options.sharing == nil else { throw .migrationRequired(path: path) }
            try migrateFromFormat1(header, fileSize: fileSize)
            closeDescriptor()
            isClosed = false
            index = KeyIndex()
            liveBytes = 0
            return try openAndRecover()
        }
        let newerMinor = header.minor > RecordFormat.minorVersion
        if newerMinor && isWritable {
            throw .newerMinorVersion(path: path, major: header.major, minor: header.minor)
        }
        generation = header.generation
        formatMajor = header.major
        // Another generation than the published one while the last holder is marked writing: it
        // died after its compaction named this log and before it published it. The log is the
        // store: it is taken up whole, its torn tail cut, as a first process would (§12.2 rule 4).
        let takingUp =
            joining && sharedCoordination!.generation != generation && sharedCoordination!.isWriting
        // Published bytes in the log file are whole when the coordination file is of this boot
        // (§12.4): a record there that fails its checks is damage, not a torn tail.
        var publishedIsWhole = false
        if joining && !takingUp {
            // The others published this log: in the file up to `base`, then in the staging area
            // (read below); what lies past it in the file is no one's yet.
            guard sharedCoordination!.generation == generation else { throw cannotJoin() }
            fileSize = min(fileSize, sharedCoordination!.base)
            publishedIsWhole = true
        } else if !isWritable, let found = Coordination.openForReading(path: coordinationPath),
            found.isWellFormed
        {
            // A reader follows the writers through a valid coordination file (§12.5): the file
            // up to `base` now, the staging area after the scan.
            adopt(found)
            if let state = found.published, state.generation == generation {
                fileSize = min(fileSize, state.base)
                publishedIsWhole = found.wasStartedThisBoot
            }
        } else if isWritable && !joining {
            try storeIO { try FileSystem.remove(compactionPath) }
            // This process has the store alone: what the last sharers staged is taken up
            // before the log is read (§12.10), and a writer that does not share puts the
            // coordination file out of use (§12.9).
            var found = sharedCoordination
            if options.sharing == nil { found = try existingCoordination() }
            if let found {
                try takeUpStagedRecords(from: found)
                if options.sharing == nil && found.isWellFormed {
                    removeLeftLivenessFiles()
                    found.invalidate()
                }
                fileSize = try storeIO { try FileSystem.size(descriptor, path: path) }
            }
        }

        var start = UInt64(RecordFormat.fileHeaderSize)
        var usedSnapshot = false
        if options.usesSnapshot, let snapshot = loadSnapshot(generation: generation, fileSize: fileSize) {
            index = snapshot.index
            liveBytes = snapshot.liveBytes
            start = snapshot.logLength
            snapshotLength = snapshot.logLength
            usedSnapshot = true
        }
        // §5.3: how much of the log a synchronize() made durable. Damage before it is damage
        // to synchronized data; from it on, a record counts only whole and intact.
        let mark = loadSyncMark(generation: generation)
        let markedLength = min(fileSize, max(start, mark ?? UInt64(RecordFormat.fileHeaderSize)))
        let durableLength = publishedIsWhole ? fileSize : markedLength
        var report = RecoveryReport(
            usedSnapshot: usedSnapshot, scannedRecords: 0, tailOffset: nil, discardedBytes: 0,
            durableLength: durableLength)
        let end = try scan(
            from: start, fileSize: fileSize, durableLength: durableLength, knownTypesOnly: !newerMinor,
            report: &report)
        if end < fileSize {
            report.tailOffset = end
            report.discardedBytes = fileSize - end
            if isWritable && (!joining || takingUp) {
                try storeIO { try FileSystem.truncate(descriptor, to: end, path: path) }
            }
        }
        if isWritable && (!joining || takingUp) {
            // What open kept past the mark is durable once this returns, and the mark says so.
            if end != durableLength || end < fileSize {
                do {
                    // Written again first: a failed writeback may have left them clean (§8.3).
                    if end > durableLength { try writeAgainInPlace(durableLength..<end) }
                    try storeIO {
                        try FileSystem.synchronizeData(descriptor, path: path, mode: options.flushMode)
                    }
                } catch {
                    // A retried open's fdatasync would succeed without writing these bytes
                    // (§8.3): the open goes on without a mark for them, and the first
                    // synchronize or close rewrites the log.
                    logDataInDoubt = true
                }
            }
            if !logDataInDoubt { writeSyncMark(length: end, generation: generation) }
        }
        flushedLength = end
        recoveryState = report
        if let sharedCoordination {
            if !joining {
                sharedCoordination.startAfresh()
                removeLeftLivenessFiles()
                sharedCoordination.publish(generation: generation, length: end)
                sharedCoordination.stampFormat()
                try takeToken(sharedCoordination)
            } else if takingUp {
                sharedCoordination.publish(generation: generation, length: end)
                // Its tail is cut: the next holder has nothing of the dead one's to cut.
                sharedCoordination.setWriting(false)
            }
            adopt(sharedCoordination)
            stagingEpoch = sharedCoordination.epoch
            stagingIncarnation = sharedCoordination.plainState.incarnation
            if joining && !takingUp { try applyStagedRecords() }
        } else if coordination != nil {
            try applyStagedRecords()
        }
    }

    /// The `ioError` of a writer that cannot join the processes sharing the store (§12.2 rule 4).
    private func cannotJoin() -> LogStoreError {
        .ioError(operation: "join the shared store", errno: Errno.invalidArgument.rawValue, path: path)
    }

    /// A joining writer (holding the lock of changes) or a reader has scanned the log file up to
    /// `base`: the published records after it are in the staging area (§12.2 rule 4, §12.5).
    /// When the file did not reach `base`, or another process reused the area meanwhile, the
    /// handle takes them at its first catch-up instead. The owner derives everything from the
    /// index once the store is open, so no change is kept for it.
    private func applyStagedRecords() throws(LogStoreError) {
        guard let coordination, let state = coordination.published, state.generation == generation,
            flushedLength == state.base
        else { return }
        stagingEpoch = state.epoch
        try catchUp(holdingLockOfChanges: isWritable)
        pendingChanges.removeAll()
    }

    /// Opens the file and takes the lock; retries if a compaction elsewhere replaced the file
    /// between the open and the lock (the lock would then guard a file no longer in use).
    private func openAndLock() throws(LogStoreError) {
        for _ in 0..<16 {
            let fd = try storeIO { try FileSystem.open(path, isWritable ? .readWrite : .readOnly) }
            descriptor = fd
            guard isWritable else { return }
            do {
                // A shared store's writers exclude each other with the lock of changes (§12.3);
                // their shared lock on the log keeps out a writer that does not share (§12.1).
                if options.sharing == nil {
                    try ExclusiveLock.acquire(fd, path: path)
                } else {
                    try ExclusiveLock.acquireShared(fd, path: path)
                }
            } catch {
                switch error {
                case .heldByThisProcess: throw .storeLocked(path: path, byThisProcess: true)
                case .heldByAnotherProcess: throw .storeLocked(path: path, byThisProcess: false)
                case .system(let failure): throw LogStoreError(failure)
                }
            }
            holdsLock = true
            if try storeIO({ try FileSystem.status(fd, path: path).identity })
                == FileSystem.identity(ofPath: path)
            {
                return
            }
            closeDescriptor()
            isClosed = false
        }
        throw .storeLocked(path: path, byThisProcess: false)
    }

    /// Creates a new store atomically: a complete header under a temporary name, then a hard
    /// link to `path`, which fails rather than replace a store another process just created.
    /// The sync mark is written before the folder is synchronized, so its name is as durable
    /// as the log's.
    private func createEmptyStore() throws(LogStoreError) {
        let temporary = path + ".new-\(SystemProcess.identifier)-\(UInt32.random(in: 0...UInt32.max))"
        let fd = try storeIO { try FileSystem.open(temporary, .readWrite, options: .exclusiveCreate) }
        defer {
            FileSystem.close(fd)
            try? FileSystem.remove(temporary)
        }
        let newGeneration = try writeEmptyHeader(to: fd, path: temporary)
        if try storeIO({ try FileSystem.link(temporary, to: path) }) {
            writeSyncMark(length: UInt64(RecordFormat.fileHeaderSize), generation: newGeneration)
            closeSyncMark()
        }
        do {
            try storeIO { try FileSystem.synchronizeDirectory(FileSystem.directory(of: path)) }
        } catch {
            // The log's name may not be durable, and an open made again would find the log and
            // synchronize no folder: this open goes on in doubt instead, and its first
            // synchronize or close rewrites the log, folder fsync included (§8.3).
            logDataInDoubt = true
        }
    }

    /// Writes and synchronizes a fresh file header; returns its generation.
    @discardableResult
    func writeEmptyHeader(to fd: Int32, path: String) throws(LogStoreError) -> UInt64 {
        let newGeneration = UInt64.random(in: 1...UInt64.max)
        try withUnsafeTemporaryAllocation(byteCount: RecordFormat.fileHeaderSize, alignment: 8) {
            (bytes) throws(LogStoreError) in
            RecordFormat.encodeFileHeader(generation: newGeneration, into: bytes)
            try storeIO { try FileSystem.write(fd, UnsafeRawBufferPointer(bytes), at: 0, path: path) }
        }
        try storeIO { try FileSystem.synchronizeData(fd, path: path, mode: options.flushMode) }
        return newGeneration
    }

    /// What the scan needs of one record header, in either format.
    struct ScannedHeader {
        var valueChecksum: UInt64
        var type: UInt8
        var keyLength: Int
        var valueLength: UInt64
        var metadata: EntryMetadata
        var recordLength: UInt64
        /// Format 3: the user-metadata block's length after the value (§13.1).
        var userMetadataLength: Int = 0
    }

    /// Reads record headers and keys from `start`, seeking over values, and applies them to
    /// the index. Returns where the valid log ends (§5.2–§5.3). A record that ends past
    /// `durableLength` is applied only when its value passes its checksum too: the first one
    /// that is incomplete or fails anything begins the torn tail. `legacy` reads format 1
    /// (§11), for migration; it has no sync mark.
    ///
    /// `following`: a reader following a live writer (§12.4). `.published`: the records before
    /// `fileSize` were published by a writer of a shared store, each whole, none checked past
    /// its header; `.unpublished`: a writer without coordination may be writing them, so each
    /// value is checked too. Either way the first record that fails ends the scan (the reader
    /// tries again later) instead of counting as damage. With `sink`, records go there instead
    /// of into the index; `file` is the descriptor to read (default: the store's).
    func scan(
        from start: UInt64, fileSize: UInt64, durableLength: UInt64, knownTypesOnly: Bool,
        legacy: Bool = false, following: Following? = nil, in file: Int32? = nil,
        report: inout RecoveryReport, sink: ((ScannedHeader, UnsafeRawBufferPointer, UInt64) -> Void)? = nil
    ) throws(LogStoreError) -> UInt64 {
        let descriptor = file ?? self.descriptor
        let headerSize = legacy ? LegacyRecordFormat.recordHeaderSize : RecordFormat.recordHeaderSize
        let head = UnsafeMutableRawBufferPointer.allocate(
            byteCount: headerSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer { head.deallocate() }
        var offset = start
        while offset < fileSize {
            let remaining = fileSize - offset
            guard remaining >= UInt64(headerSize) else { return offset }
            let fixed = UnsafeMutableRawBufferPointer(rebasing: head[..<headerSize])
            guard
                try storeIO({ try FileSystem.read(descriptor, into: fixed, at: offset, path: path) })
                    == fixed.count
            else { return offset }
            let keyLength = Int(
                RecordFormat.load(at: legacy ? 10 : 18, from: UnsafeRawBufferPointer(fixed)) as UInt16)
            let headLength = headerSize + keyLength
            // Incomplete: the header and key do not fit before the end of the file.
            guard UInt64(headLength) <= remaining else { return offset }
            let keyPart = UnsafeMutableRawBufferPointer(rebasing: head[headerSize..<headLength])
            guard
                try storeIO({
                    try FileSystem.read(
                        descriptor, into: keyPart, at: offset + UInt64(headerSize), path: path)
                }) == keyPart.count
            else { return offset }
            let whole = UnsafeRawBufferPointer(rebasing: head[..<headLength])
            guard
                let header = Self.validHeader(
                    whole, legacy: legacy, major: formatMajor, knownTypesOnly: knownTypesOnly)
            else {
                // A follower of published records skips damage only when it may (§12.4); a
                // reader of what no one published waits for the writer instead.
                if offset >= durableLength || following == .unpublished { return offset }
                if following == .published && !skipsPublishedDamage { return offset }
                guard
                    let skipped = try damagedRecord(
                        at: offset, head: UnsafeRawBufferPointer(head), fileSize: fileSize,
                        durableLength: durableLength, knownTypesOnly: knownTypesOnly, skips: !legacy,
                        in: descriptor)
                else { return offset }
                report.damagedRecords.append(skipped.record)
                if let standIn = skipped.standIn {
                    (skipped.record.key ?? []).withUnsafeBytes { key in
                        if let sink {
                            sink(standIn, key, offset)
                        } else {
                            Self.apply(standIn, key: key, at: offset, to: index, liveBytes: &liveBytes)
                        }
                    }
                }
                offset = skipped.next
                continue
            }
            // Incomplete: a valid header whose value runs past the end of the file.
            guard header.recordLength <= remaining else { return offset }
            if following != .published,
                following == .unpublished || offset + header.recordLength > durableLength,
                try !valueIsIntact(at: offset + UInt64(headLength), header: header, in: descriptor)
            {
                return offset
            }
            if let sink {
                sink(header, UnsafeRawBufferPointer(keyPart), offset)
            } else {
                Self.apply(
                    header, key: UnsafeRawBufferPointer(keyPart), at: offset, to: index, liveBytes: &liveBytes
                )
            }
            report.scannedRecords += 1
            offset += header.recordLength
        }
        return offset
    }

    /// How a reader following a live writer trusts the records it finds (``scan``).
    enum Following {
        case published, unpublished
    }

    /// Whether the value of a record past the durable length matches its checksum (§5.3), and
    /// its user metadata its own (§13.1).
    private func valueIsIntact(at offset: UInt64, header: ScannedHeader, in descriptor: Int32)
        throws(LogStoreError)
        -> Bool
    {
        let blockLength = RecordFormat.userMetadataBlockLength(header.userMetadataLength)
        let reader = WindowedReader(
            descriptor: descriptor, path: path, end: offset + header.valueLength + blockLength,
            capacity: Int(min(header.valueLength, 1 << 20)) + 1)
        var checksum = XXH3()
        do throws(LogStoreError) {
            try reader.read(offset, count: header.valueLength) { checksum.update($0) }
            if header.userMetadataLength > 0 {
                let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(blockLength), alignment: 8)
                defer { bytes.deallocate() }
                try reader.copy(offset + header.valueLength, count: bytes.count, into: bytes.baseAddress!)
                guard RecordFormat.userMetadataBlockIsIntact(Array(bytes)) else { return false }
            }
        } catch {
            if case .truncatedRecord = error { return false }
            throw error
        }
        return checksum.value == header.valueChecksum
    }

    /// The header of a record whose header and key are `head`, when its checksum matches and
    /// it is well formed (§3.2); nil otherwise.
    static func validHeader(_ head: UnsafeRawBufferPointer, legacy: Bool, major: UInt16, knownTypesOnly: Bool)
        -> ScannedHeader?
    {
        if legacy {
            let header = LegacyRecordFormat.decodeHeader(head)
            guard LegacyRecordFormat.isValid(header, head: head, knownTypesOnly: knownTypesOnly) else {
                return nil
            }
            return ScannedHeader(
                valueChecksum: 0, type: header.type, keyLength: header.keyLength,
                valueLength: header.valueLength, metadata: header.metadata, recordLength: header.recordLength)
        }
        let header = RecordFormat.decodeHeader(head, major: major)
        guard RecordFormat.headChecksum(head) == header.headerChecksum,
            RecordFormat.isWellFormed(header, major: major, knownTypesOnly: knownTypesOnly)
        else { return nil }
        return ScannedHeader(
            valueChecksum: header.valueChecksum, type: header.type, keyLength: header.keyLength,
            valueLength: header.valueLength, metadata: header.metadata, recordLength: header.recordLength,
            userMetadataLength: header.userMetadataLength)
    }

    /// §5.3–§5.4: an invalid record before the durable length. Followed only by zero bytes it
    /// is an unwritten tail (nil: the log ends there); otherwise it is damage to synchronized
    /// data, which open skips (`skipsDamagedRecords`: returns where the scan goes on), cuts
    /// off (`repairsDamage`: nil) or refuses.
    private func damagedRecord(
        at offset: UInt64, head: UnsafeRawBufferPointer, fileSize: UInt64, durableLength: UInt64,
        knownTypesOnly: Bool, skips: Bool, in descriptor: Int32
    ) throws(LogStoreError) -> SkippedDamage? {
        let reader = WindowedReader(descriptor: descriptor, path: path, end: fileSize)
        var allZero = true
        try reader.read(offset, count: fileSize - offset) { piece in
            if allZero && piece.contains(where: { $0 != 0 }) { allZero = false }
        }
        if allZero { return nil }
        // Skipping reads format-2 headers; a format-1 file (migration) never skips.
        if options.skipsDamagedRecords && skips {
            return try skipDamage(
                at: offset, head: head, durableLength: durableLength, knownTypesOnly: knownTypesOnly,
                in: descriptor)
        }
        if options.repairsDamage { return nil }
        throw .corruptRecord(offset: offset)
    }

    /// Applies one scanned record to `index` (§3.3).
    @discardableResult
    static func apply(
        _ header: ScannedHeader, key keyBytes: UnsafeRawBufferPointer, at offset: UInt64, to index: KeyIndex,
        liveBytes: inout UInt64
    ) -> (before: IndexEntry?, after: IndexEntry?) {
        guard let type = RecordFormat.RecordType(rawValue: header.type) else { return (nil, nil) }
        switch type {
        case .put:
            let userMetadataLength = UInt16(header.userMetadataLength)
            let entry = IndexEntry(
                offset: offset, valueLength: header.valueLength, metadata: header.metadata,
                keyLength: UInt16(header.keyLength), metadataMatchesRecord: true,
                putUserMetadataLength: userMetadataLength, userMetadataLength: userMetadataLength,
                userMetadataOffset: offset)
            let previous = index.insert(keyBytes, entry)
            if let previous { liveBytes &-= previous.recordLength }
            liveBytes &+= header.recordLength
            return (previous, entry)
        case .userMetadata:
            guard let number = index.find(keyBytes) else { return (nil, nil) }
            let before = index.entry(at: number)
            index.updateUserMetadata(at: number, offset: offset, length: UInt16(header.userMetadataLength))
            return (before, index.entry(at: number))
        case .remove:
            let previous = index.remove(keyBytes)
            if let previous { liveBytes &-= previous.recordLength }
            return (previous, nil)
        case .touch:
            guard let number = index.find(keyBytes) else { return (nil, nil) }
            let before = index.entry(at: number)
            index.updateMetadata(at: number, header.metadata)
            return (before, index.entry(at: number))
        case .clear:
            index.removeAll()
            liveBytes = 0
            return (nil, nil)
        }
    }
}
