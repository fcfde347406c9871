/// XXH3-64, the 64-bit XXH3 hash with seed 0 and the default 192-byte secret
/// (`Spec/checksum.md` §4).
///
/// Inputs up to 240 bytes take one of four short paths (a handful of multiplies); longer inputs
/// run eight 64-bit accumulators over 64-byte stripes, scrambled every 1,024 bytes. The stripe
/// step is a 32 × 32 → 64-bit multiply and two adds per 8-byte lane, written with `SIMD8<UInt64>`
/// so the compiler can use vector multiplies (SSE2 `pmuludq`, NEON `umlal`). All loads are
/// little-endian on every platform. `XXH3.checksum(of: "abc")` is 0x78AF5F94892F3950.
///
/// `update(_:)` may be called any number of times with pieces of any size: the value is that of
/// the concatenation. `value` does not consume the state, so updates may follow it.
public struct XXH3: Sendable {
    /// The eight stripe accumulators; meaningful once more than 240 bytes have been added.
    var accumulators = XXH3.initialAccumulators
    /// Stripes consumed since the last scramble, 0 ..< 16.
    var stripesInBlock = 0
    /// Bytes passed to `update` so far, modulo 2⁶⁴.
    var totalLength: UInt64 = 0
    /// Input not yet consumed, at the front: `bufferedCount` bytes, never 0 once any byte came.
    /// Once stripes have been consumed, the last 64 bytes of the buffer are the last 64 consumed
    /// bytes, so the final stripe can reach back before the buffered bytes.
    var buffer = Buffer()
    var bufferedCount = 0

    /// Starts an empty checksum.
    public init() {}

    /// The checksum of everything passed to ``update(_:)`` so far.
    public var value: UInt64 {
        var buffer = self.buffer
        return withUnsafeBytes(of: &buffer) { raw in
            let bytes = raw.baseAddress!
            guard totalLength > UInt64(XXH3.shortLimit) else {
                return XXH3.hashShort(bytes, bufferedCount)
            }
            var accumulators = self.accumulators
            if bufferedCount >= 64 {
                var stripesInBlock = self.stripesInBlock
                XXH3.consume(&accumulators, &stripesInBlock, bytes, stripes: (bufferedCount - 1) / 64)
                return XXH3.finishLong(
                    &accumulators, last: bytes + bufferedCount - 64, totalLength: totalLength)
            }
            // The final stripe reaches back into bytes that were consumed already.
            var lastStripe = Buffer.Stripe()
            return withUnsafeMutableBytes(of: &lastStripe) { stripe in
                let reach = 64 - bufferedCount
                stripe.baseAddress!.copyMemory(from: bytes + Buffer.size - reach, byteCount: reach)
                (stripe.baseAddress! + reach).copyMemory(from: bytes, byteCount: bufferedCount)
                return XXH3.finishLong(
                    &accumulators, last: UnsafeRawPointer(stripe.baseAddress!), totalLength: totalLength)
            }
        }
    }

    /// Adds `bytes` to the checksum.
    ///
    /// - Complexity: O(n). Bytes are copied into the state only while fewer than 257 are pending;
    ///   the bulk of a large piece is hashed where it lies.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        totalLength &+= UInt64(bytes.count)
        var cursor = base
        var remaining = bytes.count
        var bufferedCount = self.bufferedCount
        guard remaining > Buffer.size - bufferedCount else {
            withUnsafeMutableBytes(of: &buffer) { buffer in
                (buffer.baseAddress! + bufferedCount).copyMemory(from: cursor, byteCount: remaining)
            }
            self.bufferedCount = bufferedCount + remaining
            return
        }
        // More than a full buffer is pending, so every buffered stripe has a byte after it.
        var accumulators = self.accumulators
        var stripesInBlock = self.stripesInBlock
        withUnsafeMutableBytes(of: &buffer) { buffer in
            let storage = buffer.baseAddress!
            if bufferedCount > 0 {
                let fill = Buffer.size - bufferedCount
                (storage + bufferedCount).copyMemory(from: cursor, byteCount: fill)
                cursor += fill
                remaining -= fill
                XXH3.consume(
                    &accumulators, &stripesInBlock, UnsafeRawPointer(storage), stripes: Buffer.size / 64)
            }
            if remaining > Buffer.size {
                // Keep at least one byte back: a stripe is consumed only when input follows it.
                let stripes = (remaining - 1) / 64
                XXH3.consume(&accumulators, &stripesInBlock, cursor, stripes: stripes)
                cursor += 64 * stripes
                remaining -= 64 * stripes
                (storage + Buffer.size - 64).copyMemory(from: cursor - 64, byteCount: 64)
            }
            storage.copyMemory(from: cursor, byteCount: remaining)
            bufferedCount = remaining
        }
        self.accumulators = accumulators
        self.stripesInBlock = stripesInBlock
        self.bufferedCount = bufferedCount
    }

    /// Adds the bytes of a sequence to the checksum.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// The XXH3-64 of `bytes`.
    public static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard let base = bytes.baseAddress, bytes.count > shortLimit else {
            return withUnsafeBytes(of: 0 as UInt64) { empty in
                hashShort(bytes.baseAddress ?? empty.baseAddress!, bytes.count)
            }
        }
        var accumulators = initialAccumulators
        var stripesInBlock = 0
        consume(&accumulators, &stripesInBlock, base, stripes: (bytes.count - 1) / 64)
        return finishLong(&accumulators, last: base + bytes.count - 64, totalLength: UInt64(bytes.count))
    }

    /// The XXH3-64 of a byte sequence.
    public static func checksum<Bytes: Sequence>(of bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        let digest = bytes.withContiguousStorageIfAvailable { buffer in
            checksum(of: UnsafeRawBufferPointer(buffer))
        }
        return digest ?? Array(bytes).withUnsafeBytes { checksum(of: $0) }
    }

    /// 256 bytes of pending input, stored inline so a checksum in progress allocates nothing.
    struct Buffer: Sendable {
        static let size = 256
        typealias Stripe = SIMD64<UInt8>
        var storage: (Stripe, Stripe, Stripe, Stripe) = (.init(), .init(), .init(), .init())
    }
}

// MARK: - Constants and primitives (`Spec/checksum.md` §4.1)

extension XXH3 {
    static let prime32_1: UInt64 = 0x9E37_79B1
    static let prime32_2: UInt64 = 0x85EB_CA77
    static let prime32_3: UInt64 = 0xC2B2_AE3D
    static let primeMix1: UInt64 = 0x1656_6791_9E37_79F9
    static let primeMix2: UInt64 = 0x9FB2_1C65_1E98_DF25

    /// Inputs of at most this many bytes take a short path and never touch the accumulators.
    static let shortLimit = 240

    static let initialAccumulators = SIMD8<UInt64>(
        prime32_3, XXH64.prime1, XXH64.prime2, XXH64.prime3, XXH64.prime4, prime32_2, XXH64.prime5,
        prime32_1)

    @inline(__always)
    static func load64(_ pointer: UnsafeRawPointer, _ offset: Int = 0) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    static func load32(_ pointer: UnsafeRawPointer, _ offset: Int = 0) -> UInt64 {
        UInt64(UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    @inline(__always)
    static func secret64(_ offset: Int) -> UInt64 {
        xxh3Secret.withUnsafeBytes { load64($0.baseAddress!, offset) }
    }

    /// The 128-bit product of `a` and `b`, its two halves XORed together.
    @inline(__always)
    static func multiplyFold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.low ^ product.high
    }

    @inline(__always)
    static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value ^ (value >> 37)
        hash &*= primeMix1
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    static func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}

// MARK: - Inputs of 0 to 240 bytes (`Spec/checksum.md` §4.2–4.5)

extension XXH3 {
    /// The hash of `count` (≤ 240) bytes at `input`.
    static func hashShort(_ input: UnsafeRawPointer, _ count: Int) -> UInt64 {
        xxh3Secret.withUnsafeBytes { raw in
            let secret = raw.baseAddress!
            let length = UInt64(count)
            switch count {
            case 0:
                return XXH64.avalanche(load64(secret, 56) ^ load64(secret, 64))
            case 1...3:
                let first = UInt64(input.load(as: UInt8.self))
                let middle = UInt64(input.load(fromByteOffset: count >> 1, as: UInt8.self))
                let last = UInt64(input.load(fromByteOffset: count - 1, as: UInt8.self))
                let combined = (first << 16) | (middle << 24) | last | (length << 8)
                return XXH64.avalanche(combined ^ (load32(secret, 0) ^ load32(secret, 4)))
            case 4...8:
                let keyed =
                    ((load32(input) << 32) &+ load32(input, count - 4))
                    ^ (load64(secret, 8) ^ load64(secret, 16))
                var hash = keyed ^ rotateLeft(keyed, 49) ^ rotateLeft(keyed, 24)
                hash &*= primeMix2
                hash ^= (hash >> 35) &+ length
                hash &*= primeMix2
                return hash ^ (hash >> 28)
            case 9...16:
                let low = load64(input) ^ (load64(secret, 24) ^ load64(secret, 32))
                let high = load64(input, count - 8) ^ (load64(secret, 40) ^ load64(secret, 48))
                return avalanche(length &+ low.byteSwapped &+ high &+ multiplyFold(low, high))
            case 17...128:
                var hash = length &* XXH64.prime1
                // Pairs of 16-byte pieces from both ends, meeting in the middle.
                for pair in 0..<((count - 1) / 32) + 1 {
                    hash &+= mix16(input + 16 * pair, secret + 32 * pair)
                    hash &+= mix16(input + count - 16 * (pair + 1), secret + 32 * pair + 16)
                }
                return avalanche(hash)
            default:
                var hash = length &* XXH64.prime1
                for piece in 0..<8 { hash &+= mix16(input + 16 * piece, secret + 16 * piece) }
                hash = avalanche(hash)
                for piece in 8..<(count / 16) {
                    hash &+= mix16(input + 16 * piece, secret + 16 * (piece - 8) + 3)
                }
                hash &+= mix16(input + count - 16, secret + 119)
                return avalanche(hash)
            }
        }
    }

    /// 16 input bytes against 16 secret bytes.
    @inline(__always)
    static func mix16(_ input: UnsafeRawPointer, _ secret: UnsafeRawPointer) -> UInt64 {
        multiplyFold(load64(input) ^ load64(secret), load64(input, 8) ^ load64(secret, 8))
    }
}

// MARK: - Inputs over 240 bytes (`Spec/checksum.md` §4.6)

extension XXH3 {
    /// Stripes per block: a scramble follows every 16th consumed stripe.
    static let stripesPerBlock = 16

    /// Folds `stripes` 64-byte stripes at `input` into the accumulators, scrambling at block ends.
    static func consume(
        _ accumulators: inout SIMD8<UInt64>, _ stripesInBlock: inout Int, _ input: UnsafeRawPointer,
        stripes: Int
    ) {
        xxh3Secret.withUnsafeBytes { raw in
            let secret = raw.baseAddress!
            var acc = accumulators
            var cursor = input
            var remaining = stripes
            var position = stripesInBlock
            while remaining > 0 {
                if position == 0 && remaining >= stripesPerBlock {
                    // A whole block: constant secret offsets the compiler can fold.
                    for stripe in 0..<stripesPerBlock {
                        accumulate(&acc, cursor + (stripe &<< 6), secret + (stripe &<< 3))
                    }
                    scramble(&acc, secret + 128)
                    cursor += stripesPerBlock &<< 6
                    remaining &-= stripesPerBlock
                    continue
                }
                let run = min(stripesPerBlock &- position, remaining)
                // Offsets cannot overflow: run ≤ 16 and the input is addressable memory.
                var stripe = 0
                while stripe < run {
                    accumulate(&acc, cursor + (stripe &<< 6), secret + ((position &+ stripe) &<< 3))
                    stripe &+= 1
                }
                cursor += run &<< 6
                remaining &-= run
                position &+= run
                if position == stripesPerBlock {
                    scramble(&acc, secret + 128)
                    position = 0
                }
            }
            accumulators = acc
            stripesInBlock = position
        }
    }

    /// One stripe: each lane adds its neighbour's input word and the product of the low and high
    /// halves of its own keyed word.
    @inline(__always)
    static func accumulate(_ acc: inout SIMD8<UInt64>, _ input: UnsafeRawPointer, _ secret: UnsafeRawPointer)
    {
        let data = loadLanes(input)
        let keyed = data ^ loadLanes(secret)
        let product = (keyed & 0xFFFF_FFFF) &* (keyed &>> 32)
        let swapped = SIMD8<UInt64>(data[1], data[0], data[3], data[2], data[5], data[4], data[7], data[6])
        acc &+= swapped &+ product
    }

    @inline(__always)
    static func scramble(_ acc: inout SIMD8<UInt64>, _ secret: UnsafeRawPointer) {
        acc ^= acc &>> 47
        acc ^= loadLanes(secret)
        acc &*= prime32_1
    }

    /// Eight little-endian 64-bit words.
    @inline(__always)
    static func loadLanes(_ pointer: UnsafeRawPointer) -> SIMD8<UInt64> {
        let lanes = pointer.loadUnaligned(as: SIMD8<UInt64>.self)
        #if _endian(big)
            var swapped = lanes
            for index in 0..<8 { swapped[index] = lanes[index].byteSwapped }
            return swapped
        #else
            return lanes
        #endif
    }

    /// The last stripe (the 64 bytes ending the input), then the merge of the accumulators.
    static func finishLong(_ acc: inout SIMD8<UInt64>, last: UnsafeRawPointer, totalLength: UInt64) -> UInt64
    {
        xxh3Secret.withUnsafeBytes { raw in
            let secret = raw.baseAddress!
            accumulate(&acc, last, secret + 121)
            var hash = totalLength &* XXH64.prime1
            for pair in 0..<4 {
                hash &+= multiplyFold(
                    acc[2 * pair] ^ load64(secret, 11 + 16 * pair),
                    acc[2 * pair + 1] ^ load64(secret, 11 + 16 * pair + 8))
            }
            return avalanche(hash)
        }
    }
}

/// The default secret of XXH3 (`Spec/checksum.md` §4.1): 192 bytes, read as little-endian words
/// at byte offsets that are not multiples of 8.
let xxh3Secret: [UInt8] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]
