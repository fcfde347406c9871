import Checksums
import Testing

@testable import Inflate

/// The edges of the fast loop (`Spec/deflate.md` §5.4): match copies that write past their
/// end, short overlapping distances, the refill near the end of the input, and every error
/// where the fast loop hands over to the careful one. Every case is decoded by the array form
/// (with several size hints, so the output buffer ends at many places), by the streaming form
/// (with small windows, so matches cross slides) and by the one-bit-at-a-time reference
/// decoder, and all must give exactly the same bytes or the same error.
@Suite struct FastLoopTests {
    /// Decodes `data` every way and checks each result against `expected`.
    static func expectEveryForm(
        _ data: [UInt8], limit: Int = .max, hints: [Int?] = [nil, 0, 1, 300],
        give expected: Result<[UInt8], InflateError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            ReferenceInflater.raw(data, limit: limit) == expected, "reference", sourceLocation: sourceLocation
        )
        for hint in hints {
            let array = Result { () throws(InflateError) in
                try Decompressor.rawInflate(data, expectedSize: hint, limit: limit)
            }
            #expect(
                array == expected, "array form, hint \(hint.map(String.init) ?? "nil")",
                sourceLocation: sourceLocation)
        }
        for window in [Decompressor.windowHistory + 1, Decompressor.windowHistory + 997] {
            let streamed = data.withUnsafeBytes { bytes in
                Result { () throws(InflateError) in
                    var output: [UInt8] = []
                    _ = try Decompressor.rawInflate(bytes, limit: limit, windowCapacity: window) {
                        output.append(contentsOf: $0)
                    }
                    return output
                }
            }
            #expect(streamed == expected, "streaming form, window \(window)", sourceLocation: sourceLocation)
        }
    }

    /// `count` bytes that repeat no short pattern.
    static func distinctBytes(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 + seed) &* 37 &+ 11) }
    }

    /// Distances 1 to 70 (a pattern word for 1-7, word copies from 8, 32-byte copies from 64)
    /// with lengths on both sides of each copy width, each match followed by literals that
    /// land where the copy wrote past its end.
    @Test(arguments: Array(1...70))
    func overlappingCopiesOfEveryShortDistance(distance: Int) throws {
        var tokens = Self.distinctBytes(distance).map(Token.literal)
        for length in [3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200, 258] {
            for round in 0..<3 {
                tokens.append(.match(length: length, distance: distance))
                tokens.append(.literal(UInt8(truncatingIfNeeded: length &* 7 &+ round)))
            }
        }
        let expected = expand(tokens)
        var dynamic = DeflateWriter()
        dynamic.dynamic(tokens, final: true)
        Self.expectEveryForm(dynamic.deflate, hints: [nil, expected.count], give: .success(expected))
        var fixed = DeflateWriter()
        fixed.fixed(tokens, final: true)
        Self.expectEveryForm(fixed.deflate, hints: [expected.count], give: .success(expected))
        #expect(
            try Decompressor.zlibDecompress(dynamic.zlib(checksumOf: expected), expectedSize: expected.count)
                == expected)
    }

    /// A stream that ends in long matches, decoded with the output buffer (or the limit) ending
    /// at every one of its last 300 bytes: the fast loop stops 290 bytes before the buffer's
    /// end, so its last matches and the careful loop's first ones meet at every offset.
    @Test(arguments: [1, 3, 8, 31, 32, 100])
    func matchCopiesNearTheOutputEnd(distance: Int) {
        var tokens = Self.distinctBytes(max(distance, 40)).map(Token.literal)
        for step in 0..<60 {
            tokens.append(.match(length: 3 + step % 20, distance: distance))
            tokens.append(.literal(UInt8(step)))
        }
        tokens += [.match(length: 258, distance: distance), .match(length: 100, distance: distance)]
        let expected = expand(tokens)
        var writer = DeflateWriter()
        writer.dynamic(tokens, final: true)
        let data = writer.deflate
        let size = expected.count
        Self.expectEveryForm(data, limit: size, hints: Array(size - 300...size + 1), give: .success(expected))
        for cut in 1...300 {
            Self.expectEveryForm(
                data, limit: size - cut, hints: [nil, size - cut, size - cut - 1],
                give: .failure(.outputLimitExceeded(limit: size - cut)))
        }
    }

    /// The input cut at each of its last 24 bytes, and extended by up to 16 bytes after the
    /// final block: the refill loads 8 bytes at a time only while 8 remain, and must neither
    /// read past the input nor lose a bit at the change to byte-wise refills.
    /// A block long enough for a fast table (4 KB of input or more) whose lengths and distances
    /// have codes short enough to share one entry (`Spec/deflate.md` §5.4): 16 literals, the
    /// lengths 3 to 10 and 8 distances from 1 to 6,200 have 5- and 3-bit codes. Every length
    /// and distance, at eight bit alignments; then the last match, decoded the same way,
    /// reaching one byte further back than there is output.
    @Test func matchesDecodedByOneFastTableEntry() {
        for shift in 0..<8 {
            var tokens = (0..<7_200 + shift).map {
                Token.literal(UInt8(truncatingIfNeeded: $0 &* 5 &+ shift) & 15)
            }
            let distances = [1, 2, 3, 7, 8, 64, 300, 6_200]
            for step in 0..<120 {
                tokens.append(.match(length: 3 + step % 8, distance: distances[step / 8 % distances.count]))
                if step % 5 == 0 { tokens.append(.literal(UInt8(step % 16))) }
            }
            let count = expand(tokens).count
            // 6,145 to 8,192 back share a distance code with 6,200.
            #expect((6_145...8_192).contains(count + 1))
            let after = (0..<64).map { Token.literal(UInt8($0 % 16)) }
            var far = DeflateWriter()
            far.dynamic(tokens + [.match(length: 5, distance: count + 1)] + after, final: true)
            #expect(far.deflate.count >= Inflater.fastTableMinimumInput + 100)
            Self.expectEveryForm(
                far.deflate, hints: [nil, count + 69],
                give: .failure(.distanceTooFar(distance: count + 1, available: count)))
            let valid = tokens + [.match(length: 5, distance: count)] + after
            var writer = DeflateWriter()
            writer.dynamic(valid, final: true)
            Self.expectEveryForm(writer.deflate, hints: [nil, count + 69], give: .success(expand(valid)))
        }
    }

    @Test func refillAtTheInputEnd() {
        var tokens = Self.distinctBytes(64).map(Token.literal)
        for step in 0..<120 {
            tokens.append(
                step % 3 == 0 ? .match(length: 3 + step % 30, distance: 1 + step % 64) : .literal(UInt8(step))
            )
        }
        let expected = expand(tokens)
        for final in [true, false] {
            var writer = DeflateWriter()
            writer.dynamic(tokens, final: final)
            if !final { writer.fixed([.literal(9)], final: true) }
            let data = writer.deflate
            let output = final ? expected : expected + [9]
            for cut in max(0, data.count - 24)..<data.count {
                Self.expectEveryForm(Array(data.prefix(cut)), give: .failure(.truncatedInput))
            }
            for extra in 0...16 {
                let padded = data + [UInt8](repeating: 0xA5, count: extra)
                Self.expectEveryForm(padded, hints: [nil, output.count], give: .success(output))
            }
        }
    }

    /// Each error the fast loop can raise, placed after 0 to 47 bytes of output and followed by
    /// 0 to 11 bytes of further input, so that it falls in the fast loop (8 or more input bytes
    /// left) or in the careful one, at every alignment: the same error, with the same evidence,
    /// either way.
    @Test func everyErrorAtTheBoundaryBetweenTheLoops() {
        for padding in 0..<48 {
            let prefix = Self.distinctBytes(padding, seed: padding).map(Token.literal)
            for trailing in 0..<12 {
                let tail = [UInt8](repeating: 0, count: trailing)

                // A match reaching back one byte more than there is.
                var far = DeflateWriter()
                far.dynamic(prefix + [.match(length: 5, distance: padding + 1)], final: true)
                Self.expectEveryForm(
                    far.deflate + tail,
                    give: .failure(.distanceTooFar(distance: padding + 1, available: padding)))

                // The reserved literal/length symbols 286 and 287, and distance symbols 30 and
                // 31, in a fixed block.
                for symbol in [286, 287] {
                    var writer = Self.fixedBlock(prefix)
                    writer.symbol(symbol, in: .fixedLiteralLength)
                    Self.expectEveryForm(
                        writer.deflate + tail,
                        give: .failure(.invalidSymbol(table: .literalLength, symbol: symbol)))
                }
                for symbol in [30, 31] {
                    var writer = Self.fixedBlock(prefix)
                    writer.symbol(258, in: .fixedLiteralLength)
                    writer.symbol(symbol, in: .fixedDistance)
                    Self.expectEveryForm(
                        writer.deflate + tail,
                        give: .failure(.invalidSymbol(table: .distance, symbol: symbol)))
                }

                // The unassigned half of a one-code distance code, after a length: found when
                // the distance code is read, before its distance is checked.
                let literals = Set(
                    prefix.compactMap { token -> Int? in
                        if case .literal(let byte) = token { return Int(byte) }
                        return nil
                    })
                let code = CanonicalCode.balanced(used: Array(literals) + [256, 257], count: 258)
                var unassigned = DeflateWriter()
                unassigned.dynamicHeader(final: true, literalLengths: code.lengths, distanceLengths: [1])
                unassigned.body(prefix, literalLength: code, distance: code, endOfBlock: false)
                unassigned.symbol(257, in: code)
                unassigned.bits.write(1, bitCount: 1)
                Self.expectEveryForm(
                    unassigned.deflate + tail, give: .failure(.unassignedCode(table: .distance)))

                // The output limit, hit by the literal or match just past it.
                var limited = DeflateWriter()
                limited.dynamic(prefix + [.match(length: 20, distance: max(1, padding))], final: true)
                if padding > 0 {
                    Self.expectEveryForm(
                        limited.deflate + tail, limit: padding + 10, hints: [nil, padding, padding + 10],
                        give: .failure(.outputLimitExceeded(limit: padding + 10)))
                }
            }
        }
    }

    /// A fixed block (BFINAL set) holding `tokens`, ready for more symbols.
    static func fixedBlock(_ tokens: [Token]) -> DeflateWriter {
        var writer = DeflateWriter()
        writer.bits.write(1, bitCount: 1)
        writer.bits.write(1, bitCount: 2)
        writer.body(tokens, literalLength: .fixedLiteralLength, distance: .fixedDistance, endOfBlock: false)
        return writer
    }
}
