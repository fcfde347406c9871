#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Reads every record and checks both of its checksums (`Spec/store.md` §8.5).
    ///
    /// Buffered records are written first. Mutations wait while it runs.
    /// - Returns: the number of valid records and the offset of the first bad one, if any.
    /// - Throws: `ioError`, `closed`.
    public func verify() throws(LogStoreError) -> VerificationReport {
        try writerLock.withLock { () throws(LogStoreError) -> VerificationReport in
            if isClosed { throw .closed(path: path) }
            if isWritable { try flushBuffer() }
            return try LogStore.verifyRecords(
                descriptor: descriptor, path: path, end: flushedLength, major: formatMajor)
        }
    }

    /// Checks a store file without opening it as a store: no lock, no index, no repair. Finds
    /// damage that would stop an open, such as a bad header in the middle of the file.
    /// - Throws: `notAStore`, `unsupportedVersion`, `migrationRequired`, `corruptFileHeader`, `ioError`.
    public static func verify(path: String) throws(LogStoreError) -> VerificationReport {
        let fd = try storeIO { try FileSystem.open(path, .readOnly) }
        defer { FileSystem.close(fd) }
        let size = try storeIO { try FileSystem.size(fd, path: path) }
        var header = [UInt8](repeating: 0, count: RecordFormat.fileHeaderSize)
        var major = RecordFormat.majorVersion
        try rethrowingStoreErrors {
            let got = try header.withUnsafeMutableBytes { bytes in
                try storeIO { try FileSystem.read(fd, into: bytes, at: 0, path: path) }
            }
            let decoded = try header[..<got].withUnsafeBytes { bytes in
                try RecordFormat.decodeFileHeader(bytes, path: path)
            }
            // Format 1 (§11) is checked by migrating it; this reader knows only format 2.
            if decoded.major == LegacyRecordFormat.majorVersion {
                throw LogStoreError.migrationRequired(path: path)
            }
            major = decoded.major
        }
        return try verifyRecords(descriptor: fd, path: path, end: size, major: major)
    }

    static func verifyRecords(descriptor: Int32, path: String, end: UInt64, major: UInt16)
        throws(LogStoreError)
        -> VerificationReport
    {
        let reader = WindowedReader(descriptor: descriptor, path: path, end: end)
        let head = UnsafeMutableRawBufferPointer.allocate(
            byteCount: RecordFormat.recordHeaderSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer { head.deallocate() }
        var offset = UInt64(RecordFormat.fileHeaderSize)
        var valid = 0
        func report(_ failure: LogStoreError?) -> VerificationReport {
            VerificationReport(
                validRecords: valid, checkedBytes: offset - UInt64(RecordFormat.fileHeaderSize),
                firstDamagedOffset: failure == nil ? nil : offset, failure: failure)
        }
        while offset < end {
            let remaining = end - offset
            guard remaining >= UInt64(RecordFormat.recordHeaderSize) else {
                return report(.truncatedRecord(offset: offset))
            }
            try reader.copy(offset, count: RecordFormat.recordHeaderSize, into: head.baseAddress!)
            let header = RecordFormat.decodeHeader(
                UnsafeRawBufferPointer(rebasing: head[..<RecordFormat.recordHeaderSize]), major: major)
            let headLength = RecordFormat.recordHeaderSize + header.keyLength
            guard UInt64(headLength) <= remaining else { return report(.truncatedRecord(offset: offset)) }
            try reader.copy(
                offset + UInt64(RecordFormat.recordHeaderSize), count: header.keyLength,
                into: head.baseAddress! + RecordFormat.recordHeaderSize)
            let headerChecksum = RecordFormat.headChecksum(
                UnsafeRawBufferPointer(rebasing: head[..<headLength]))
            guard headerChecksum == header.headerChecksum,
                RecordFormat.isWellFormed(header, major: major, knownTypesOnly: false)
            else {
                return report(
                    .checksumMismatch(
                        offset: offset, declared: header.headerChecksum, computed: headerChecksum))
            }
            guard header.recordLength <= remaining else { return report(.truncatedRecord(offset: offset)) }
            var valueChecksum = XXH3()
            try reader.read(offset + UInt64(headLength), count: header.valueLength) { piece in
                valueChecksum.update(piece)
            }
            guard valueChecksum.value == header.valueChecksum else {
                return report(
                    .checksumMismatch(
                        offset: offset, declared: header.valueChecksum, computed: valueChecksum.value))
            }
            if header.userMetadataLength > 0 {
                var block: [UInt8] = []
                try reader.read(
                    offset + UInt64(headLength) + header.valueLength,
                    count: RecordFormat.userMetadataBlockLength(header.userMetadataLength)
                ) { piece in block.append(contentsOf: piece) }
                guard RecordFormat.userMetadataBlockIsIntact(block) else {
                    return report(.checksumMismatch(offset: offset, declared: 0, computed: 0))
                }
            }
            valid += 1
            offset += header.recordLength
        }
        return report(nil)
    }
}
