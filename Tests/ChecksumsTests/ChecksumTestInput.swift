/// Inputs of the record checksum tests.
enum ChecksumTestInput {
    /// The fixed byte pattern of the test vectors (`Spec/checksum.md` §5):
    /// byte i is the top byte of (i × 2654435761) mod 2³².
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { index in
            UInt8(truncatingIfNeeded: (UInt32(truncatingIfNeeded: index) &* 2_654_435_761) >> 24)
        }
    }

    /// The UTF-8 strings of the spec's vector table.
    static let strings = [
        "", "a", "abc", "123456789", "message digest", "abcdefghijklmnopqrstuvwxyz",
        "The quick brown fox jumps over the lazy dog",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    ]

    /// Chunk sizes that mix single bytes, sizes around the 64-byte stripe and the 256-byte
    /// buffer, and pieces of many blocks, from a fixed seed.
    static func chunkSizes(total: Int, seed: UInt64) -> [Int] {
        var generator = SeededGenerator(state: seed)
        let limits = [1, 7, 63, 64, 65, 255, 256, 257, 1_500, 70_000]
        var sizes: [Int] = []
        var covered = 0
        while covered < total {
            let limit = limits[Int(generator.next() % UInt64(limits.count))]
            let size = min(total - covered, Int(generator.next() % UInt64(limit + 1)))
            sizes.append(size)
            covered += size
        }
        return sizes
    }
}

/// SplitMix64, so the tests need no global random state.
struct SeededGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
