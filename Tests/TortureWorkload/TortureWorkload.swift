/// The deterministic workload of the cache crash tests, shared by the child that runs it and
/// the test that kills the child and checks what survived (`Tests/CrashTests`).
///
/// Operation `n` of a run depends on the run's seed and `n` only, so the test can replay the
/// operations a child reported done. Every stored value says which key and which operation
/// stored it, so a value read back after a crash can be traced to the operation that wrote it
/// and checked byte for byte.
public enum TortureWorkload {
    /// Keys 0 ..< keyCount; few, so that values are replaced and removed often.
    public static let keyCount = 40
    /// The hybrid backend's external-storage threshold in the runs, so that about half of the
    /// values go to external files.
    public static let hybridThreshold = 8 << 10

    public enum Operation: Equatable, Sendable {
        case store(key: Int, size: Int)
        case remove(key: Int)
        case read(key: Int)
        case synchronize
        case compact
        case purge
    }

    /// Operation `number` of the run with `seed`.
    public static func operation(_ number: Int, seed: UInt64) -> Operation {
        var generator = SplitMix(state: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
        let roll = generator.next() % 100
        let key = Int(generator.next() % UInt64(keyCount))
        switch roll {
        case 0..<58:
            // Mostly small and medium values; some over the hybrid threshold; a few large.
            let kind = generator.next() % 20
            let size: Int
            switch kind {
            case 0: size = 150_000 + Int(generator.next() % 100_000)
            case 1..<8: size = hybridThreshold + Int(generator.next() % 40_000)
            case 8: size = 0
            default: size = 16 + Int(generator.next() % 3_000)
            }
            return .store(key: key, size: size)
        case 58..<74: return .remove(key: key)
        case 74..<84: return .read(key: key)
        case 84..<94: return .synchronize
        case 94..<97: return .compact
        default: return .purge
        }
    }

    /// The key string of key number `key`.
    public static func key(_ key: Int) -> String { "key-\(key)" }

    /// The value operation `number` of the run with `seed` stores under `key`: 16 bytes naming
    /// the seed and the operation, then bytes they determine.
    public static func value(key: Int, size: Int, operation number: Int, seed: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var header = [UInt8]()
        withUnsafeBytes(of: seed.littleEndian) { header += $0 }
        withUnsafeBytes(of: UInt64(number).littleEndian) { header += $0 }
        var generator = SplitMix(state: seed &+ UInt64(number) &* 31 &+ UInt64(key))
        for index in 0..<size {
            bytes[index] = index < 16 ? header[index] : UInt8(truncatingIfNeeded: generator.next())
        }
        return bytes
    }

    /// The (seed, operation number) a value names, if it is at least 16 bytes long.
    public static func origin(of value: [UInt8]) -> (seed: UInt64, operation: Int)? {
        guard value.count >= 16 else { return nil }
        var seed: UInt64 = 0
        var number: UInt64 = 0
        for index in 0..<8 {
            seed |= UInt64(value[index]) << (8 * index)
            number |= UInt64(value[8 + index]) << (8 * index)
        }
        return (seed, Int(truncatingIfNeeded: number))
    }

    /// A small deterministic generator (SplitMix64).
    public struct SplitMix {
        public var state: UInt64
        public init(state: UInt64) { self.state = state }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
