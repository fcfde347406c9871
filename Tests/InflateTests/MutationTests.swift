import Inflate
import Testing

/// A small deterministic generator (SplitMix64) so the mutations are the same on every run.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Thousands of corrupted streams (bit flips, truncations, overwritten, inserted and deleted
/// bytes) must each give output or an error, never a crash or hang, and exactly what the
/// one-bit-at-a-time reference decoder gives: same bytes or same error case
/// (`Spec/deflate.md` §7).
@Suite struct MutationTests {
    /// Valid streams that between them hold every block type, long codes and long matches.
    static let seeds: [(name: String, stream: [UInt8], output: [UInt8])] = {
        var seeds: [(String, [UInt8], [UInt8])] = []
        for (data, variant) in [
            (FixtureData.text, "level6"), (.gradient, "level9"), (.runs, "fixed"),
            (.noise, "level1"), (.text, "smallBlocks"), (.runs, "rle"),
        ] {
            let fixture = ZlibFixture.all.first { $0.data == data && $0.variant == variant }!
            seeds.append(("\(data) \(variant)", fixture.stream, data.bytes))
        }
        let head = Array("mutation seed: stored, fixed and dynamic blocks".utf8)
        let tokens: [Token] = [
            .match(length: 20, distance: 10), .literal(0x7A), .match(length: 258, distance: 1),
            .match(length: 9, distance: 3),
        ]
        var writer = DeflateWriter()
        writer.stored(head, final: false)
        writer.fixed(tokens, final: false)
        writer.dynamic(tokens.reversed(), final: true)
        let output = expand(tokens.reversed(), after: expand(tokens, after: head))
        seeds.append(("hand-made mixed", writer.zlib(checksumOf: output), output))
        return seeds
    }()

    static func mutate(_ stream: [UInt8], with random: inout SplitMix64) -> [UInt8] {
        var mutant = stream
        if mutant.isEmpty { return [UInt8(random.below(256))] }
        switch random.below(6) {
        case 0, 1:
            for _ in 0...random.below(3) {
                let bit = random.below(mutant.count * 8)
                mutant[bit / 8] ^= 1 << UInt8(bit % 8)
            }
        case 2:
            mutant.removeLast(1 + random.below(mutant.count))
        case 3:
            mutant[random.below(mutant.count)] =
                [0x00, 0xFF, UInt8(random.below(256))][
                    random.below(3)]
        case 4:
            mutant.insert(UInt8(random.below(256)), at: random.below(mutant.count + 1))
        default:
            mutant.remove(at: random.below(mutant.count))
        }
        return mutant
    }

    @Test func mutantsAgreeWithTheReference() {
        var random = SplitMix64(state: 0x1951)
        var outcomes: [String: Int] = [:]
        for seed in Self.seeds {
            let limit = 2 * seed.output.count
            for iteration in 0..<150 {
                let mutant = Self.mutate(seed.stream, with: &random)
                let hint = [nil, seed.output.count, 1, 300][iteration % 4]
                let actual = Result { () throws(InflateError) in
                    try Decompressor.zlibDecompress(mutant, expectedSize: hint, limit: limit)
                }
                let expected = ReferenceInflater.zlib(mutant, limit: limit)
                #expect(actual == expected, "\(seed.name), mutation \(iteration)")
                switch actual {
                case .success: outcomes["success", default: 0] += 1
                case .failure(let error): outcomes[String("\(error)".prefix(24)), default: 0] += 1
                }
            }
        }
        // The mutations reach well beyond the first check.
        #expect(outcomes.count >= 8, "\(outcomes)")
    }

    /// Many more mutants through the fast decoder alone: none may crash, hang or exceed the
    /// limit.
    @Test func mutantsNeverCrash() {
        var random = SplitMix64(state: 0xDEF1_A7E)
        for seed in Self.seeds {
            let limit = seed.output.count + 1_000
            for iteration in 0..<700 {
                var mutant = Self.mutate(seed.stream, with: &random)
                if iteration % 3 == 0 { mutant = Self.mutate(mutant, with: &random) }
                let hint = iteration % 2 == 0 ? nil : 17
                if let output = try? Decompressor.zlibDecompress(
                    mutant, expectedSize: hint, limit: limit)
                {
                    #expect(output.count <= limit)
                }
                let raw = Array(mutant.dropFirst(2))
                if let output = try? Decompressor.rawInflate(raw, expectedSize: hint, limit: limit) {
                    #expect(output.count <= limit)
                }
            }
        }
    }

    /// Every prefix of a valid stream is truncated input, never anything else.
    @Test func everyPrefixIsTruncated() {
        for seed in Self.seeds.prefix(4) + Self.seeds.suffix(1) {
            for length in 0..<seed.stream.count {
                let prefix = Array(seed.stream[..<length])
                #expect(throws: InflateError.truncatedInput) {
                    try Decompressor.zlibDecompress(prefix, expectedSize: seed.output.count)
                }
            }
        }
    }
}
