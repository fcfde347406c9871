import Checksums
import Inflate
import Testing

/// Every `InflateError` case, each raised by a stream built to break exactly one rule
/// (`Spec/deflate.md` §7). The reference decoder must raise the same case.
@Suite struct InflateErrorTests {
    func expectZlib(_ stream: [UInt8], throws error: InflateError, limit: Int = .max) {
        #expect(throws: error) { try Decompressor.zlibDecompress(stream, limit: limit) }
        #expect(throws: error) {
            try Decompressor.zlibDecompress(stream, expectedSize: 64, limit: limit)
        }
        #expect(ReferenceInflater.zlib(stream, limit: limit) == .failure(error))
    }

    /// Checks raw DEFLATE data and, unless it is cut short on purpose (a zlib trailer would
    /// then supply the missing bits), the same data in a zlib wrapper.
    func expectRaw(
        _ data: [UInt8], throws error: InflateError, limit: Int = .max, wrap: Bool = true
    ) {
        #expect(throws: error) { try Decompressor.rawInflate(data, limit: limit) }
        #expect(throws: error) { try Decompressor.rawInflate(data, expectedSize: 1, limit: limit) }
        #expect(ReferenceInflater.raw(data, limit: limit) == .failure(error))
        if wrap { expectZlib([0x78, 0x01] + data + [0, 0, 0, 1], throws: error, limit: limit) }
    }

    /// A fixed block header (BFINAL, BTYPE 01) ready for symbols.
    func fixedHeader(final: Bool = true) -> DeflateWriter {
        var writer = DeflateWriter()
        writer.bits.write(final ? 1 : 0, bitCount: 1)
        writer.bits.write(1, bitCount: 2)
        return writer
    }

    // MARK: - zlib wrapper

    @Test func truncatedHeader() {
        expectZlib([], throws: .truncatedInput)
        expectZlib([0x78], throws: .truncatedInput)
        expectZlib([0x78, 0x9C], throws: .truncatedInput)
        expectRaw([], throws: .truncatedInput, wrap: false)
    }

    @Test func invalidZlibHeader() {
        // Method 7 instead of 8 (check bits still valid).
        expectZlib([0x77, 0x85, 0x03, 0x00], throws: .invalidZlibHeader(cmf: 0x77, flg: 0x85))
        // A 64 KiB window (CINFO 8).
        expectZlib([0x88, 0x98, 0x03, 0x00], throws: .invalidZlibHeader(cmf: 0x88, flg: 0x98))
        // Check bits wrong.
        expectZlib([0x78, 0x9D, 0x03, 0x00], throws: .invalidZlibHeader(cmf: 0x78, flg: 0x9D))
        #expect((0x77 * 256 + 0x85) % 31 == 0 && (0x88 * 256 + 0x98) % 31 == 0)
    }

    @Test func presetDictionary() {
        #expect((0x78 * 256 + 0xBB) % 31 == 0)
        expectZlib(
            [0x78, 0xBB, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00], throws: .presetDictionaryUnsupported)
    }

    @Test func adlerMismatch() throws {
        let data = Array("adler".utf8)
        var writer = DeflateWriter()
        writer.stored(data, final: true)
        var stream = writer.zlib(checksumOf: data)
        let computed = Adler32.checksum(of: data)
        stream[stream.count - 1] ^= 0x10
        expectZlib(stream, throws: .adlerMismatch(declared: computed ^ 0x10, computed: computed))
    }

    @Test func truncatedTrailer() {
        var writer = DeflateWriter()
        writer.stored([1, 2, 3], final: true)
        let stream = writer.zlib(checksumOf: [1, 2, 3])
        for cut in 1...4 {
            expectZlib(Array(stream.dropLast(cut)), throws: .truncatedInput)
        }
    }

    // MARK: - Block structure

    @Test func invalidBlockType() {
        expectRaw([0x07], throws: .invalidBlockType)
        expectRaw([0x06], throws: .invalidBlockType)
        // After a valid non-final block.
        var writer = DeflateWriter()
        writer.stored([9], final: false)
        writer.bits.write(0b111, bitCount: 3)
        expectRaw(writer.deflate, throws: .invalidBlockType)
    }

    @Test func storedLengthMismatch() {
        var writer = DeflateWriter()
        writer.stored([1, 2, 3], final: true, nlen: 0xFFFD)
        expectRaw(writer.deflate, throws: .storedLengthMismatch(length: 3, complement: 0xFFFD))
    }

    @Test func truncatedBlocks() {
        var stored = DeflateWriter()
        stored.stored([UInt8](repeating: 7, count: 100), final: true)
        expectRaw(Array(stored.deflate.dropLast(1)), throws: .truncatedInput, wrap: false)
        expectRaw(Array(stored.deflate.prefix(3)), throws: .truncatedInput, wrap: false)
        // A non-final block followed by nothing.
        var writer = DeflateWriter()
        writer.stored([1], final: false)
        expectRaw(writer.deflate, throws: .truncatedInput, wrap: false)
        // A fixed block cut inside its symbols.
        var fixed = DeflateWriter()
        fixed.fixed(Array(repeating: .literal(0xAB), count: 40), final: true)
        expectRaw(Array(fixed.deflate.prefix(20)), throws: .truncatedInput, wrap: false)
    }

    @Test func missingEndOfBlockMeansTruncation() {
        // Literals then nothing: the padding bits run out before an end-of-block code.
        var writer = fixedHeader()
        writer.symbol(0x41, in: .fixedLiteralLength)
        expectRaw(writer.deflate, throws: .truncatedInput, wrap: false)
    }

    // MARK: - Dynamic headers

    @Test func tooManyCodes() {
        var literals = DeflateWriter()
        literals.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 8, count: 256) + [8],
            distanceLengths: [1], declaredLiteralCount: 287)
        expectRaw(literals.deflate, throws: .tooManyCodes(literalLength: 287, distance: 1))
        var distances = DeflateWriter()
        distances.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 8, count: 257),
            distanceLengths: [5], declaredDistanceCount: 31)
        expectRaw(distances.deflate, throws: .tooManyCodes(literalLength: 257, distance: 31))
        var both = DeflateWriter()
        both.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 8, count: 257),
            distanceLengths: [5], declaredLiteralCount: 288, declaredDistanceCount: 32)
        expectRaw(both.deflate, throws: .tooManyCodes(literalLength: 288, distance: 32))
    }

    @Test func repeatWithoutPreviousLength() {
        var writer = DeflateWriter()
        writer.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [.init(symbol: 16, extra: 0), .init(symbol: 18, extra: 127)])
        expectRaw(writer.deflate, throws: .repeatWithoutPreviousLength)
    }

    @Test func codeLengthsOverflow() {
        // 257 + 1 lengths: 138 + 119 zeros leave one, then a repeat of 3 zeros overflows.
        var writer = DeflateWriter()
        writer.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [
                .init(symbol: 18, extra: 127), .init(symbol: 18, extra: 108),
                .init(symbol: 17, extra: 0),
            ])
        expectRaw(writer.deflate, throws: .codeLengthsOverflow(count: 3, remaining: 1))
        // A repeat of the previous length past the end.
        var previous = DeflateWriter()
        previous.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [
                .init(symbol: 18, extra: 127), .init(symbol: 18, extra: 107),
                .init(symbol: 1), .init(symbol: 16, extra: 3),
            ])
        expectRaw(previous.deflate, throws: .codeLengthsOverflow(count: 6, remaining: 1))
    }

    @Test func missingEndOfBlock() {
        var lengths = [Int](repeating: 0, count: 257)
        lengths[0] = 1
        lengths[1] = 1
        var writer = DeflateWriter()
        writer.dynamicHeader(final: true, literalLengths: lengths, distanceLengths: [1])
        expectRaw(writer.deflate, throws: .missingEndOfBlock)
    }

    @Test func oversubscribedCodes() {
        // Code-length code: three one-bit codes.
        var codeLength = DeflateWriter()
        var cl = [Int](repeating: 0, count: 19)
        cl[0] = 1
        cl[1] = 1
        cl[18] = 1
        codeLength.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [], codeLengthLengths: cl)
        expectRaw(codeLength.deflate, throws: .oversubscribedCode(table: .codeLength))

        var literal = [Int](repeating: 0, count: 257)
        literal[0] = 1
        literal[1] = 1
        literal[256] = 1
        var literalWriter = DeflateWriter()
        literalWriter.dynamicHeader(final: true, literalLengths: literal, distanceLengths: [1])
        expectRaw(literalWriter.deflate, throws: .oversubscribedCode(table: .literalLength))

        var distanceWriter = DeflateWriter()
        distanceWriter.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 256) + [1],
            distanceLengths: [1, 1, 1])
        expectRaw(distanceWriter.deflate, throws: .oversubscribedCode(table: .distance))
    }

    @Test func incompleteCodes() {
        // Code-length code: a single one-bit code is not allowed here.
        var cl = [Int](repeating: 0, count: 19)
        cl[0] = 1
        var codeLength = DeflateWriter()
        codeLength.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [], codeLengthLengths: cl)
        expectRaw(codeLength.deflate, throws: .incompleteCode(table: .codeLength))
        // No code-length codes at all.
        var empty = DeflateWriter()
        empty.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 257), distanceLengths: [0],
            items: [], codeLengthLengths: [Int](repeating: 0, count: 19))
        expectRaw(empty.deflate, throws: .incompleteCode(table: .codeLength))

        // Literal/length: lengths 1 and 2 leave a quarter of the code space.
        var literal = [Int](repeating: 0, count: 257)
        literal[0x41] = 1
        literal[256] = 2
        var literalWriter = DeflateWriter()
        literalWriter.dynamicHeader(final: true, literalLengths: literal, distanceLengths: [1])
        expectRaw(literalWriter.deflate, throws: .incompleteCode(table: .literalLength))
        // A single literal/length code longer than one bit.
        var single = [Int](repeating: 0, count: 257)
        single[256] = 2
        var singleWriter = DeflateWriter()
        singleWriter.dynamicHeader(final: true, literalLengths: single, distanceLengths: [1])
        expectRaw(singleWriter.deflate, throws: .incompleteCode(table: .literalLength))

        // Distance: one code of two bits.
        var distanceWriter = DeflateWriter()
        distanceWriter.dynamicHeader(
            final: true, literalLengths: [Int](repeating: 0, count: 256) + [1],
            distanceLengths: [0, 2])
        expectRaw(distanceWriter.deflate, throws: .incompleteCode(table: .distance))
    }

    @Test func unassignedCodes() {
        // Literal/length code with only end of block (code 0): the bit 1 is unassigned.
        var literal = [Int](repeating: 0, count: 257)
        literal[256] = 1
        var literalWriter = DeflateWriter()
        literalWriter.dynamicHeader(final: true, literalLengths: literal, distanceLengths: [0])
        literalWriter.bits.write(1, bitCount: 1)
        expectRaw(literalWriter.deflate, throws: .unassignedCode(table: .literalLength))

        // One distance code (symbol 0 = code 0): the bit 1 is unassigned.
        var lengths = [Int](repeating: 0, count: 258)
        lengths[0x41] = 1
        lengths[256] = 2
        lengths[257] = 2
        let code = CanonicalCode(lengths: lengths)
        var distanceWriter = DeflateWriter()
        distanceWriter.dynamicHeader(final: true, literalLengths: lengths, distanceLengths: [1])
        distanceWriter.symbol(0x41, in: code)
        distanceWriter.symbol(257, in: code)
        distanceWriter.bits.write(1, bitCount: 1)
        expectRaw(distanceWriter.deflate, throws: .unassignedCode(table: .distance))

        // No distance codes at all, yet a length symbol.
        var noDistances = DeflateWriter()
        noDistances.dynamicHeader(final: true, literalLengths: lengths, distanceLengths: [0])
        noDistances.symbol(0x41, in: code)
        noDistances.symbol(257, in: code)
        noDistances.bits.write(0, bitCount: 1)
        expectRaw(noDistances.deflate, throws: .unassignedCode(table: .distance))
    }

    @Test func invalidSymbols() {
        for symbol in [286, 287] {
            var writer = fixedHeader()
            writer.symbol(0x41, in: .fixedLiteralLength)
            writer.symbol(symbol, in: .fixedLiteralLength)
            writer.bits.write(0, bitCount: 16)
            expectRaw(writer.deflate, throws: .invalidSymbol(table: .literalLength, symbol: symbol))
        }
        for symbol in [30, 31] {
            var writer = fixedHeader()
            writer.symbol(0x41, in: .fixedLiteralLength)
            writer.symbol(257, in: .fixedLiteralLength)
            writer.symbol(symbol, in: .fixedDistance)
            writer.bits.write(0, bitCount: 16)
            expectRaw(writer.deflate, throws: .invalidSymbol(table: .distance, symbol: symbol))
        }
    }

    @Test func distanceTooFar() {
        var atStart = DeflateWriter()
        atStart.fixed([.match(length: 3, distance: 1)], final: true)
        expectRaw(atStart.deflate, throws: .distanceTooFar(distance: 1, available: 0))

        var writer = DeflateWriter()
        writer.fixed([.literal(1), .literal(2), .literal(3), .literal(4)], final: false)
        writer.fixed([.match(length: 10, distance: 5)], final: true)
        expectRaw(writer.deflate, throws: .distanceTooFar(distance: 5, available: 4))

        // Beyond 32 KiB of output the distance is still checked against what exists.
        var far = DeflateWriter()
        far.stored([UInt8](repeating: 1, count: 100), final: false)
        far.fixed([.match(length: 3, distance: 32_768)], final: true)
        expectRaw(far.deflate, throws: .distanceTooFar(distance: 32_768, available: 100))
    }

    // MARK: - Limits

    @Test func outputLimit() throws {
        var writer = DeflateWriter()
        writer.fixed([.literal(1), .match(length: 100, distance: 1)], final: true)
        expectRaw(writer.deflate, throws: .outputLimitExceeded(limit: 0), limit: 0)
        expectRaw(writer.deflate, throws: .outputLimitExceeded(limit: 1), limit: 1)
        expectRaw(writer.deflate, throws: .outputLimitExceeded(limit: 100), limit: 100)
        expectRaw(writer.deflate, throws: .outputLimitExceeded(limit: 0), limit: -5)
        #expect(try Decompressor.rawInflate(writer.deflate, limit: 101).count == 101)

        var stored = DeflateWriter()
        stored.stored([UInt8](repeating: 3, count: 50), final: true)
        expectRaw(stored.deflate, throws: .outputLimitExceeded(limit: 49), limit: 49)
    }

    /// Reading a stored byte comes before writing it: with both the input and the limit
    /// exhausted at the same byte, the error is truncation.
    @Test func truncationBeatsTheLimitInStoredBlocks() {
        var stored = DeflateWriter()
        stored.stored([UInt8](repeating: 3, count: 50), final: true)
        let cut = Array(stored.deflate.dropLast(10))
        expectRaw(cut, throws: .truncatedInput, limit: 40, wrap: false)
        expectRaw(cut, throws: .outputLimitExceeded(limit: 39), limit: 39, wrap: false)
    }

    /// 10 MB of zeros in about 15 KB: with a 1 MB limit it fails after producing 1 MB.
    @Test func zipBombStopsAtTheLimit() throws {
        var writer = DeflateWriter()
        let tokens: [Token] =
            [.literal(0)] + Array(repeating: .match(length: 258, distance: 1), count: 40_000)
        writer.dynamic(tokens, final: true)
        let stream = writer.deflate
        #expect(stream.count < 16_000)
        #expect(throws: InflateError.outputLimitExceeded(limit: 1_000_000)) {
            try Decompressor.rawInflate(stream, limit: 1_000_000)
        }
        #expect(throws: InflateError.outputLimitExceeded(limit: 1_000_000)) {
            try Decompressor.rawInflate(stream, expectedSize: 10_320_001, limit: 1_000_000)
        }
        let zlib = writer.zlib(checksumOf: [])
        #expect(throws: InflateError.outputLimitExceeded(limit: 1_000_000)) {
            try Decompressor.zlibDecompress(zlib, expectedSize: nil, limit: 1_000_000)
        }
        #expect(try Decompressor.rawInflate(stream).count == 10_320_001)
    }

    // MARK: - Descriptions

    @Test func descriptionsAreSentences() {
        let errors: [InflateError] = [
            .truncatedInput, .invalidZlibHeader(cmf: 0x77, flg: 0x85),
            .presetDictionaryUnsupported, .invalidBlockType,
            .storedLengthMismatch(length: 3, complement: 4),
            .tooManyCodes(literalLength: 287, distance: 31), .repeatWithoutPreviousLength,
            .codeLengthsOverflow(count: 6, remaining: 2), .missingEndOfBlock,
            .oversubscribedCode(table: .distance), .incompleteCode(table: .codeLength),
            .unassignedCode(table: .literalLength),
            .invalidSymbol(table: .distance, symbol: 30),
            .distanceTooFar(distance: 5, available: 4), .outputLimitExceeded(limit: 1_000),
            .adlerMismatch(declared: 0xDEAD_BEEF, computed: 0x0000_0001),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(error.description.count > 40)
        }
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(InflateError.invalidZlibHeader(cmf: 0x77, flg: 0x85).description.contains("0x77"))
        #expect(
            InflateError.adlerMismatch(declared: 0xDEAD_BEEF, computed: 1).description.contains(
                "0xDEADBEEF"))
        #expect(InflateError.outputLimitExceeded(limit: 1_000).description.contains("1000"))
        #expect(InflateError.invalidSymbol(table: .distance, symbol: 30).description.contains("30"))
    }
}
