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
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: hint) == Self.expected)
        #expect(
            try Decompressor.zlibDecompress(stream, expectedSize: hint, limit: Self.expected.count)
                == Self.expected)
        #expect(throws: InflateError.outputLimitExceeded(limit: Self.expected.count - 1)) {
            try Decompressor.zlibDecompress(
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
            #expect(try Decompressor.rawInflate(writer.deflate, expectedSize: hint) == expected)
        }
        for limit in stride(from: 0, to: expected.count, by: 97) {
            #expect(throws: InflateError.outputLimitExceeded(limit: limit)) {
                try Decompressor.rawInflate(writer.deflate, expectedSize: limit / 2, limit: limit)
            }
        }
    }

    /// A stream whose data exactly fills the limit may still hold empty blocks and end-of-block
    /// codes after it: they write nothing, so they fit.
    @Test func emptyBlocksAfterTheLastByteFitTheLimit() throws {
        let tokens: [Token] = [
            .literal(5), .match(length: 258, distance: 1), .match(length: 41, distance: 2),
        ]
        let expected = expand(tokens)
        var writer = DeflateWriter()
        writer.dynamic(tokens, final: false)
        writer.stored([], final: false)
        writer.fixed([], final: false)
        writer.dynamic([], final: true)
        let stream = writer.zlib(checksumOf: expected)
        for hint in [nil, 0, 1, 299, 300, 301] as [Int?] {
            #expect(
                try Decompressor.zlibDecompress(stream, expectedSize: hint, limit: 300) == expected)
        }
        #expect(throws: InflateError.outputLimitExceeded(limit: 299)) {
            try Decompressor.zlibDecompress(stream, expectedSize: 300, limit: 299)
        }
    }
}
