// The short paths of XXH3: inputs of 0 to 240 bytes (`Spec/checksum.md` §3–§5).

extension XXH3 {
    /// The hash of `count` (≤ 240) bytes at `input`.
    static func hashShort(_ input: UnsafeRawPointer, _ count: Int) -> UInt64 {
        xxh3Secret.withUnsafeBytes { raw in
            let secret = raw.baseAddress!
            let length = UInt64(count)
            switch count {
            case 0:  // §3.1
                return avalanche64(load64(secret, 56) ^ load64(secret, 64))
            case 1...3:  // §3.2
                let first = UInt64(input.load(as: UInt8.self))
                let middle = UInt64(input.load(fromByteOffset: count >> 1, as: UInt8.self))
                let last = UInt64(input.load(fromByteOffset: count - 1, as: UInt8.self))
                let combined = (first << 16) | (middle << 24) | last | (length << 8)
                return avalanche64(combined ^ (load32(secret, 0) ^ load32(secret, 4)))
            case 4...8:  // §3.3
                let keyed =
                    ((load32(input) << 32) &+ load32(input, count - 4))
                    ^ (load64(secret, 8) ^ load64(secret, 16))
                var hash = keyed ^ rotateLeft(keyed, 49) ^ rotateLeft(keyed, 24)
                hash &*= primeMix2
                hash ^= (hash >> 35) &+ length
                hash &*= primeMix2
                return hash ^ (hash >> 28)
            case 9...16:  // §3.4
                let low = load64(input) ^ (load64(secret, 24) ^ load64(secret, 32))
                let high = load64(input, count - 8) ^ (load64(secret, 40) ^ load64(secret, 48))
                return avalanche(length &+ low.byteSwapped &+ high &+ multiplyFold(low, high))
            case 17...128:  // §4
                var hash = length &* prime64_1
                // Pairs of 16-byte pieces from both ends, meeting in the middle.
                for pair in 0..<((count - 1) / 32) + 1 {
                    hash &+= mix16(input + 16 * pair, secret + 32 * pair)
                    hash &+= mix16(input + count - 16 * (pair + 1), secret + 32 * pair + 16)
                }
                return avalanche(hash)
            default:  // §5
                var hash = length &* prime64_1
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

    /// 16 input bytes against 16 secret bytes (`mix16`, §2.3).
    @inline(__always)
    static func mix16(_ input: UnsafeRawPointer, _ secret: UnsafeRawPointer) -> UInt64 {
        multiplyFold(load64(input) ^ load64(secret), load64(input, 8) ^ load64(secret, 8))
    }
}
