import Checksums
import Testing

@testable import Inflate

/// The streaming decoders hand over exactly the bytes and throw exactly the errors of the
/// array-returning ones, through a window of bounded size (`Spec/deflate.md` §6.4).
@Suite struct StreamingTests {
    /// Window sizes from the smallest allowed (history plus one byte) to the default.
    static let windows = [
        Decompressor.windowHistory + 1, Decompressor.windowHistory + 997, 40_000,
        Decompressor.streamingWindowCapacity,
    ]
    /// The windows for the 250 KB stream: the smallest would slide 32 KiB per byte.
    static let largeWindows = Array(windows.dropFirst())

    /// The pieces a streaming zlib decode hands over, or its error.
    static func zlibPieces(_ stream: [UInt8], limit: Int, window: Int) -> Result<[[UInt8]], InflateError> {
        stream.withUnsafeBytes { bytes in
            Result { () throws(InflateError) in
                var pieces: [[UInt8]] = []
                let produced = try Decompressor.zlibDecompress(bytes, limit: limit, windowCapacity: window) {
                    pieces.append(Array($0))
                }
                #expect(produced == pieces.reduce(0) { $0 + $1.count })
                return pieces
            }
        }
    }

    static func rawPieces(_ stream: [UInt8], limit: Int, window: Int) -> Result<[[UInt8]], InflateError> {
        stream.withUnsafeBytes { bytes in
            Result { () throws(InflateError) in
                var pieces: [[UInt8]] = []
                _ = try Decompressor.rawInflate(bytes, limit: limit, windowCapacity: window) {
                    pieces.append(Array($0))
                }
                return pieces
            }
        }
    }

    /// A stream of 300,000 bytes whose matches reach back the full 32 KiB and cross every
    /// slide of a small window, in fixed, dynamic and stored blocks.
    static let longStream: (stream: [UInt8], output: [UInt8]) = {
        var random = SplitMix64(state: 0x5EED)
        var tokens: [Token] = (0..<40_000).map { _ in .literal(UInt8(random.below(256))) }
        var produced = 40_000
        while produced < 250_000 {
            let length = 3 + random.below(256)
            let distance = [1, 2, 3, 7, 8, 9, 258, 4_096, 32_767, 32_768][random.below(10)]
            tokens.append(.match(length: length, distance: distance))
            tokens.append(.literal(UInt8(random.below(256))))
            produced += length + 1
        }
        var writer = DeflateWriter()
        let half = tokens.count / 2
        writer.fixed(Array(tokens[..<half]), final: false)
        let head = expand(Array(tokens[..<half]))
        let stored = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        writer.stored(Array(stored[..<30_000]), final: false)
        writer.stored(Array(stored[30_000...]), final: false)
        writer.dynamic(Array(tokens[half...]), final: true)
        let output = expand(Array(tokens[half...]), after: head + stored)
        return (writer.zlib(checksumOf: output), output)
    }()

    @Test func everyFixtureStreamsToTheSameBytes() throws {
        for fixture in ZlibFixture.all {
            let expected = fixture.data.bytes
            for window in Self.windows {
                let pieces = try Self.zlibPieces(fixture.stream, limit: .max, window: window).get()
                #expect(Array(pieces.joined()) == expected, "\(fixture.testDescription), window \(window)")
            }
        }
    }

    /// The window is the only output buffer: the first piece fills it, every later piece but
    /// the last is the window less the 32 KiB of history, and the last is what remains.
    @Test func piecesHaveTheWindowSize() throws {
        let (stream, output) = Self.longStream
        for window in Self.largeWindows {
            let pieces = try Self.zlibPieces(stream, limit: .max, window: window).get()
            #expect(Array(pieces.joined()) == output, "window \(window)")
            let step = window - Decompressor.windowHistory
            var expected = [window]
            var total = window
            while total + step < output.count {
                expected.append(step)
                total += step
            }
            expected.append(output.count - total)
            #expect(pieces.map(\.count) == expected, "window \(window)")
        }
    }

    @Test func rawStreamsToTheSameBytes() throws {
        let raw = Array(Self.longStream.stream.dropFirst(2))
        for window in Self.largeWindows {
            let pieces = try Self.rawPieces(raw, limit: .max, window: window).get()
            #expect(Array(pieces.joined()) == Self.longStream.output)
        }
    }

    /// The limit is checked on the total, not on the window: one byte short fails with the
    /// limit as evidence, the exact size succeeds, and a limit below the window shrinks it.
    @Test func limitsCountTheWholeOutput() throws {
        let (stream, output) = Self.longStream
        for window in Self.largeWindows {
            for limit in [0, 1, 1_000, 32_768, 40_001, output.count - 1] {
                #expect(throws: InflateError.outputLimitExceeded(limit: limit)) {
                    try Self.zlibPieces(stream, limit: limit, window: window).get()
                }
            }
            let exact = try Self.zlibPieces(stream, limit: output.count, window: window).get()
            #expect(exact.reduce(0) { $0 + $1.count } == output.count)
        }
        let small = try Self.zlibPieces(ZlibFixture.all[0].stream, limit: 5_000, window: 1 << 20).get()
        #expect(small.count == 1 && small[0].count == ZlibFixture.all[0].data.bytes.count)
        #expect(throws: InflateError.outputLimitExceeded(limit: 0)) {
            try Self.zlibPieces(ZlibFixture.all[0].stream, limit: -5, window: 1 << 20).get()
        }
    }

    /// Corrupted streams fail with the error the array-returning decoder gives, whatever the
    /// window: the window changes where bytes are kept, never what is decided.
    @Test func mutantsFailAlikeInEveryWindow() {
        var random = SplitMix64(state: 0x57EA)
        let seeds =
            MutationTests.seeds.map { ($0.stream, $0.output.count) } + [
                (Self.longStream.stream, Self.longStream.output.count)
            ]
        var failures = 0
        for (stream, size) in seeds {
            for iteration in 0..<120 {
                let mutant = MutationTests.mutate(stream, with: &random)
                let limit = iteration % 3 == 0 ? size / 2 : 2 * size
                let array = Result { () throws(InflateError) in
                    try Decompressor.zlibDecompress(mutant, expectedSize: nil, limit: limit)
                }
                let windows = size > 100_000 ? Self.largeWindows : Self.windows
                let window = windows[iteration % windows.count]
                let streamed = Self.zlibPieces(mutant, limit: limit, window: window).map {
                    Array($0.joined())
                }
                #expect(streamed == array, "mutation \(iteration), window \(window)")
                if case .failure = array { failures += 1 }
            }
        }
        #expect(failures > 300)
    }

    /// Back-references are checked against the true output count before the first slide.
    @Test func distanceTooFarReportsTheBytesProduced() {
        var writer = DeflateWriter()
        writer.fixed([.literal(1), .literal(2), .match(length: 3, distance: 3)], final: true)
        let stream = writer.zlib(checksumOf: [])
        #expect(throws: InflateError.distanceTooFar(distance: 3, available: 2)) {
            try Self.zlibPieces(stream, limit: .max, window: Decompressor.windowHistory + 1).get()
        }
    }

    /// The Adler-32 covers every piece, and is still checked after the last one.
    @Test func adlerCoversEveryPiece() {
        var stream = Self.longStream.stream
        stream[stream.count - 1] ^= 1
        let computed = Adler32.checksum(of: Self.longStream.output)
        #expect(throws: InflateError.adlerMismatch(declared: computed ^ 1, computed: computed)) {
            try Self.zlibPieces(stream, limit: .max, window: Decompressor.windowHistory + 997).get()
        }
    }
}
