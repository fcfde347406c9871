/// XXH3-64, the 64-bit XXH3 hash with seed 0 and the default 192-byte secret: the record
/// checksum of `Spec/checksum.md`.
///
/// Inputs up to 240 bytes take one of four short paths (a handful of multiplies); longer inputs
/// run eight 64-bit accumulators over 64-byte stripes, scrambled every 1,024 bytes. The stripe
/// step is a 32 × 32 → 64-bit multiply and two adds per 8-byte lane, written with `SIMD8<UInt64>`
/// so the compiler can use vector multiplies (on baseline x86-64 it emits SSE2 `pmuludq`). All
/// loads are little-endian on every platform. `XXH3.checksum(of: "abc".utf8)` is
/// 0x78AF5F94892F3950.
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

    /// Adds `bytes` to the checksum (`Spec/checksum.md` §7).
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
