/// CRC-32 as used by PNG chunks, zlib's gzip trailer and the log store's records.
///
/// The reflected polynomial 0xEDB88320 (ISO 3309, ITU-T V.42), initial value 0xFFFFFFFF and
/// final XOR 0xFFFFFFFF. `CRC32.checksum(of: "123456789")` is 0xCBF43926.
///
/// The bulk loop is slicing-by-8 (eight table look-ups fold eight input bytes per step) run
/// over three interleaved streams; see `advance(_:_:)`.
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

    /// Folds `bytes` into a raw (unconditioned) CRC register.
    ///
    /// Long inputs run as three interleaved streams: one stream's next step waits on its own
    /// previous table look-ups, so three independent streams keep the load units busy. The
    /// streams are then joined with ``CRC32/shift(_:byteCount:)``; CRC is linear, so
    /// `register(A ‖ B) = shift(register(A), |B|) ⊕ register₀(B)` exactly.
    static func advance(_ initial: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return initial }
        let count = bytes.count
        guard count >= interleavedThreshold else { return advanceSerially(initial, base, count) }
        // Lanes are whole multiples of 64 bytes so the join needs few table multiplies.
        let lane = (count / 3) & ~63
        var first = initial
        var second: UInt32 = 0
        var third: UInt32 = 0
        crc32Tables.withUnsafeBufferPointer { table in
            var offset = 0
            while offset < lane {
                first = fold(first, base + offset, table)
                second = fold(second, base + lane + offset, table)
                third = fold(third, base + 2 * lane + offset, table)
                offset += 8
            }
        }
        let shiftOperator = CRC32.power(ofBytes: UInt64(lane))
        var crc = CRC32.multiply(shiftOperator, first) ^ second
        crc = CRC32.multiply(shiftOperator, crc) ^ third
        return advanceSerially(crc, base + 3 * lane, count - 3 * lane)
    }

    /// Below this many bytes the cost of joining three streams outweighs the gain.
    static let interleavedThreshold = 512

    /// Slicing-by-8 over one stream, then a byte at a time for the last few bytes.
    static func advanceSerially(_ initial: UInt32, _ start: UnsafeRawPointer, _ count: Int) -> UInt32 {
        var crc = initial
        var cursor = start
        var remaining = count
        crc32Tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                crc = fold(crc, cursor, table)
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

    /// One slicing-by-8 step: eight look-ups fold eight bytes into the register.
    @inline(__always)
    static func fold(_ crc: UInt32, _ cursor: UnsafeRawPointer, _ table: UnsafeBufferPointer<UInt32>)
        -> UInt32
    {
        // The low four bytes fold into the running CRC; the high four are read one at a time,
        // each a load the CPU can fold into its look-up, where taking them out of a word costs
        // a copy, a shift and a mask each.
        let low = UInt32(littleEndian: cursor.loadUnaligned(as: UInt32.self)) ^ crc
        @inline(__always) func byte(_ offset: Int) -> Int {
            Int(cursor.load(fromByteOffset: offset, as: UInt8.self))
        }
        return table[7 * 256 + Int(low & 0xFF)]
            ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
            ^ table[5 * 256 + Int((low >> 16) & 0xFF)]
            ^ table[4 * 256 + Int(low >> 24)]
            ^ table[3 * 256 + byte(4)]
            ^ table[2 * 256 + byte(5)]
            ^ table[1 * 256 + byte(6)]
            ^ table[byte(7)]
    }

    /// The product of two polynomials modulo the CRC polynomial, in the reflected bit order
    /// the register uses (bit 31 is the coefficient of x⁰).
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var a = a
        var b = b
        var product: UInt32 = 0
        while a != 0 {
            if a & 0x8000_0000 != 0 { product ^= b }
            a <<= 1
            b = b & 1 != 0 ? (b >> 1) ^ 0xEDB8_8320 : b >> 1
        }
        return product
    }

    /// x^(8·n) modulo the CRC polynomial: multiplying a register by it appends n zero bytes.
    ///
    /// - Complexity: one multiply per set bit of `n`, from a table of x^(8·2^k).
    static func power(ofBytes n: UInt64) -> UInt32 {
        var result: UInt32 = 0x8000_0000  // x⁰
        var remaining = n
        var bit = 0
        crc32BytePowers.withUnsafeBufferPointer { powers in
            while remaining != 0 {
                if remaining & 1 != 0 { result = multiply(result, powers[bit]) }
                remaining >>= 1
                bit += 1
            }
        }
        return result
    }

    /// The CRC of `A ‖ B` from the CRCs of `A` and `B` and the length of `B`.
    ///
    /// Lets a writer checksum pieces independently and join them, or re-checksum a record whose
    /// header changed without reading its value again. `secondLength` is 64-bit so values
    /// over 4 GiB combine on 32-bit platforms too.
    public static func combine(_ first: UInt32, _ second: UInt32, secondLength: UInt64) -> UInt32 {
        multiply(power(ofBytes: secondLength), first) ^ second
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

/// x^(8·2^k) modulo the CRC polynomial for k = 0 ..< 64: the operators that append 2^k zero
/// bytes, so any shift is a product of at most popcount(n) of them.
let crc32BytePowers: [UInt32] = {
    var powers = [UInt32](repeating: 0, count: 64)
    var power: UInt32 = 0x0080_0000  // x⁸, one byte
    for index in 0..<64 {
        powers[index] = power
        power = CRC32.multiply(power, power)
    }
    return powers
}()
