#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// One entry as the `dictionary` file and the `directory` entry files store it
/// (`Spec/backends.md` §1.3). Both checksums are the record checksum (`Spec/checksum.md`).
///
///     offset  size  field
///          0     4  keyLength       UInt32
///          4     8  valueLength     UInt64
///         12     8  createdAt       Int64
///         20     8  expiresAt       Int64
///         28     8  accessSequence  UInt64
///         36     8  valueChecksum   checksum of the value
///         44     8  headerChecksum  checksum of bytes 0..<44 followed by the key
///         52     k  key
///       52+k     v  value
///
/// Format 3 (`Spec/backends.md` §1.9), for user metadata: a u32 `userMetadataLength` m at
/// offset 44, the header checksum at 48 over bytes 0..<48, the key and the user metadata, then
/// the key at 56, the user metadata, and the value.
struct EntryRecord {
    static let fixedHeaderSize = 52
    static let overhead = 52
    /// The header of a format-3 record (with user metadata).
    static let userMetadataOverhead = 56

    var key: [UInt8]
    var value: [UInt8]
    var metadata: CacheEntryMetadata
    var userMetadata: [UInt8] = []

    /// Appends a record: the format-2 layout above, or with `userMetadata` the format-3 one
    /// (§1.9), which puts its length in the header and its bytes, under the header checksum,
    /// between key and value.
    static func encode(
        key: [UInt8], value: UnsafeRawBufferPointer, metadata: CacheEntryMetadata,
        userMetadata: [UInt8]? = nil, into writer: inout ByteWriter
    ) {
        let start = writer.bytes.count
        writer.append(UInt32(key.count))
        writer.append(UInt64(value.count))
        writer.append(metadata.createdAt)
        writer.append(metadata.expiresAt)
        writer.append(metadata.accessSequence)
        writer.append(XXH3.checksum(of: value))
        if let userMetadata { writer.append(UInt32(userMetadata.count)) }
        var header = XXH3()
        header.update(writer.bytes[start...])
        header.update(key)
        if let userMetadata { header.update(userMetadata) }
        writer.append(header.value)
        writer.append(key)
        if let userMetadata { writer.append(userMetadata) }
        writer.bytes.append(contentsOf: value)
    }

    /// The outcome of decoding one record: the header is needed to continue parsing a file;
    /// a bad value checksum damages only this entry.
    enum Decoded {
        /// The header or key is unreadable: the position of the next record is unknown.
        case unreadable(reason: String)
        /// Key and metadata are sound; `valueIsIntact` is false when the value fails its checksum.
        case record(EntryRecord, valueIsIntact: Bool)
    }

    /// Decodes the record at `reader.offset` and advances past it: a format-2 record, or a
    /// format-3 one (§1.9) when `withUserMetadata`.
    static func decode(from reader: inout ByteReader, withUserMetadata: Bool = false) -> Decoded {
        let start = reader.offset
        guard let keyLength = reader.read(UInt32.self),
            let valueLength = reader.read(UInt64.self),
            let createdAt = reader.read(Int64.self),
            let expiresAt = reader.read(Int64.self),
            let accessSequence = reader.read(UInt64.self),
            let valueChecksum = reader.read(UInt64.self),
            let userMetadataLength = withUserMetadata ? reader.read(UInt32.self) : 0
        else { return .unreadable(reason: "truncated record header at offset \(start)") }
        let checksummedHeader = reader.bytes[start..<reader.offset]
        guard let headerChecksum = reader.read(UInt64.self) else {
            return .unreadable(reason: "truncated record header at offset \(start)")
        }
        guard keyLength >= 1, keyLength <= 65_535, let key = reader.readBytes(Int(keyLength)) else {
            return .unreadable(reason: "bad key length \(keyLength) at offset \(start)")
        }
        guard userMetadataLength <= UInt32(ImageCache.maximumUserMetadataByteCount),
            let userMetadata = reader.readBytes(Int(userMetadataLength))
        else {
            return .unreadable(reason: "bad user metadata length \(userMetadataLength) at offset \(start)")
        }
        var header = XXH3()
        header.update(checksummedHeader)
        header.update(key)
        header.update(userMetadata)
        guard header.value == headerChecksum else {
            return .unreadable(reason: "record header checksum mismatch at offset \(start)")
        }
        guard valueLength <= UInt64(reader.remaining), let value = reader.readBytes(Int(valueLength)) else {
            return .unreadable(reason: "truncated value at offset \(start)")
        }
        let record = EntryRecord(
            key: Array(key), value: Array(value),
            metadata: CacheEntryMetadata(
                createdAt: createdAt, expiresAt: expiresAt, accessSequence: accessSequence),
            userMetadata: Array(userMetadata))
        let intact = value.withUnsafeBytes { XXH3.checksum(of: $0) } == valueChecksum
        return .record(record, valueIsIntact: intact)
    }
}
