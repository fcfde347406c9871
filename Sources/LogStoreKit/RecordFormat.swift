#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// The on-disk layout (`Spec/store.md` §2–§4). All integers little-endian.
enum RecordFormat {
    /// `89 49 43 4C 4F 47 0D 0A`: a high-bit byte, "ICLOG", CR LF (§2).
    static let magic: [UInt8] = [0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A]
    static let majorVersion: UInt16 = 1
    static let minorVersion: UInt16 = 0
    static let fileHeaderSize = 32
    static let recordHeaderSize = 48
    static let maximumKeyLength = 65_535
    /// §6: 2^48 − 1 bytes, so `offset + length` never overflows a signed 64-bit file offset.
    static let maximumValueLength: UInt64 = (1 << 48) - 1

    enum RecordType: UInt8 {
        case put = 1
        case remove = 2
        case touch = 3
        case clear = 4
    }

    /// A decoded record header (§3.1).
    struct Header: Equatable {
        var recordChecksum: UInt32
        var headerChecksum: UInt32
        var type: UInt8
        var flags: UInt8
        var keyLength: Int
        var reserved: UInt32
        var valueLength: UInt64
        var metadata: EntryMetadata

        var recordLength: UInt64 { UInt64(RecordFormat.recordHeaderSize + keyLength) + valueLength }
    }

    // MARK: File header (§2)

    static func encodeFileHeader(generation: UInt64, into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= fileHeaderSize)
        for index in 0..<8 { buffer[index] = magic[index] }
        store(majorVersion, at: 8, in: buffer)
        store(minorVersion, at: 10, in: buffer)
        store(UInt32(0), at: 12, in: buffer)
        store(generation, at: 16, in: buffer)
        store(UInt32(0), at: 24, in: buffer)
        let checksum = CRC32.checksum(of: UnsafeRawBufferPointer(rebasing: buffer[0..<28]))
        store(checksum, at: 28, in: buffer)
    }

    struct FileHeader {
        var major: UInt16
        var minor: UInt16
        var generation: UInt64
    }

    static func decodeFileHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws(LogStoreError)
        -> FileHeader
    {
        guard bytes.count >= 8, (0..<8).allSatisfy({ bytes[$0] == magic[$0] }) else {
            throw .notAStore(path: path)
        }
        guard bytes.count >= fileHeaderSize else { throw .corruptFileHeader(path: path) }
        let major: UInt16 = load(at: 8, from: bytes)
        let minor: UInt16 = load(at: 10, from: bytes)
        let declared: UInt32 = load(at: 28, from: bytes)
        guard CRC32.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[0..<28])) == declared else {
            // A newer major version may lay its header out differently; say so rather than "corrupt".
            if major > majorVersion { throw .unsupportedVersion(path: path, major: major, minor: minor) }
            throw .corruptFileHeader(path: path)
        }
        if major != majorVersion { throw .unsupportedVersion(path: path, major: major, minor: minor) }
        return FileHeader(major: major, minor: minor, generation: load(at: 16, from: bytes))
    }

    // MARK: Records (§3)

    /// Writes header and key at `buffer` (which holds at least `48 + key.count` bytes) and fills
    /// in the header CRC; the record CRC is the caller's (it covers the value too).
    /// Returns the CRC-32 state after header and key, to be continued over the value.
    static func encodeHead(
        type: RecordType, key: UnsafeRawBufferPointer, valueLength: UInt64, metadata: EntryMetadata,
        into buffer: UnsafeMutableRawPointer
    ) -> CRC32 {
        let head = UnsafeMutableRawBufferPointer(start: buffer, count: recordHeaderSize + key.count)
        head[8] = type.rawValue
        head[9] = 0
        store(UInt16(key.count), at: 10, in: head)
        store(UInt32(0), at: 12, in: head)
        store(valueLength, at: 16, in: head)
        store(UInt64(bitPattern: metadata.createdAt), at: 24, in: head)
        store(UInt64(bitPattern: metadata.expiresAt), at: 32, in: head)
        store(metadata.accessSequence, at: 40, in: head)
        if key.count > 0 {
            (buffer + recordHeaderSize).copyMemory(from: key.baseAddress!, byteCount: key.count)
        }
        let headerChecksum = CRC32.checksum(of: UnsafeRawBufferPointer(rebasing: head[8...]))
        store(headerChecksum, at: 4, in: head)
        var record = CRC32()
        record.update(UnsafeRawBufferPointer(rebasing: head[4...]))
        return record
    }

    /// Decodes the fixed 48 header bytes (no checks).
    static func decodeHeader(_ bytes: UnsafeRawBufferPointer) -> Header {
        Header(
            recordChecksum: load(at: 0, from: bytes),
            headerChecksum: load(at: 4, from: bytes),
            type: bytes[8],
            flags: bytes[9],
            keyLength: Int(load(at: 10, from: bytes) as UInt16),
            reserved: load(at: 12, from: bytes),
            valueLength: load(at: 16, from: bytes),
            metadata: EntryMetadata(
                createdAt: Int64(bitPattern: load(at: 24, from: bytes)),
                expiresAt: Int64(bitPattern: load(at: 32, from: bytes)),
                accessSequence: load(at: 40, from: bytes)))
    }

    /// Whether a header whose CRC matched is one this reader may act on (§3.2).
    /// `knownTypesOnly` is false for a newer-minor file, whose unknown types are skipped.
    static func isWellFormed(_ header: Header, knownTypesOnly: Bool) -> Bool {
        guard header.valueLength <= maximumValueLength else { return false }
        guard let type = RecordType(rawValue: header.type) else { return !knownTypesOnly }
        guard header.flags == 0, header.reserved == 0 else { return !knownTypesOnly }
        switch type {
        case .put: return header.keyLength > 0
        case .remove, .touch: return header.keyLength > 0 && header.valueLength == 0
        case .clear: return header.keyLength == 0 && header.valueLength == 0
        }
    }

    @inline(__always)
    static func store<Value: FixedWidthInteger>(
        _ value: Value, at offset: Int, in buffer: UnsafeMutableRawBufferPointer
    ) {
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Value.self)
    }

    @inline(__always)
    static func load<Value: FixedWidthInteger>(at offset: Int, from buffer: UnsafeRawBufferPointer) -> Value {
        Value(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Value.self))
    }
}
