#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

/// Deterministic, incompressible test values: the same seed gives the same bytes on every run,
/// and different seeds give different values, so no store can share or dedupe them.
public enum SampleData {
    /// The `png` and `thumbnail` suites' synthetic image: `count` incompressible-looking bytes
    /// from a 64-bit LCG with a fixed seed, the same on every run.
    static func imagePixels(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in stride(from: 0, to: buffer.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state) { word in
                    for k in 0..<min(8, buffer.count - index) { buffer[index + k] = word[k] }
                }
            }
            initialized = buffer.count
        }
    }

    /// `count` pseudo-random bytes from `seed` (SplitMix64).
    public static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            while offset + 8 <= count {
                raw.storeBytes(of: generator.next().littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            if offset < count {
                var last = generator.next()
                while offset < count {
                    raw[offset] = UInt8(truncatingIfNeeded: last)
                    last >>= 8
                    offset += 1
                }
            }
            initialized = count
        }
    }

    /// A distinct `side` × `side` RGBA image with 8-bit samples: noise from `seed`, so its PNG
    /// does not shrink and no two images are alike.
    public static func bitmap(side: Int, seed: UInt64) throws -> Bitmap {
        try Bitmap(
            width: side, height: side, format: .rgba8, pixels: bytes(count: side * side * 4, seed: seed))
    }

    /// The key of item `index` in a run: short, ASCII, and the same for every backend.
    public static func key(_ prefix: String, _ index: Int) -> String {
        "\(prefix)-\(index)"
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
