import Inflate
import Testing

/// The size hint decides only how the output buffer is allocated and grown; the limit decides
/// what is allowed (`Spec/deflate.md` §6).
@Suite struct OutputBufferTests {
    static let fixture = ZlibFixture.all.first { $0.data == .textLong }!
    static let expected = fixture.data.bytes

    @Test(arguments: [nil, 0, 1, 257, 4_095, 39_999, 40_000, 40_001, 1 << 40, -1] as [Int?])
    func anySizeHintGivesTheSameOutput(_ hint: Int?) throws {
        let stream = Self.fixture.stream
        #expect(try Inflate.zlibDecompress(stream, expectedSize: hint) == Self.expected)
        #expect(
            try Inflate.zlibDecompress(stream, expectedSize: hint, limit: Self.expected.count)
                == Self.expected)
        #expect(throws: InflateError.outputLimitExceeded(limit: Self.expected.count - 1)) {
            try Inflate.zlibDecompress(
                stream, expectedSize: hint, limit: Self.expected.count - 1)
        }
    }

    /// Matches and literals split across buffer growth resume where they stopped.
    @Test func growthSplitsMatchesAndLiterals() throws {
        var tokens: [Token] = [.literal(1), .literal(2), .literal(3)]
        for step in 0..<200 {
            tokens.append(.match(length: 3 + step % 256, distance: 1 + step % 3))
            tokens.append(.literal(UInt8(step)))
        }
        let expected = expand(tokens)
        var writer = DeflateWriter()
        writer.dynamic(tokens, final: true)
        for hint in 0..<300 {
            #expect(try Inflate.rawInflate(writer.deflate, expectedSize: hint) == expected)
        }
        for limit in stride(from: 0, to: expected.count, by: 97) {
            #expect(throws: InflateError.outputLimitExceeded(limit: limit)) {
                try Inflate.rawInflate(writer.deflate, expectedSize: limit / 2, limit: limit)
            }
        }
    }
}
