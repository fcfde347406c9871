#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// The on-disk layout of formats 2 and 3 (`Spec/store.md` §2–§4, §13). All integers
/// little-endian; every checksum is the record checksum of `Spec/checksum.md` (XXH3-64), stored
/// as a u64. Format 3 is format 2 plus user metadata: the u32 at offset 20 of a record header
/// is the length of a metadata block after the value, and record type 5 replaces it alone.
enum RecordFormat {
    /// `89 49 43 4C 4F 47 0D 0A`: a high-bit byte, "ICLOG", CR LF (§2).
    static let magic: [UInt8] = [0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A]
    /// The major version a store is created with, and keeps until it holds user metadata.
    static let majorVersion: UInt16 = 2
    /// The major version of a store that may hold user metadata (§13).
    static let userMetadataMajorVersion: UInt16 = 3
    static let minorVersion: UInt16 = 0
    /// §13.1: the most bytes of user metadata one entry carries.
    static let maximumUserMetadataLength = 4096
    /// The metadata block's checksum, before its bytes (§13.1).
    static let userMetadataChecksumSize = 8
    static let fileHeaderSize = 32
    static let recordHeaderSize = 56
    static let maximumKeyLength = 65_535
    /// §6: 2^48 − 1 bytes, so `offset + length` never overflows a signed 64-bit file offset.
    static let maximumValueLength: UInt64 = (1 << 48) - 1

    enum RecordType: UInt8 {
        case put = 1
        case remove = 2
        case touch = 3
        case clear = 4
        /// Format 3: replaces the user metadata of a held key, value untouched (§13.2).
        case userMetadata = 5
    }

    /// A decoded record header (§3.1).
    struct Header: Equatable {
        var headerChecksum: UInt64
        var valueChecksum: UInt64
        var type: UInt8
        var flags: UInt8
        var keyLength: Int
        var reserved: UInt32
        var valueLength: UInt64
        var metadata: EntryMetadata
        /// Format 3: the length of the user-metadata block after the value (the u32 at offset
        /// 20, which format 2 reserves); 0 in format 2 whatever the field holds.
        var userMetadataLength: Int = 0

        var recordLength: UInt64 {
            UInt64(RecordFormat.recordHeaderSize + keyLength) + valueLength
                + RecordFormat.userMetadataBlockLength(userMetadataLength)
        }
    }

    /// The bytes a user-metadata block of `length` bytes takes after the value: nothing for an
    /// empty one, else its checksum and its bytes (§12.1).
    @inline(__always)
    static func userMetadataBlockLength(_ length: Int) -> UInt64 {
        length == 0 ? 0 : UInt64(userMetadataChecksumSize + length)
    }

    // MARK: File header (§2)

    static func encodeFileHeader(
        generation: UInt64, major: UInt16 = majorVersion, into buffer: UnsafeMutableRawBufferPointer
    ) {
        precondition(buffer.count >= fileHeaderSize)
        for index in 0..<8 { buffer[index] = magic[index] }
        store(major, at: 8, in: buffer)
        store(minorVersion, at: 10, in: buffer)
        store(UInt32(0), at: 12, in: buffer)
        store(generation, at: 16, in: buffer)
        store(XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: buffer[0..<24])), at: 24, in: buffer)
    }

    struct FileHeader {
        var major: UInt16
        var minor: UInt16
        var generation: UInt64
    }

    /// Checks a file header (§2.1). A format-1 header (§11) is returned with `major` 1, for
    /// migration; every other major version but 2 and 3 is refused.
    static func decodeFileHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws(LogStoreError)
        -> FileHeader
    {
        guard bytes.count >= 8, (0..<8).allSatisfy({ bytes[$0] == magic[$0] }) else {
            throw .notAStore(path: path)
        }
        guard bytes.count >= fileHeaderSize else { throw .corruptFileHeader(path: path) }
        let major: UInt16 = load(at: 8, from: bytes)
        let minor: UInt16 = load(at: 10, from: bytes)
        if major == LegacyRecordFormat.majorVersion {
            guard LegacyRecordFormat.fileHeaderIsIntact(bytes) else { throw .corruptFileHeader(path: path) }
            return FileHeader(major: major, minor: minor, generation: load(at: 16, from: bytes))
        }
        // A later major version may lay its header out differently; say so rather than "corrupt".
        if major > userMetadataMajorVersion {
            throw .unsupportedVersion(path: path, major: major, minor: minor)
        }
        let declared: UInt64 = load(at: 24, from: bytes)
        guard major >= majorVersion,
            XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[0..<24])) == declared
        else { throw .corruptFileHeader(path: path) }
        return FileHeader(major: major, minor: minor, generation: load(at: 16, from: bytes))
    }

    // MARK: Records (§3)

    /// Writes the header and key of a record at `buffer` (which holds `56 + key.count` bytes),
    /// with `valueChecksum` (the record checksum of the value) and the header checksum over
    /// everything after it.
    static func encodeHead(
        type: RecordType, key: UnsafeRawBufferPointer, valueLength: UInt64, valueChecksum: UInt64,
        metadata: EntryMetadata, userMetadataLength: Int = 0, into buffer: UnsafeMutableRawPointer
    ) {
        let head = UnsafeMutableRawBufferPointer(start: buffer, count: recordHeaderSize + key.count)
        store(valueChecksum, at: 8, in: head)
        head[16] = type.rawValue
        head[17] = 0
        store(UInt16(key.count), at: 18, in: head)
        store(UInt32(userMetadataLength), at: 20, in: head)
        store(valueLength, at: 24, in: head)
        store(UInt64(bitPattern: metadata.createdAt), at: 32, in: head)
        store(UInt64(bitPattern: metadata.expiresAt), at: 40, in: head)
        store(metadata.accessSequence, at: 48, in: head)
        if key.count > 0 {
            (buffer + recordHeaderSize).copyMemory(from: key.baseAddress!, byteCount: key.count)
        }
        store(headChecksum(UnsafeRawBufferPointer(head)), at: 0, in: head)
    }

    /// The header checksum of a record whose header and key are `head`: the record checksum
    /// of every byte after the field itself (§3.1).
    @inline(__always)
    static func headChecksum(_ head: UnsafeRawBufferPointer) -> UInt64 {
        XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: head[8...]))
    }

    /// The record checksum of a value; the checksum of no bytes for an empty one.
    @inline(__always)
    static func valueChecksum(_ value: UnsafeRawBufferPointer) -> UInt64 {
        XXH3.checksum(of: value)
    }

    /// Writes a user-metadata block (§13.1) at `buffer`: the checksum, then the bytes.
    static func encodeUserMetadataBlock(_ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawPointer)
    {
        guard bytes.count > 0 else { return }
        let checksum = XXH3.checksum(of: bytes)
        buffer.storeBytes(of: checksum.littleEndian, toByteOffset: 0, as: UInt64.self)
        (buffer + userMetadataChecksumSize).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    }

    /// Whether a user-metadata block (checksum, then bytes) matches its checksum.
    static func userMetadataBlockIsIntact(_ block: [UInt8]) -> Bool {
        guard block.count > userMetadataChecksumSize else { return block.isEmpty }
        return block.withUnsafeBytes { bytes in
            load(at: 0, from: bytes) as UInt64
                == XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[userMetadataChecksumSize...]))
        }
    }

    /// Decodes the fixed 56 header bytes (no checks) of a record in a file of format `major`.
    static func decodeHeader(_ bytes: UnsafeRawBufferPointer, major: UInt16) -> Header {
        var header = decodeHeader(bytes)
        if major >= userMetadataMajorVersion { header.userMetadataLength = Int(header.reserved) }
        return header
    }

    /// Decodes the fixed 56 header bytes (no checks), read as format 2.
    static func decodeHeader(_ bytes: UnsafeRawBufferPointer) -> Header {
        Header(
            headerChecksum: load(at: 0, from: bytes),
            valueChecksum: load(at: 8, from: bytes),
            type: bytes[16],
            flags: bytes[17],
            keyLength: Int(load(at: 18, from: bytes) as UInt16),
            reserved: load(at: 20, from: bytes),
            valueLength: load(at: 24, from: bytes),
            metadata: EntryMetadata(
                createdAt: Int64(bitPattern: load(at: 32, from: bytes)),
                expiresAt: Int64(bitPattern: load(at: 40, from: bytes)),
                accessSequence: load(at: 48, from: bytes)))
    }

    /// Whether a header whose checksum matched is one this reader may act on (§3.2, §12.1).
    /// `knownTypesOnly` is false for a newer-minor file, whose unknown types are skipped. In
    /// format 3 the field at offset 20 is the user-metadata length, not reserved.
    static func isWellFormed(
        type: UInt8, flags: UInt8, reserved: UInt32, keyLength: Int, valueLength: UInt64, major: UInt16,
        knownTypesOnly: Bool
    ) -> Bool {
        guard valueLength <= maximumValueLength else { return false }
        let userMetadataLength = major >= userMetadataMajorVersion ? Int(reserved) : 0
        guard userMetadataLength <= maximumUserMetadataLength else { return false }
        guard let type = RecordType(rawValue: type) else { return !knownTypesOnly }
        if type == .userMetadata && major < userMetadataMajorVersion { return !knownTypesOnly }
        guard flags == 0, major >= userMetadataMajorVersion || reserved == 0 else { return !knownTypesOnly }
        switch type {
        case .put: return keyLength > 0
        case .remove, .touch: return keyLength > 0 && valueLength == 0 && userMetadataLength == 0
        case .clear: return keyLength == 0 && valueLength == 0 && userMetadataLength == 0
        case .userMetadata: return keyLength > 0 && valueLength == 0
        }
    }

    static func isWellFormed(_ header: Header, major: UInt16, knownTypesOnly: Bool) -> Bool {
        isWellFormed(
            type: header.type, flags: header.flags, reserved: header.reserved, keyLength: header.keyLength,
            valueLength: header.valueLength, major: major, knownTypesOnly: knownTypesOnly)
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
