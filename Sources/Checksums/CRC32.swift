/// CRC-32 as used by PNG chunks, zlib's gzip trailer and the log store's records.
///
/// The reflected polynomial 0xEDB88320 (ISO 3309, ITU-T V.42), initial value 0xFFFFFFFF and
/// final XOR 0xFFFFFFFF. `CRC32.checksum(of: "123456789")` is 0xCBF43926.
///
/// The bulk loop is slicing-by-8: eight table look-ups fold eight input bytes per step,
/// which removes the one-byte-per-step dependency chain of the classic Sarwate loop.
public struct CRC32: Sendable, Hashable {
    /// The checksum of everything passed to ``update(_:)`` so far.
    public var value: UInt32 { ~state }

    @usableFromInline var state: UInt32 = 0xFFFF_FFFF

    /// Starts an empty checksum; `value` is 0 until bytes are added.
    public init() {}

    /// Adds `bytes` to the checksum.
    ///
    /// - Complexity: O(n), about one table look-up per byte.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        state = CRC32.advance(state, bytes)
    }

    /// Adds the bytes of a contiguous collection to the checksum.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            for byte in bytes { state = CRC32.step(state, byte) }
        }
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        ~advance(0xFFFF_FFFF, bytes)
    }

    /// The CRC-32 of a byte sequence.
    public static func checksum<Bytes: Sequence>(of bytes: Bytes) -> UInt32
    where Bytes.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    @inline(__always)
    static func step(_ crc: UInt32, _ byte: UInt8) -> UInt32 {
        crc32Tables[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
    }

    static func advance(_ initial: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = initial
        guard var cursor = bytes.baseAddress else { return crc }
        var remaining = bytes.count
        crc32Tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                // Little-endian load: the low four bytes fold into the running CRC.
                let word = UInt64(littleEndian: cursor.loadUnaligned(as: UInt64.self))
                let low = UInt32(truncatingIfNeeded: word) ^ crc
                let high = UInt32(truncatingIfNeeded: word >> 32)
                crc =
                    table[7 * 256 + Int(low & 0xFF)]
                    ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)]
                    ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)]
                    ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)]
                    ^ table[Int(high >> 24)]
                cursor += 8
                remaining -= 8
            }
            while remaining > 0 {
                crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ cursor.load(as: UInt8.self))] ^ (crc >> 8)
                cursor += 1
                remaining -= 1
            }
        }
        return crc
    }
}

/// Eight 256-entry tables: table k maps a byte to its CRC after k further zero bytes.
let crc32Tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
        var crc = UInt32(byte)
        for _ in 0..<8 {
            crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        tables[byte] = crc
    }
    for byte in 0..<256 {
        var crc = tables[byte]
        for slice in 1..<8 {
            crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
            tables[slice * 256 + byte] = crc
        }
    }
    return tables
}()
