import LogStoreKit

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Writes stores of format 1 (`Spec/store.md` §11) straight from its tables, as version 1 of
/// this package did, so the migration can be tested without that version.
public struct FormatOneWriter {
    public private(set) var bytes: [UInt8] = []

    public init(generation: UInt64 = 0x1234_5678_9ABC_DEF0) {
        var header = [0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A] as [UInt8]
        header += Self.little(UInt16(1)) + Self.little(UInt16(0)) + Self.little(UInt32(0))
        header += Self.little(generation) + Self.little(UInt32(0))
        header += Self.little(CRC32.checksum(of: header))
        bytes = header
    }

    static func little<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// Appends a record; returns its offset.
    @discardableResult
    public mutating func append(type: UInt8, key: String, value: [UInt8] = [], metadata: EntryMetadata? = nil)
        -> Int
    {
        let keyBytes = Array(key.utf8)
        let fields = metadata ?? EntryMetadata(createdAt: 0, expiresAt: 0, accessSequence: 0)
        var covered = [type, 0] + Self.little(UInt16(keyBytes.count)) + Self.little(UInt32(0))
        covered +=
            Self.little(UInt64(value.count)) + Self.little(fields.createdAt) + Self.little(fields.expiresAt)
        covered += Self.little(fields.accessSequence) + keyBytes
        let headerChecksum = Self.little(CRC32.checksum(of: covered))
        let recordChecksum = CRC32.checksum(of: headerChecksum + covered + value)
        let offset = bytes.count
        bytes += Self.little(recordChecksum) + headerChecksum + covered + value
        return offset
    }
}
