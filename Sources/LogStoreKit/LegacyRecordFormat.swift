#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Format 1 (`Spec/store.md` §11), read only to migrate it to format 2: a 32-byte file header
/// with a CRC-32, and 48-byte record headers with a record CRC-32 over header, key and value
/// and a header CRC-32 over header and key.
enum LegacyRecordFormat {
    static let majorVersion: UInt16 = 1
    static let recordHeaderSize = 48

    /// A decoded format-1 record header.
    struct Header {
        var recordChecksum: UInt32
        var headerChecksum: UInt32
        var type: UInt8
        var flags: UInt8
        var keyLength: Int
        var reserved: UInt32
        var valueLength: UInt64
        var metadata: EntryMetadata

        var recordLength: UInt64 { UInt64(LegacyRecordFormat.recordHeaderSize + keyLength) + valueLength }
    }

    /// Whether a format-1 file header's CRC-32 (bytes 28–31, over 0–27) matches.
    static func fileHeaderIsIntact(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let declared: UInt32 = RecordFormat.load(at: 28, from: bytes)
        return CRC32.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[0..<28])) == declared
    }

    static func decodeHeader(_ bytes: UnsafeRawBufferPointer) -> Header {
        Header(
            recordChecksum: RecordFormat.load(at: 0, from: bytes),
            headerChecksum: RecordFormat.load(at: 4, from: bytes),
            type: bytes[8],
            flags: bytes[9],
            keyLength: Int(RecordFormat.load(at: 10, from: bytes) as UInt16),
            reserved: RecordFormat.load(at: 12, from: bytes),
            valueLength: RecordFormat.load(at: 16, from: bytes),
            metadata: EntryMetadata(
                createdAt: Int64(bitPattern: RecordFormat.load(at: 24, from: bytes)),
                expiresAt: Int64(bitPattern: RecordFormat.load(at: 32, from: bytes)),
                accessSequence: RecordFormat.load(at: 40, from: bytes)))
    }

    /// Whether a format-1 header and key (`head`, 48 + keyLength bytes) pass their CRC and §3.2.
    static func isValid(_ header: Header, head: UnsafeRawBufferPointer, knownTypesOnly: Bool) -> Bool {
        CRC32.checksum(of: UnsafeRawBufferPointer(rebasing: head[8...])) == header.headerChecksum
            && RecordFormat.isWellFormed(
                type: header.type, flags: header.flags, reserved: header.reserved,
                keyLength: header.keyLength,
                valueLength: header.valueLength, major: RecordFormat.majorVersion,
                knownTypesOnly: knownTypesOnly)
    }
}
