#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

/// The index snapshot ("hint file", `Spec/store.md` §4): the index as of a log length, so open
/// reads one file instead of every record header.
enum SnapshotFormat {
    /// `89 49 43 48 49 4E 54 0A`: a high-bit byte, "ICHINT", LF.
    static let magic: [UInt8] = [0x89, 0x49, 0x43, 0x48, 0x49, 0x4E, 0x54, 0x0A]
    static let headerSize = 48
    static let entryHeaderSize = 44
    /// Format 3 (§13.3): the user-metadata lengths and offset follow the metadata.
    static let userMetadataEntryHeaderSize = 56

    static func entryHeaderSize(major: UInt16) -> Int {
        major >= RecordFormat.userMetadataMajorVersion ? userMetadataEntryHeaderSize : entryHeaderSize
    }
    /// The trailer: the record checksum of every entry byte.
    static let trailerSize = 8
}

extension LogStore {
    struct Snapshot {
        var index: KeyIndex
        var liveBytes: UInt64
        var logLength: UInt64
    }

    /// Writes the snapshot of the current index (holds `writerLock`, buffer flushed, log durable
    /// up to `flushedLength`). Written under a temporary name and renamed over the old one.
    func writeSnapshot() throws(LogStoreError) {
        let temporary = snapshotPath + ".tmp"
        let fd = try storeIO { try FileSystem.open(temporary, .readWrite, options: [.create, .truncate]) }
        var renamed = false
        defer {
            FileSystem.close(fd)
            if !renamed { try? FileSystem.remove(temporary) }
        }
        let appender = FileAppender(descriptor: fd, path: temporary)
        try withUnsafeTemporaryAllocation(byteCount: SnapshotFormat.headerSize, alignment: 8) {
            (header) throws(LogStoreError) in
            header.initializeMemory(as: UInt8.self, repeating: 0)
            for position in 0..<8 { header[position] = SnapshotFormat.magic[position] }
            RecordFormat.store(formatMajor, at: 8, in: header)
            RecordFormat.store(RecordFormat.minorVersion, at: 10, in: header)
            RecordFormat.store(generation, at: 16, in: header)
            RecordFormat.store(flushedLength, at: 24, in: header)
            RecordFormat.store(UInt64(index.count), at: 32, in: header)
            let checksum = XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: header[0..<40]))
            RecordFormat.store(checksum, at: 40, in: header)
            try appender.append(UnsafeRawBufferPointer(header))
        }
        var checksum = XXH3()
        let entryHeaderSize = SnapshotFormat.entryHeaderSize(major: formatMajor)
        let entryBytes = UnsafeMutableRawBufferPointer.allocate(
            byteCount: entryHeaderSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer { entryBytes.deallocate() }
        try index.forEachEntry { (_, keyBytes, entry) throws(LogStoreError) in
            let length = { () -> Int in
                RecordFormat.store(UInt16(keyBytes.count), at: 0, in: entryBytes)
                entryBytes[2] = entry.metadataMatchesRecord ? 1 : 0
                entryBytes[3] = 0
                RecordFormat.store(entry.offset, at: 4, in: entryBytes)
                RecordFormat.store(entry.valueLength, at: 12, in: entryBytes)
                RecordFormat.store(UInt64(bitPattern: entry.metadata.createdAt), at: 20, in: entryBytes)
                RecordFormat.store(UInt64(bitPattern: entry.metadata.expiresAt), at: 28, in: entryBytes)
                RecordFormat.store(entry.metadata.accessSequence, at: 36, in: entryBytes)
                if entryHeaderSize == SnapshotFormat.userMetadataEntryHeaderSize {
                    RecordFormat.store(entry.putUserMetadataLength, at: 44, in: entryBytes)
                    RecordFormat.store(entry.userMetadataLength, at: 46, in: entryBytes)
                    RecordFormat.store(entry.userMetadataOffset, at: 48, in: entryBytes)
                }
                UnsafeMutableRawBufferPointer(rebasing: entryBytes[entryHeaderSize...])
                    .copyMemory(from: keyBytes)
                return entryHeaderSize + keyBytes.count
            }()
            let bytes = UnsafeRawBufferPointer(rebasing: entryBytes[..<length])
            checksum.update(bytes)
            try appender.append(bytes)
        }
        try appender.append(checksum.value)
        try appender.flush()
        try storeIO { try FileSystem.rename(temporary, to: snapshotPath) }
        renamed = true
        snapshotLength = flushedLength
    }

    /// Reads the snapshot if it exists, passes its checksums and describes this log: same
    /// generation, and a length no longer than the file. Anything else means a full scan.
    func loadSnapshot(generation: UInt64, fileSize: UInt64) -> Snapshot? {
        guard let fd = try? FileSystem.open(snapshotPath, .readOnly, options: .noFollow) else { return nil }
        defer { FileSystem.close(fd) }
        // Each entry names a record of at least 49 log bytes whose key it repeats, so a valid
        // snapshot is under twice the log: a larger file is rejected before it is read.
        guard let size = try? FileSystem.size(fd, path: snapshotPath),
            size >= UInt64(SnapshotFormat.headerSize + SnapshotFormat.trailerSize),
            fileSize <= UInt64(Int.max) / 4,
            size <= 2 * fileSize + UInt64(SnapshotFormat.headerSize + SnapshotFormat.trailerSize)
        else { return nil }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(size), alignment: 16)
        defer { bytes.deallocate() }
        guard (try? FileSystem.read(fd, into: bytes, at: 0, path: snapshotPath)) == Int(size) else {
            return nil
        }
        let all = UnsafeRawBufferPointer(bytes)
        guard (0..<8).allSatisfy({ all[$0] == SnapshotFormat.magic[$0] }),
            RecordFormat.load(at: 8, from: all) as UInt16 == formatMajor,
            XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: all[0..<40]))
                == RecordFormat.load(at: 40, from: all),
            RecordFormat.load(at: 16, from: all) as UInt64 == generation
        else { return nil }
        let logLength: UInt64 = RecordFormat.load(at: 24, from: all)
        let count: UInt64 = RecordFormat.load(at: 32, from: all)
        let entryHeaderSize = SnapshotFormat.entryHeaderSize(major: formatMajor)
        guard logLength >= UInt64(RecordFormat.fileHeaderSize), logLength <= fileSize,
            count <= size / UInt64(entryHeaderSize + 1)
        else { return nil }
        let trailer = Int(size) - SnapshotFormat.trailerSize
        let body = UnsafeRawBufferPointer(rebasing: all[SnapshotFormat.headerSize..<trailer])
        guard XXH3.checksum(of: body) == RecordFormat.load(at: trailer, from: all) else { return nil }

        // Every entry is 44 (format 3: 56) bytes plus its key, so the key bytes are known
        // before parsing.
        let keyBytes =
            Int(size) - SnapshotFormat.headerSize - SnapshotFormat.trailerSize - Int(count)
            * entryHeaderSize
        let index = KeyIndex(minimumCapacity: Int(count), keyBytesCapacity: max(0, keyBytes))
        var liveBytes: UInt64 = 0
        var position = 0
        for _ in 0..<count {
            guard position + entryHeaderSize <= body.count else { return nil }
            let keyLength = Int(RecordFormat.load(at: position, from: body) as UInt16)
            let keyStart = position + entryHeaderSize
            guard keyLength > 0, keyStart + keyLength <= body.count else { return nil }
            var entry = IndexEntry(
                offset: RecordFormat.load(at: position + 4, from: body),
                valueLength: RecordFormat.load(at: position + 12, from: body),
                metadata: EntryMetadata(
                    createdAt: Int64(bitPattern: RecordFormat.load(at: position + 20, from: body)),
                    expiresAt: Int64(bitPattern: RecordFormat.load(at: position + 28, from: body)),
                    accessSequence: RecordFormat.load(at: position + 36, from: body)),
                keyLength: UInt16(keyLength), metadataMatchesRecord: body[position + 2] & 1 != 0)
            if entryHeaderSize == SnapshotFormat.userMetadataEntryHeaderSize {
                entry.putUserMetadataLength = RecordFormat.load(at: position + 44, from: body)
                entry.userMetadataLength = RecordFormat.load(at: position + 46, from: body)
                entry.userMetadataOffset = RecordFormat.load(at: position + 48, from: body)
                guard Int(entry.putUserMetadataLength) <= RecordFormat.maximumUserMetadataLength,
                    Int(entry.userMetadataLength) <= RecordFormat.maximumUserMetadataLength,
                    entry.userMetadataLength == 0 || entry.userMetadataOffset < logLength
                else { return nil }
            }
            // Every field is untrusted: compare without any sum that could overflow.
            guard entry.valueLength <= RecordFormat.maximumValueLength,
                entry.offset >= UInt64(RecordFormat.fileHeaderSize), entry.offset <= logLength,
                entry.recordLength <= logLength - entry.offset
            else { return nil }
            index.insert(UnsafeRawBufferPointer(rebasing: body[keyStart..<(keyStart + keyLength)]), entry)
            liveBytes += entry.recordLength
            position = keyStart + keyLength
        }
        guard position == body.count, index.count == Int(count) else { return nil }
        return Snapshot(index: index, liveBytes: liveBytes, logLength: logLength)
    }
}
