import Inflate
import Testing

/// Blocks assembled bit by bit with `DeflateWriter`, covering each block type, their mixtures
/// and the corners of RFC 1951 §3.2.5 (`Spec/deflate.md` §4).
@Suite struct HandMadeBlockTests {
    /// Decodes through every entry point and the reference decoder, and checks all agree.
    func expectDecodes(_ writer: DeflateWriter, to expected: [UInt8]) throws {
        let stream = writer.zlib(checksumOf: expected)
        #expect(try Decompressor.zlibDecompress(stream) == expected)
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: expected.count) == expected)
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: 0) == expected)
        #expect(try Decompressor.rawInflate(writer.deflate) == expected)
        #expect(ReferenceInflater.zlib(stream) == .success(expected))
    }

    static let sample = Array("Sing, goddess, the anger of Peleus' son Achilleus".utf8)

    @Test func storedBlock() throws {
        var writer = DeflateWriter()
        writer.stored(Self.sample, final: true)
        try expectDecodes(writer, to: Self.sample)
    }

    @Test func storedBlocksAcrossTheLengthLimit() throws {
        let data = FixtureData.noise(count: 65_535 + 1_000, seed: 11)
        var writer = DeflateWriter()
        writer.stored(Array(data[..<65_535]), final: false)
        writer.stored([], final: false)
        writer.stored(Array(data[65_535...]), final: true)
        try expectDecodes(writer, to: data)
    }

    @Test func fixedBlock() throws {
        let tokens: [Token] =
            Self.sample.map { .literal($0) } + [
                .match(length: 10, distance: 20), .match(length: 3, distance: 1),
                .literal(0xFF), .literal(0x90), .match(length: 258, distance: 7),
            ]
        var writer = DeflateWriter()
        writer.fixed(tokens, final: true)
        try expectDecodes(writer, to: expand(tokens))
    }

    @Test func dynamicBlock() throws {
        let tokens: [Token] =
            Self.sample.map { .literal($0) } + [
                .match(length: 4, distance: 7), .match(length: 100, distance: 49),
                .literal(0x00),
            ]
        var writer = DeflateWriter()
        writer.dynamic(tokens, final: true)
        try expectDecodes(writer, to: expand(tokens))
    }

    /// A dynamic block of literals only, sending a single distance code length of 0.
    @Test func dynamicBlockWithoutDistanceCodes() throws {
        var writer = DeflateWriter()
        writer.dynamic(Self.sample.map { .literal($0) }, final: true)
        try expectDecodes(writer, to: Self.sample)
    }

    /// RFC 1951 §3.2.7: one distance code is sent with one bit.
    @Test func singleDistanceCode() throws {
        let tokens: [Token] =
            [.literal(7), .literal(9)]
            + Array(
                repeating: .match(length: 5, distance: 2), count: 4)
        var writer = DeflateWriter()
        writer.dynamic(tokens, final: true)
        try expectDecodes(writer, to: expand(tokens))
    }

    /// A block holding only end of block, coded with the single one-bit literal/length code.
    @Test func singleLiteralLengthCode() throws {
        var lengths = [Int](repeating: 0, count: 257)
        lengths[256] = 1
        var writer = DeflateWriter()
        writer.stored([1, 2, 3], final: false)
        writer.dynamicHeader(final: true, literalLengths: lengths, distanceLengths: [0])
        writer.bits.write(0, bitCount: 1)
        try expectDecodes(writer, to: [1, 2, 3])
    }

    /// Stored, fixed and dynamic blocks in one stream, with matches reaching back across
    /// block boundaries and a stored block that starts mid-byte.
    @Test func mixedBlocks() throws {
        let first = Array(Self.sample[..<20])
        let fixedTokens: [Token] = [
            .match(length: 12, distance: 20), .literal(0x41), .match(length: 30, distance: 3),
        ]
        let dynamicTokens: [Token] = [
            .literal(0x42), .match(length: 50, distance: 60), .match(length: 258, distance: 1),
        ]
        let stored = Array(Self.sample[20...])
        let lastTokens: [Token] = [.match(length: 40, distance: 400), .literal(0x0A)]

        var writer = DeflateWriter()
        writer.stored(first, final: false)
        writer.fixed(fixedTokens, final: false)
        writer.dynamic(dynamicTokens, final: false)
        writer.stored(stored, final: false)
        writer.fixed([.literal(1)], final: false)
        writer.dynamic(lastTokens, final: true)

        var expected = expand(fixedTokens, after: first)
        expected = expand(dynamicTokens, after: expected) + stored
        expected = expand(lastTokens, after: expand([.literal(1)], after: expected))
        try expectDecodes(writer, to: expected)
    }

    /// Overlapping matches: every distance 1…9 with lengths from 3 to 258, which drive each
    /// path of the match copy (byte repeat, short periods, 8-byte chunks).
    @Test func overlappingMatches() throws {
        var tokens: [Token] = (0..<9).map { .literal(UInt8(0x30 + $0)) }
        for distance in 1...9 {
            for length in [3, 4, 7, 8, 9, 15, 16, 17, 31, 64, 100, 257, 258] {
                tokens.append(.match(length: length, distance: distance))
                tokens.append(.literal(UInt8(distance * 16 + length % 16)))
            }
        }
        for block in [0, 1] {
            var writer = DeflateWriter()
            if block == 0 {
                writer.fixed(tokens, final: true)
            } else {
                writer.dynamic(tokens, final: true)
            }
            try expectDecodes(writer, to: expand(tokens))
        }
    }

    /// Distance 32,768 with length 258, the largest match DEFLATE can express.
    @Test func maximumDistanceAndLength() throws {
        let window = FixtureData.noise(count: 32_768, seed: 5)
        let tokens: [Token] = [
            .match(length: 258, distance: 32_768), .match(length: 3, distance: 32_768),
            .match(length: 258, distance: 32_768 - 258),
        ]
        var writer = DeflateWriter()
        writer.stored(window, final: false)
        writer.fixed(tokens, final: true)
        let expected = expand(tokens, after: window)
        #expect(expected[32_768..<(32_768 + 258)] == window[0..<258])
        try expectDecodes(writer, to: expected)
    }

    /// Every length code and distance code at the low and high end of its extra bits.
    @Test func everyLengthAndDistanceCode() throws {
        let window = FixtureData.text(count: 32_768, seed: 4)
        var tokens: [Token] = []
        let lengths = DeflateSymbols.lengthBases.indices.flatMap { index in
            let base = DeflateSymbols.lengthBases[index]
            return [base, base + (1 << DeflateSymbols.lengthExtraBits[index]) - 1]
        }
        let distances = DeflateSymbols.distanceBases.indices.flatMap { index in
            let base = DeflateSymbols.distanceBases[index]
            return [base, base + (1 << DeflateSymbols.distanceExtraBits[index]) - 1]
        }
        for (step, length) in lengths.enumerated() where length <= 258 {
            tokens.append(.match(length: length, distance: distances[step % distances.count]))
        }
        for distance in distances { tokens.append(.match(length: 3, distance: distance)) }
        for build in [0, 1] {
            var writer = DeflateWriter()
            writer.stored(window, final: false)
            if build == 0 {
                writer.fixed(tokens, final: true)
            } else {
                writer.dynamic(tokens, final: true)
            }
            try expectDecodes(writer, to: expand(tokens, after: window))
        }
    }

    /// Length code 284 with all five extra bits set means 258 (227 + 31); like zlib, the
    /// decoder accepts it.
    @Test func lengthCode284WithExtra31() throws {
        var writer = DeflateWriter()
        writer.bits.write(1, bitCount: 1)
        writer.bits.write(1, bitCount: 2)
        writer.symbol(0x61, in: .fixedLiteralLength)
        writer.symbol(284, in: .fixedLiteralLength)
        writer.bits.write(31, bitCount: 5)
        writer.symbol(0, in: .fixedDistance)
        writer.symbol(256, in: .fixedLiteralLength)
        try expectDecodes(writer, to: [UInt8](repeating: 0x61, count: 259))
    }

    /// Codes of up to 15 bits, longer than the root tables, so lookups go through subtables.
    @Test func longCodesUseSubtables() throws {
        // Lengths 1, 2, …, 14, 15, 15 form a complete code over 16 symbols.
        let literalSymbols = [
            0x61, 256, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 258,
            0x6A, 0x6B, 262, 0x6C, 0x6D,
        ]
        var literalLengths = [Int](repeating: 0, count: 263)
        for (rank, symbol) in literalSymbols.enumerated() {
            literalLengths[symbol] = min(rank + 1, 15)
        }
        var distanceLengths = [Int](repeating: 0, count: 16)
        for symbol in 0..<16 { distanceLengths[symbol] = min(symbol + 1, 15) }
        let literal = CanonicalCode(lengths: literalLengths)
        let distance = CanonicalCode(lengths: distanceLengths)

        var tokens: [Token] = [0x61, 0x62, 0x63, 0x6D, 0x6C, 0x6B].map { .literal(UInt8($0)) }
        for distanceSymbol in 0..<16 where DeflateSymbols.distanceBases[distanceSymbol] <= 6 {
            tokens.append(.match(length: 4, distance: DeflateSymbols.distanceBases[distanceSymbol]))
            tokens.append(.match(length: 8, distance: DeflateSymbols.distanceBases[distanceSymbol]))
        }
        tokens.append(.literal(0x6D))
        var writer = DeflateWriter()
        writer.dynamicHeader(
            final: true, literalLengths: literalLengths, distanceLengths: distanceLengths)
        writer.body(tokens, literalLength: literal, distance: distance, endOfBlock: true)
        try expectDecodes(writer, to: expand(tokens))

        // Long distance codes too: every distance symbol 0…15 after a long enough prefix.
        let prefix = FixtureData.text(count: 400, seed: 6)
        let farTokens: [Token] = (0..<16).map {
            .match(length: 8, distance: DeflateSymbols.distanceBases[$0])
        }
        var farWriter = DeflateWriter()
        farWriter.stored(prefix, final: false)
        farWriter.dynamicHeader(
            final: true, literalLengths: literalLengths, distanceLengths: distanceLengths)
        farWriter.body(farTokens, literalLength: literal, distance: distance, endOfBlock: true)
        try expectDecodes(farWriter, to: expand(farTokens, after: prefix))
    }

    /// Code-length repeats may run from the literal/length lengths into the distance lengths.
    @Test func repeatCrossesIntoDistanceLengths() throws {
        var literalLengths = [Int](repeating: 0, count: 258)
        for symbol in [0x41, 0x42, 256, 257] { literalLengths[symbol] = 2 }
        let distanceLengths = [2, 2, 2, 2]
        // 65 zeros, 2, 2, 189 zeros, 2 (symbol 256), then "repeat 3" covers symbol 257 and the
        // first two distance lengths, and two more 2s finish the distances.
        let items: [CodeLengthItem] = [
            .init(symbol: 18, extra: 65 - 11), .init(symbol: 2), .init(symbol: 2),
            .init(symbol: 18, extra: 138 - 11), .init(symbol: 18, extra: 51 - 11),
            .init(symbol: 2), .init(symbol: 16, extra: 3 - 3), .init(symbol: 2),
            .init(symbol: 2),
        ]
        var writer = DeflateWriter()
        writer.dynamicHeader(
            final: true, literalLengths: literalLengths, distanceLengths: distanceLengths,
            items: items)
        let tokens: [Token] = [.literal(0x41), .literal(0x42), .match(length: 3, distance: 2)]
        writer.body(
            tokens, literalLength: CanonicalCode(lengths: literalLengths),
            distance: CanonicalCode(lengths: distanceLengths), endOfBlock: true)
        try expectDecodes(writer, to: expand(tokens))
    }
}
