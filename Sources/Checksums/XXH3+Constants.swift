// The constants, the default secret and the primitives of XXH3 (`Spec/checksum.md` §2).

extension XXH3 {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime32_1: UInt64 = 0x9E37_79B1
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime32_2: UInt64 = 0x85EB_CA77
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime32_3: UInt64 = 0xC2B2_AE3D
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime64_1: UInt64 = 0x9E37_79B1_85EB_CA87
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime64_2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime64_3: UInt64 = 0x1656_67B1_9E37_79F9
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime64_4: UInt64 = 0x85EB_CA77_C2B2_AE63
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let prime64_5: UInt64 = 0x27D4_EB2F_1656_67C5
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let primeMix1: UInt64 = 0x1656_6791_9E37_79F9
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static let primeMix2: UInt64 = 0x9FB2_1C65_1E98_DF25

    /// Inputs of at most this many bytes take a short path and never touch the accumulators.
    static let shortLimit = 240

    /// The accumulators before the first stripe (`Spec/checksum.md` §6.1).
    static let initialAccumulators = SIMD8<UInt64>(
        prime32_3, prime64_1, prime64_2, prime64_3, prime64_4, prime32_2, prime64_5, prime32_1)

    /// The little-endian 64-bit word at `pointer + offset`, aligned or not.
    @inline(__always)
    static func load64(_ pointer: UnsafeRawPointer, _ offset: Int = 0) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The little-endian 32-bit word at `pointer + offset`, widened.
    @inline(__always)
    static func load32(_ pointer: UnsafeRawPointer, _ offset: Int = 0) -> UInt64 {
        UInt64(UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// The 128-bit product of `a` and `b`, its two halves XORed together (`fold`, §2.3).
    @inline(__always)
    static func multiplyFold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.low ^ product.high
    }

    /// The final mix of most paths (`avalanche`, §2.3).
    @inline(__always)
    static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value ^ (value >> 37)
        hash &*= primeMix1
        return hash ^ (hash >> 32)
    }

    /// The final mix of the 0- and 1-to-3-byte paths, XXH64's (`avalanche64`, §2.3).
    @inline(__always)
    static func avalanche64(_ value: UInt64) -> UInt64 {
        var hash = value ^ (value >> 33)
        hash &*= prime64_2
        hash ^= hash >> 29
        hash &*= prime64_3
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    static func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}

/// The default secret of XXH3 (`Spec/checksum.md` §2.5): 192 bytes, read as little-endian words
/// at byte offsets that are not always multiples of 8.
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
