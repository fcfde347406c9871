/// XXH64, the 64-bit xxHash (`Spec/checksum.md` §3).
///
/// Four 64-bit lanes each take one 8-byte word of every 32-byte stripe (multiply, rotate,
/// multiply), so the bulk runs at several bytes per cycle in portable code; the lanes are then
/// merged and the tail and length folded in. All loads are little-endian on every platform.
/// `XXH64.checksum(of: "abc")` is 0x44BC2CF5AD770999.
///
/// `update(_:)` may be called any number of times with pieces of any size: the value is that of
/// the concatenation. `value` does not consume the state, so updates may follow it.
public struct XXH64: Sendable {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The four lanes, in stripe order.
    var lanes: Lanes
    let seed: UInt64
    /// Bytes passed to `update` so far, modulo 2⁶⁴.
    var totalLength: UInt64 = 0
    /// The start of an unfinished stripe: the first `pendingCount` bytes are input.
    var pending = SIMD4<UInt64>()
    var pendingCount = 0

    /// Starts an empty checksum with `seed` (default 0).
    public init(seed: UInt64 = 0) {
        self.seed = seed
        lanes = Lanes(seed: seed)
    }

    /// The checksum of everything passed to ``update(_:)`` so far.
    public var value: UInt64 {
        var pending = self.pending
        return withUnsafeBytes(of: &pending) { tail in
            XXH64.finish(
                lanes: totalLength >= 32 ? lanes : nil, seed: seed, totalLength: totalLength,
                tail: tail.baseAddress!, tailCount: pendingCount)
        }
    }

    /// Adds `bytes` to the checksum.
    ///
    /// - Complexity: O(n); at most 31 bytes are copied into the state per call.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        totalLength &+= UInt64(bytes.count)
        var cursor = base
        var remaining = bytes.count
        var lanes = self.lanes
        var pendingCount = self.pendingCount
        withUnsafeMutableBytes(of: &pending) { pending in
            if pendingCount > 0 {
                let take = min(32 - pendingCount, remaining)
                (pending.baseAddress! + pendingCount).copyMemory(from: cursor, byteCount: take)
                pendingCount += take
                cursor += take
                remaining -= take
                guard pendingCount == 32 else { return }
                lanes.consume(UnsafeRawPointer(pending.baseAddress!), stripes: 1)
                pendingCount = 0
            }
            let stripes = remaining / 32
            lanes.consume(cursor, stripes: stripes)
            cursor += 32 * stripes
            remaining -= 32 * stripes
            pending.baseAddress!.copyMemory(from: cursor, byteCount: remaining)
            pendingCount = remaining
        }
        self.lanes = lanes
        self.pendingCount = pendingCount
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

    /// The XXH64 of `bytes` with `seed` (default 0).
    public static func checksum(of bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress else {
            return withUnsafeBytes(of: 0 as UInt64) {
                finish(lanes: nil, seed: seed, totalLength: 0, tail: $0.baseAddress!, tailCount: 0)
            }
        }
        let stripes = bytes.count / 32
        var lanes: Lanes?
        if stripes > 0 {
            var started = Lanes(seed: seed)
            started.consume(base, stripes: stripes)
            lanes = started
        }
        return finish(
            lanes: lanes, seed: seed, totalLength: UInt64(bytes.count), tail: base + 32 * stripes,
            tailCount: bytes.count - 32 * stripes)
    }

    /// The XXH64 of a byte sequence with `seed` (default 0).
    public static func checksum<Bytes: Sequence>(of bytes: Bytes, seed: UInt64 = 0) -> UInt64
    where Bytes.Element == UInt8 {
        let digest = bytes.withContiguousStorageIfAvailable { buffer in
            checksum(of: UnsafeRawBufferPointer(buffer), seed: seed)
        }
        return digest ?? Array(bytes).withUnsafeBytes { checksum(of: $0, seed: seed) }
    }

    /// One lane step (`Spec/checksum.md` §3.2): `rotl(lane + word·P2, 31)·P1`.
    @inline(__always)
    static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotateLeft(lane &+ word &* prime2, 31) &* prime1
    }

    @inline(__always)
    static func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always)
    static func loadWord(_ pointer: UnsafeRawPointer, _ offset: Int = 0) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The digest from the lanes (nil for inputs under 32 bytes), the length and the last
    /// `tailCount` (< 32) bytes (`Spec/checksum.md` §3.3–3.5).
    static func finish(
        lanes: Lanes?, seed: UInt64, totalLength: UInt64, tail: UnsafeRawPointer, tailCount: Int
    ) -> UInt64 {
        var hash = lanes?.merged ?? seed &+ prime5
        hash &+= totalLength
        var cursor = tail
        var remaining = tailCount
        while remaining >= 8 {
            hash ^= round(0, loadWord(cursor))
            hash = rotateLeft(hash, 27) &* prime1 &+ prime4
            cursor += 8
            remaining -= 8
        }
        if remaining >= 4 {
            let word = UInt32(littleEndian: cursor.loadUnaligned(as: UInt32.self))
            hash ^= UInt64(word) &* prime1
            hash = rotateLeft(hash, 23) &* prime2 &+ prime3
            cursor += 4
            remaining -= 4
        }
        while remaining > 0 {
            hash ^= UInt64(cursor.load(as: UInt8.self)) &* prime5
            hash = rotateLeft(hash, 11) &* prime1
            cursor += 1
            remaining -= 1
        }
        return avalanche(hash)
    }

    /// The final mix (`Spec/checksum.md` §3.5); XXH3 uses it too.
    @inline(__always)
    static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    /// The four accumulators of the stripe loop.
    struct Lanes: Sendable {
        var first: UInt64
        var second: UInt64
        var third: UInt64
        var fourth: UInt64

        init(seed: UInt64) {
            first = seed &+ XXH64.prime1 &+ XXH64.prime2
            second = seed &+ XXH64.prime2
            third = seed
            fourth = seed &- XXH64.prime1
        }

        /// Folds `stripes` 32-byte stripes starting at `input` into the lanes.
        mutating func consume(_ input: UnsafeRawPointer, stripes: Int) {
            var first = self.first
            var second = self.second
            var third = self.third
            var fourth = self.fourth
            var cursor = input
            for _ in 0..<stripes {
                first = XXH64.round(first, XXH64.loadWord(cursor))
                second = XXH64.round(second, XXH64.loadWord(cursor, 8))
                third = XXH64.round(third, XXH64.loadWord(cursor, 16))
                fourth = XXH64.round(fourth, XXH64.loadWord(cursor, 24))
                cursor += 32
            }
            self.first = first
            self.second = second
            self.third = third
            self.fourth = fourth
        }

        /// The lanes joined into one 64-bit value (`Spec/checksum.md` §3.3).
        var merged: UInt64 {
            var hash =
                XXH64.rotateLeft(first, 1) &+ XXH64.rotateLeft(second, 7)
                &+ XXH64.rotateLeft(third, 12) &+ XXH64.rotateLeft(fourth, 18)
            hash = Lanes.mergeRound(hash, first)
            hash = Lanes.mergeRound(hash, second)
            hash = Lanes.mergeRound(hash, third)
            return Lanes.mergeRound(hash, fourth)
        }

        @inline(__always)
        static func mergeRound(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
            (hash ^ XXH64.round(0, lane)) &* XXH64.prime1 &+ XXH64.prime4
        }
    }
}
