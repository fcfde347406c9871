#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Stores `value` under `key` (its UTF-8 bytes), replacing any previous value
    /// (`Spec/store.md` §3.3, put).
    ///
    /// The record goes to the write buffer (or straight to the file when large); it is durable
    /// after the next ``synchronize()``.
    /// - Throws: `invalidKey`, `valueTooLarge`, `readOnly`, `diskFull`, `fileSizeLimitExceeded`,
    ///   `ioError`, `closed`. On a throw the store is unchanged.
    public func put(_ value: [UInt8], forKey key: String, metadata: EntryMetadata) throws(LogStoreError) {
        try rethrowingStoreErrors {
            try value.withUnsafeBytes { bytes in try put(bytes, forKey: key, metadata: metadata) }
        }
    }

    /// Stores the bytes of `value` under `key`; see ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func put(_ value: UnsafeRawBufferPointer, forKey key: String, metadata: EntryMetadata)
        throws(LogStoreError)
    {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            try putRecord(value, keyBytes: keyBytes, metadata: metadata)
        }
    }

    /// Stores `value` under the key bytes `key` (any 1 … 65,535 bytes, `Spec/store.md` §3.1).
    public func put(_ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: EntryMetadata)
        throws(LogStoreError)
    {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            try putRecord(value, keyBytes: keyBytes, metadata: metadata)
        }
    }

    /// Replaces the metadata of an existing entry by appending a small touch record (no value):
    /// the cheap path for sliding expiry and LRU order. Does nothing if `key` is absent.
    /// - Throws: as ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func updateMetadata(_ metadata: EntryMetadata, forKey key: String) throws(LogStoreError) {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            try touchRecord(keyBytes, metadata: metadata)
        }
    }

    /// ``updateMetadata(_:forKey:)-(_,String)`` for a key given as bytes.
    public func updateMetadata(_ metadata: EntryMetadata, forKey key: [UInt8]) throws(LogStoreError) {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            try touchRecord(keyBytes, metadata: metadata)
        }
    }

    /// Updates the metadata of many keys, exactly as one
    /// ``updateMetadata(_:forKey:)-(_,[UInt8])`` call per element, in order, would (a touch
    /// record for each key present, nothing for an absent one; an automatic compaction that
    /// falls due runs once, after the last), but under one hold of the writer lock and with
    /// readers held off once rather than twice per key. A cache applies
    /// its readers' hits this way; one key at a time, the lock hand-offs stalled the readers
    /// and the writer alike.
    /// - Throws: `invalidKey` (before anything is written), then as
    ///   ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func updateMetadata(_ updates: [(key: [UInt8], metadata: EntryMetadata)]) throws(LogStoreError) {
        try Self.withPackedKeys(updates.map(\.key)) {
            (key) throws(LogStoreError) in
            try touchBatch(
                count: updates.count, key: key, metadata: { position, _ in updates[position].metadata })
        }
    }

    /// Removes `key` and its value by appending a remove record. Does nothing if absent: an
    /// absent key appends nothing (`Spec/store.md` §3.3).
    /// - Throws: as ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func removeValue(forKey key: String) throws(LogStoreError) {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in try removeRecord(keyBytes) }
    }

    /// ``removeValue(forKey:)-(String)`` for a key given as bytes.
    public func removeValue(forKey key: [UInt8]) throws(LogStoreError) {
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in try removeRecord(keyBytes) }
    }

    /// A read's hit, to be recorded by ``touchRecords(_:newMetadata:)``: the key, and the
    /// offset of the record the read found (``EntryInfo/recordOffset``).
    public struct Touch: Sendable {
        /// The key that was read.
        public var key: [UInt8]
        /// Where the record the read found starts; the touch is skipped unless the key's
        /// entry still points there.
        public var recordOffset: UInt64

        /// A touch of the record at `recordOffset`, read under `key`.
        public init(key: [UInt8], recordOffset: UInt64) {
            self.key = key
            self.recordOffset = recordOffset
        }
    }

    /// Appends a touch record for each of `touches` whose key still has the record the read
    /// found, with the metadata `newMetadata` makes from the entry's current metadata (the
    /// touches earlier in the batch included) and the touch's position in `touches`. A touch
    /// of a record replaced or removed since is skipped, without a call of `newMetadata`.
    ///
    /// What ``updateMetadata(_:)`` does for a batch of hits, in one index lookup per hit
    /// rather than three (one to check the record, one to find the current metadata, one to
    /// write). A cache applies its readers' hits this way, through
    /// ``touchRecords(count:key:recordOffset:newMetadata:)``, which reads the keys where the
    /// cache holds them.
    /// - Throws: `invalidKey` (before anything is written), then as
    ///   ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func touchRecords(
        _ touches: [Touch], newMetadata: (_ position: Int, _ current: EntryMetadata) -> EntryMetadata
    ) throws(LogStoreError) {
        try Self.withPackedKeys(touches.map(\.key)) {
            (key) throws(LogStoreError) in
            try touchRecords(
                count: touches.count, key: key, recordOffset: { touches[$0].recordOffset },
                newMetadata: newMetadata)
        }
    }

    /// ``touchRecords(_:newMetadata:)`` for touches whose keys the caller keeps in memory of
    /// its own, so that a batch needs no array per key: touch `position` is of the record at
    /// `recordOffset(position)`, read under the key whose bytes `key(position)` gives. They
    /// must stay valid until the call returns.
    /// - Throws: as ``touchRecords(_:newMetadata:)``.
    public func touchRecords(
        count: Int, key: (_ position: Int) -> UnsafeRawBufferPointer,
        recordOffset: (_ position: Int) -> UInt64,
        newMetadata: (_ position: Int, _ current: EntryMetadata) -> EntryMetadata
    ) throws(LogStoreError) {
        var latest = TouchedEntries(capacity: count)
        try touchBatch(
            count: count, key: key, recordOffset: recordOffset,
            metadata: { position, number in
                let entry = index.entry(at: number)
                guard entry.offset == recordOffset(position) else { return nil }
                let metadata = newMetadata(position, latest[number] ?? entry.metadata)
                latest.record(metadata, for: number)
                return metadata
            })
    }

    /// Calls `body` with `keys` copied end to end into one buffer, for the batch updates, which
    /// take each key's bytes as a view.
    private static func withPackedKeys(
        _ keys: [[UInt8]], _ body: ((Int) -> UnsafeRawBufferPointer) throws(LogStoreError) -> Void
    ) throws(LogStoreError) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(keys.count + 1)
        for key in keys {
            starts.append(bytes.count)
            bytes += key
        }
        starts.append(bytes.count)
        try rethrowingStoreErrors {
            try bytes.withUnsafeBytes { all in
                try body { UnsafeRawBufferPointer(rebasing: all[starts[$0]..<starts[$0 + 1]]) }
            }
        }
    }

    /// The two batch updates: every key checked before anything is written, then their touch
    /// records under one hold of the writer lock, and an automatic compaction once, after.
    private func touchBatch(
        count: Int, key: (Int) -> UnsafeRawBufferPointer, recordOffset: (Int) -> UInt64? = { _ in nil },
        metadata: (_ position: Int, _ number: Int) -> EntryMetadata?
    ) throws(LogStoreError) {
        for position in 0..<count {
            let length = key(position).count
            guard length >= 1, length <= RecordFormat.maximumKeyLength else {
                throw .invalidKey(length: length)
            }
        }
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                try checkWritable()
                try touchRecords(count: count, key: key, recordOffset: recordOffset, metadata: metadata)
                compactAutomaticallyIfNeeded()
            }
        }
    }

    // MARK: Record-level mutations (holding `writerLock`)

    private func putRecord(
        _ value: UnsafeRawBufferPointer, keyBytes: UnsafeRawBufferPointer, metadata: EntryMetadata
    )
        throws(LogStoreError)
    {
        guard UInt64(value.count) <= RecordFormat.maximumValueLength else {
            throw .valueTooLarge(length: UInt64(value.count))
        }
        try append(.put, key: keyBytes, value: value, metadata: metadata) { offset in
            if let previous = index.insert(
                keyBytes,
                IndexEntry(
                    offset: offset, valueLength: UInt64(value.count), metadata: metadata,
                    keyLength: UInt16(keyBytes.count), metadataMatchesRecord: true))
            {
                liveBytes -= previous.recordLength
            }
            liveBytes += UInt64(RecordFormat.recordHeaderSize + keyBytes.count + value.count)
        }
    }

    private func touchRecord(_ keyBytes: UnsafeRawBufferPointer, metadata: EntryMetadata)
        throws(LogStoreError)
    {
        guard let number = index.find(keyBytes) else { return }
        try append(
            .touch, key: keyBytes, value: UnsafeRawBufferPointer(start: nil, count: 0), metadata: metadata
        ) { _ in index.updateMetadata(at: number, metadata) }
    }

    /// The touch records of ``updateMetadata(_:)`` and of both `touchRecords` batches, for
    /// the keys `key(0) ..< key(count)` that are present, with the metadata `metadata` gives
    /// for the position and the key's entry number (nil: no touch). Encoded straight into the
    /// write buffer past `bufferedCount` (bytes no reader looks at) and published, with their
    /// index updates, under one hold of the state lock: at the end, and before each flush.
    private func touchRecords(
        count: Int, key: (Int) -> UnsafeRawBufferPointer, recordOffset: (Int) -> UInt64?,
        metadata: (_ position: Int, _ number: Int) -> EntryMetadata?
    ) throws(LogStoreError) {
        let emptyValueChecksum = RecordFormat.valueChecksum(UnsafeRawBufferPointer(start: nil, count: 0))
        var pending = 0
        var touched: [(number: Int, metadata: EntryMetadata)] = []
        touched.reserveCapacity(count)
        func publish() {
            guard pending > 0 else { return }
            stateLock.withWriteLock {
                bufferedCount += pending
                for touch in touched { index.updateMetadata(at: touch.number, touch.metadata) }
            }
            pending = 0
            touched.removeAll(keepingCapacity: true)
        }
        for position in 0..<count {
            let keyBytes = key(position)
            let number =
                recordOffset(position).flatMap { likelyEntry(keyBytes, recordOffset: $0) }
                ?? index.find(keyBytes)
            guard let number, let newMetadata = metadata(position, number) else { continue }
            let recordLength = RecordFormat.recordHeaderSize + keyBytes.count
            if recordLength * 2 > bufferCapacity {
                // Too long to buffer (a small buffer and a long key): the one-key path.
                publish()
                try touchRecord(keyBytes, metadata: newMetadata)
                continue
            }
            if bufferedCount + pending + recordLength > bufferCapacity {
                publish()
                try makeRoom()
            }
            RecordFormat.encodeHead(
                type: .touch, key: keyBytes, valueLength: 0, valueChecksum: emptyValueChecksum,
                metadata: newMetadata, into: buffer + bufferedCount + pending)
            pending += recordLength
            touched.append((number, newMetadata))
        }
        publish()
    }

    /// The entry of `keyBytes` when it is the one whose record is at `recordOffset`, found
    /// without comparing the key with the index's copy (`Spec/store.md` §8.3): the entry whose
    /// hash bits and key length match, whose record is at that offset, and whose record, in the
    /// write buffer or the mapping, holds the key. A hit's touch takes this path: the read just
    /// brought that record into the processor's caches, while the index's copy of the key
    /// stayed in memory. Nil when any of that does not hold; the caller looks the key up
    /// exactly. Caller holds the writer lock.
    private func likelyEntry(_ keyBytes: UnsafeRawBufferPointer, recordOffset: UInt64) -> Int? {
        guard let likely = index.findLikely(keyBytes), likely.recordOffset == recordOffset else { return nil }
        let headLength = RecordFormat.recordHeaderSize + keyBytes.count
        guard let head = bytesInMemory(at: recordOffset, count: headLength) else { return nil }
        let header = RecordFormat.decodeHeader(UnsafeRawBufferPointer(start: head, count: headLength))
        guard header.type == RecordFormat.RecordType.put.rawValue, header.keyLength == keyBytes.count,
            SystemMemory.bytesEqual(
                head + RecordFormat.recordHeaderSize, keyBytes.baseAddress!, count: keyBytes.count)
        else { return nil }
        return likely.number
    }

    private func removeRecord(_ keyBytes: UnsafeRawBufferPointer) throws(LogStoreError) {
        guard index.find(keyBytes) != nil else { return }
        try append(
            .remove, key: keyBytes, value: UnsafeRawBufferPointer(start: nil, count: 0),
            metadata: EntryMetadata(createdAt: 0, expiresAt: 0, accessSequence: 0)
        ) { _ in
            if let previous = index.remove(keyBytes) { liveBytes -= previous.recordLength }
        }
    }

    /// Removes every entry by appending a clear record; compaction reclaims the space.
    /// - Throws: as ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func removeAll() throws(LogStoreError) {
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                try checkWritable()
                try append(
                    .clear, key: UnsafeRawBufferPointer(start: nil, count: 0),
                    value: UnsafeRawBufferPointer(start: nil, count: 0),
                    metadata: EntryMetadata(createdAt: 0, expiresAt: 0, accessSequence: 0)
                ) { _ in
                    index = KeyIndex()
                    liveBytes = 0
                }
                compactAutomaticallyIfNeeded()
            }
        }
    }

    /// Writes buffered records and waits until everything appended so far is on stable storage
    /// (fdatasync; on Darwin as ``Options/flushMode`` says). After it returns, a crash or a
    /// power cut loses nothing written before the call (§8.3).
    ///
    /// When the fdatasync fails, the log is rewritten by a compaction that drops nothing, since
    /// a second fdatasync would not write what the first failed to (§8.3); when that fails
    /// too, the fdatasync's error is thrown and the next call (or ``close()``) rewrites.
    /// - Throws: `diskFull`, `fileSizeLimitExceeded`, `ioError`, `closed`.
    public func synchronize() throws(LogStoreError) {
        if isClosed { throw .closed(path: path) }
        if options.sharing != nil && isWritable && !isInSection {
            return try synchronizeOutsideSections(writingSnapshot: false)
        }
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                if isClosed { throw .closed(path: path) }
                guard isWritable else { return }
                try synchronizeHoldingWriterLock()
            }
        }
    }

    /// Flushes, waits for the data to be durable, then records it in the sync mark (§4.1); or,
    /// once an fdatasync of the log failed, rewrites the log (§8.3).
    func synchronizeHoldingWriterLock() throws(LogStoreError) {
        try flushBuffer()
        if logDataInDoubt { return try rewriteLogInDoubt() }
        guard syncMarkLength != flushedLength || syncMarkGeneration != generation else { return }
        do {
            try storeIO { try FileSystem.synchronizeData(descriptor, path: path, mode: options.flushMode) }
        } catch {
            try recoverFromFailedSynchronization(error)
            return
        }
        writeSyncMark(length: flushedLength, generation: generation)
    }

    /// Synchronizes, writes the index snapshot and releases the file and its lock.
    /// Calling it again does nothing. Every other method throws `closed` afterwards.
    ///
    /// Failing to write the snapshot is not an error (it is an optimisation, `Spec/store.md` §4).
    /// - Throws: as ``synchronize()``; the store is closed even when it throws.
    public func close() throws(LogStoreError) {
        if writerLock.withLock({ isClosed }) { return }
        defer {
            writerLock.withLock {
                guard !isClosed else { return }
                stateLock.withWriteLock {
                    giveUpToken()
                    closeDescriptor()
                    index = KeyIndex()
                }
            }
        }
        guard isWritable else { return }
        if options.sharing != nil && !isInSection {
            return try synchronizeOutsideSections(writingSnapshot: true)
        }
        // A shared store publishes at the end of the section, before the handle closes.
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                if isClosed { return }
                try synchronizeHoldingWriterLock()
                if options.usesSnapshot && snapshotLength != flushedLength {
                    // The snapshot only speeds up the next open (§4); a full disk or any other
                    // failure to write it is not a failure of close: everything is synchronized.
                    try? writeSnapshot()
                }
            }
        }
    }

    // MARK: Internals

    /// Runs `body` with the UTF-8 bytes of `key`; see ``mutate(keyBytes:_:)``.
    private func mutate(key: String, _ body: (UnsafeRawBufferPointer) throws(LogStoreError) -> Void)
        throws(LogStoreError)
    {
        var utf8Key = key
        try rethrowingStoreErrors {
            try utf8Key.withUTF8 { keyBytes in try mutate(keyBytes: UnsafeRawBufferPointer(keyBytes), body) }
        }
    }

    func mutate(key: [UInt8], _ body: (UnsafeRawBufferPointer) throws(LogStoreError) -> Void)
        throws(LogStoreError)
    {
        try rethrowingStoreErrors {
            try key.withUnsafeBytes { keyBytes in try mutate(keyBytes: keyBytes, body) }
        }
    }

    /// Validates the key and runs `body` with its bytes under the writer lock, then compacts
    /// if that is due.
    private func mutate(
        keyBytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(LogStoreError) -> Void
    ) throws(LogStoreError) {
        guard keyBytes.count >= 1, keyBytes.count <= RecordFormat.maximumKeyLength else {
            throw .invalidKey(length: keyBytes.count)
        }
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                try checkWritable()
                try body(keyBytes)
                compactAutomaticallyIfNeeded()
            }
        }
    }

    func checkWritable() throws(LogStoreError) {
        if isClosed { throw .closed(path: path) }
        if !isWritable { throw .readOnly(path: path) }
    }

    /// Appends one record; returns its offset. Holds `writerLock`. On failure nothing was
    /// appended: a partial write is cut off again (§8.4).
    ///
    /// `updateIndex` runs with the record's offset in the hold of the state lock that makes the
    /// record visible to readers, so they see the record and its index change together, and a
    /// writer takes the state lock (one lock per shard) once per record, not twice.
    @discardableResult
    func append(
        _ type: RecordFormat.RecordType, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer,
        metadata: EntryMetadata,
        userMetadata: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        updateIndex: (_ offset: UInt64) -> Void = { _ in }
    ) throws(LogStoreError) -> UInt64 {
        let headLength = RecordFormat.recordHeaderSize + key.count
        let blockLength = Int(RecordFormat.userMetadataBlockLength(userMetadata.count))
        let recordLength = headLength + value.count + blockLength
        if recordLength * 2 > bufferCapacity {
            // Large record: write it directly, after whatever is buffered.
            try flushBuffer()
            try prepareToWriteRecords()
            // Shared: under the flush lock, from the write to the move of the areas past it
            // (§12.7 rule 5), so that a process writing the other area out never sees them move.
            let flushLocking = isWritable ? coordination : nil
            if let flushLocking { waitForFlushLock(flushLocking) }
            defer { flushLocking?.release(.flush) }
            let offset = flushedLength
            try withUnsafeTemporaryAllocation(byteCount: headLength, alignment: 8) {
                (head) throws(LogStoreError) in
                RecordFormat.encodeHead(
                    type: type, key: key, valueLength: UInt64(value.count),
                    valueChecksum: RecordFormat.valueChecksum(value), metadata: metadata,
                    userMetadataLength: userMetadata.count, into: head.baseAddress!)
                do {
                    try storeIO {
                        try FileSystem.write(descriptor, UnsafeRawBufferPointer(head), at: offset, path: path)
                    }
                    if value.count > 0 {
                        try storeIO {
                            try FileSystem.write(
                                descriptor, value, at: offset + UInt64(headLength), path: path)
                        }
                    }
                    if blockLength > 0 {
                        let block = UnsafeMutableRawBufferPointer.allocate(
                            byteCount: blockLength, alignment: 8)
                        defer { block.deallocate() }
                        RecordFormat.encodeUserMetadataBlock(userMetadata, into: block.baseAddress!)
                        let blockOffset = offset + UInt64(headLength + value.count)
                        try storeIO {
                            try FileSystem.write(
                                descriptor, UnsafeRawBufferPointer(block), at: blockOffset, path: path)
                        }
                    }
                } catch {
                    try undoPartialWrite(to: offset, after: error as! LogStoreError)
                }
            }
            stateLock.withWriteLock {
                flushedLength += UInt64(recordLength)
                if let coordination {
                    // In the file, past the empty areas (§12.7 rule 5): `base` and `split` move
                    // first, then the length, so that no reader looks for it in an area.
                    coordination.emptyAreas(at: flushedLength)
                    coordination.publish(length: flushedLength)
                    stagingEpoch = coordination.epoch
                }
                mapFlushedLength()
                updateIndex(offset)
            }
            return offset
        }
        if bufferedCount + recordLength > bufferCapacity { try makeRoom() }
        // Writing past `bufferedCount` does not touch bytes readers may be copying.
        let start = buffer + bufferedCount
        if value.count > 0 {
            (start + headLength).copyMemory(from: value.baseAddress!, byteCount: value.count)
        }
        // The value is checksummed from its copy, which is still in the CPU cache.
        let valueChecksum = RecordFormat.valueChecksum(
            UnsafeRawBufferPointer(start: start + headLength, count: value.count))
        RecordFormat.encodeHead(
            type: type, key: key, valueLength: UInt64(value.count), valueChecksum: valueChecksum,
            metadata: metadata, userMetadataLength: userMetadata.count, into: start)
        RecordFormat.encodeUserMetadataBlock(userMetadata, into: start + headLength + value.count)
        let offset = appliedLength
        stateLock.withWriteLock {
            bufferedCount += recordLength
            updateIndex(offset)
        }
        return offset
    }

    /// Writes the buffered records to the file. Holds `writerLock`. Readers may copy from the
    /// buffer meanwhile; it changes only after the write, under the state lock. Shared, the
    /// buffer is the staging areas, written out as §12.7 rule 4 says.
    func flushBuffer() throws(LogStoreError) {
        if let coordination, isWritable { return try writeEverythingOut(coordination) }
        guard bufferedCount > 0 else { return }
        try prepareToWriteRecords()
        let offset = flushedLength
        do {
            try storeIO {
                try FileSystem.write(
                    descriptor, UnsafeRawBufferPointer(start: buffer, count: bufferedCount), at: offset,
                    path: path)
            }
        } catch {
            // The records stay buffered (and readable); the file keeps its last whole record.
            try undoPartialWrite(to: offset, after: error)
        }
        stateLock.withWriteLock {
            flushedLength += UInt64(bufferedCount)
            bufferedCount = 0
            mapFlushedLength()
        }
    }

    /// Runs the owner's hook before records reach the file (``Options/willWriteRecords``).
    func prepareToWriteRecords() throws(LogStoreError) {
        guard let hook = options.willWriteRecords else { return }
        do {
            try hook()
        } catch {
            throw LogStoreError(error)
        }
    }

    /// Cuts the file back to `length` after a failed write and rethrows the write's error.
    /// If even that fails the file may end in a partial record, which the next open cuts off;
    /// the handle closes itself so it cannot append after the partial record.
    func undoPartialWrite(to length: UInt64, after error: LogStoreError) throws(LogStoreError)
        -> Never
    {
        do {
            try storeIO { try FileSystem.truncate(descriptor, to: length, path: path) }
        } catch {
            stateLock.withWriteLock {
                closeDescriptor()
            }
        }
        throw error
    }
}
