#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// The most bytes of user metadata one entry carries (`Spec/store.md` §13.1).
    public static let maximumUserMetadataLength = RecordFormat.maximumUserMetadataLength

    /// Stores `value` under `key` with `userMetadata`, in one put record (`Spec/store.md`
    /// §13.2): the value and its user metadata become durable together or not at all.
    ///
    /// Empty user metadata writes a plain put. The first non-empty user metadata a format-2
    /// log receives makes it format 3 first, by a compaction that keeps every entry (§13.4).
    /// - Throws: `userMetadataTooLarge` (over 4,096 bytes), then as
    ///   ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    public func put(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: EntryMetadata, userMetadata: [UInt8]
    ) throws(LogStoreError) {
        try Self.checkUserMetadata(userMetadata)
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            guard UInt64(value.count) <= RecordFormat.maximumValueLength else {
                throw .valueTooLarge(length: UInt64(value.count))
            }
            if !userMetadata.isEmpty { try makeFormatThree() }
            try rethrowingStoreErrors {
                try userMetadata.withUnsafeBytes { block in
                    let length = UInt16(block.count)
                    try append(
                        .put, key: keyBytes, value: value, metadata: metadata, userMetadata: block
                    ) { offset in
                        let entry = IndexEntry(
                            offset: offset, valueLength: UInt64(value.count), metadata: metadata,
                            keyLength: UInt16(keyBytes.count), metadataMatchesRecord: true,
                            putUserMetadataLength: length, userMetadataLength: length,
                            userMetadataOffset: length == 0 ? 0 : offset)
                        if let previous = index.insert(keyBytes, entry) { liveBytes -= previous.recordLength }
                        liveBytes += entry.recordLength
                    }
                }
            }
        }
    }

    /// Replaces the user metadata of the entry under `key` without rewriting its value: one
    /// user-metadata record (type 5, `Spec/store.md` §13.2). Nothing is written for an absent
    /// key.
    /// - Returns: whether the key was present.
    /// - Throws: `userMetadataTooLarge`, then as ``put(_:forKey:metadata:)-([UInt8],_,_)``.
    @discardableResult
    public func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(LogStoreError) -> Bool {
        try Self.checkUserMetadata(userMetadata)
        var present = false
        try mutate(key: key) { (keyBytes) throws(LogStoreError) in
            guard index.find(keyBytes) != nil else { return }
            present = true
            // Nothing to say in a log that cannot hold user metadata yet: the entry has none.
            if userMetadata.isEmpty && formatMajor < RecordFormat.userMetadataMajorVersion { return }
            try makeFormatThree()
            try rethrowingStoreErrors {
                try userMetadata.withUnsafeBytes { block in
                    let metadata = index[keyBytes]!.metadata
                    // The index entry may have moved if the format changed: look it up again.
                    try append(
                        .userMetadata, key: keyBytes, value: UnsafeRawBufferPointer(start: nil, count: 0),
                        metadata: metadata, userMetadata: block
                    ) { offset in
                        if let number = index.find(keyBytes) {
                            index.updateUserMetadata(at: number, offset: offset, length: UInt16(block.count))
                        }
                    }
                }
            }
        }
        return present
    }

    /// The user metadata of the entry under `key`: empty when it has none, nil when the key is
    /// absent. Read from its record and checked against its checksum, without reading the
    /// value (`Spec/store.md` §13.1).
    /// - Throws: `checksumMismatch` or `truncatedRecord` when the record is damaged, `ioError`,
    ///   `closed`.
    public func userMetadata(forKey key: [UInt8]) throws(LogStoreError) -> [UInt8]? {
        return try rethrowingStoreErrors {
            try key.withUnsafeBytes { keyBytes in
                // Caught up first; a block copied from the staging area counts only if no other
                // process reused the area meanwhile (§12.7).
                try withStableStaging { () throws(LogStoreError) -> [UInt8]? in
                    if isClosed { throw .closed(path: path) }
                    guard let entry = index[keyBytes] else { return nil }
                    guard entry.userMetadataLength > 0 else { return [] }
                    return try readUserMetadata(entry, key: keyBytes)
                }
            }
        }
    }

    // MARK: Internals

    static func checkUserMetadata(_ userMetadata: [UInt8]) throws(LogStoreError) {
        guard userMetadata.count <= RecordFormat.maximumUserMetadataLength else {
            throw .userMetadataTooLarge(length: userMetadata.count)
        }
    }

    /// Rewrites a format-2 log as format 3, keeping every entry, so it may hold user metadata
    /// (§13.4). Holds `writerLock`.
    func makeFormatThree() throws(LogStoreError) {
        guard formatMajor < RecordFormat.userMetadataMajorVersion else { return }
        _ = try compactHoldingWriterLock(now: nil, major: RecordFormat.userMetadataMajorVersion)
    }

    /// Where `entry`'s current user-metadata block starts: after the put's value, or after the
    /// key of the user-metadata record that replaced it (which has no value).
    func userMetadataBlockOffset(_ entry: IndexEntry) -> UInt64 {
        let afterKey =
            entry.userMetadataOffset + UInt64(RecordFormat.recordHeaderSize) + UInt64(entry.keyLength)
        return entry.userMetadataOffset == entry.offset ? afterKey + entry.valueLength : afterKey
    }

    /// Reads and checks `entry`'s user metadata: the header of the record that holds it (its
    /// checksum, its key, its type and length) and the block's checksum. Holds the read lock.
    private func readUserMetadata(_ entry: IndexEntry, key: UnsafeRawBufferPointer) throws(LogStoreError)
        -> [UInt8]
    {
        let recordOffset = entry.userMetadataOffset
        let headLength = RecordFormat.recordHeaderSize + key.count
        let headBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: headLength, alignment: 8)
        defer { headBytes.deallocate() }
        try readBytes(at: recordOffset, into: headBytes)
        let head = Array(headBytes)
        let header = head.withUnsafeBytes { RecordFormat.decodeHeader($0, major: formatMajor) }
        let computed = head.withUnsafeBytes { RecordFormat.headChecksum($0) }
        let expectedType: RecordFormat.RecordType = recordOffset == entry.offset ? .put : .userMetadata
        guard computed == header.headerChecksum, header.type == expectedType.rawValue,
            header.userMetadataLength == Int(entry.userMetadataLength),
            head[RecordFormat.recordHeaderSize...].elementsEqual(key)
        else {
            throw .checksumMismatch(offset: recordOffset, declared: header.headerChecksum, computed: computed)
        }
        let blockBytes = UnsafeMutableRawBufferPointer.allocate(
            byteCount: RecordFormat.userMetadataChecksumSize + header.userMetadataLength, alignment: 8)
        defer { blockBytes.deallocate() }
        try readBytes(at: userMetadataBlockOffset(entry), into: blockBytes)
        let block = Array(blockBytes)
        guard RecordFormat.userMetadataBlockIsIntact(block) else {
            throw .checksumMismatch(offset: recordOffset, declared: 0, computed: 0)
        }
        return Array(block[RecordFormat.userMetadataChecksumSize...])
    }

    /// Copies the log's bytes at `offset` from the write buffer, the mapping or the file. Holds
    /// the read lock.
    private func readBytes(at offset: UInt64, into bytes: UnsafeMutableRawBufferPointer) throws(LogStoreError)
    {
        if let resident = bytesInMemory(at: offset, count: bytes.count) {
            bytes.copyMemory(from: UnsafeRawBufferPointer(start: resident, count: bytes.count))
            return
        }
        if offset >= flushedLength { throw .truncatedRecord(offset: offset) }
        guard
            try storeIO({ try FileSystem.read(descriptor, into: bytes, at: offset, path: path) })
                == bytes.count
        else { throw .truncatedRecord(offset: offset) }
    }
}
