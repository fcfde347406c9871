import Testing

@testable import Checksums
@testable import Inflate
@testable import PNG

/// Every class of broken file gives its own error case (Spec/png.md §9).
@Suite struct CorruptionTests {
    typealias F = PNGFile
    let decoder = PNGDecoder()
    /// A valid 2×2 gray8 image's zlib stream.
    let zlib = storedZlib([0, 1, 2, 0, 3, 4])
    var idat: [UInt8] { F.chunk("IDAT", zlib) }
    var ihdr: [UInt8] { F.header(width: 2, height: 2, depth: 8, colorType: 0) }

    func expectError(_ error: PNGError, _ file: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try decoder.decode(file) }
    }

    @Test func validBaselineDecodes() throws {
        #expect(try decoder.decode(F.file(ihdr, idat, F.end)).pixels == [1, 2, 3, 4])
    }

    @Test func signature() {
        var file = F.file(ihdr, idat, F.end)
        file[1] = 0x51
        expectError(.invalidSignature, file)
        expectError(.invalidSignature, [0x89, 0x50, 0x4E, 0x48])
        expectError(.invalidSignature, Array("GIF89a".utf8))
        expectError(.truncatedData(offset: 5), Array(F.signature.prefix(5)))
        expectError(.truncatedData(offset: 0), [])
    }

    @Test func truncation() {
        let file = F.file(ihdr, idat, F.end)
        expectError(.truncatedData(offset: 12), Array(file.prefix(12)))  // inside a chunk header
        expectError(.truncatedData(offset: 30), Array(file.prefix(30)))  // inside IHDR's data
        expectError(.missingEnd, Array(file.prefix(file.count - 12)))  // cut between chunks
        expectError(.missingHeader(found: "the end of the file"), F.signature)
    }

    @Test func chunkFraming() {
        var tooLong = F.file(ihdr, idat, F.end)
        tooLong[33..<37] = [0x80, 0, 0, 0]
        expectError(.invalidChunkLength(chunk: "IDAT", length: 0x8000_0000), tooLong)
        var badType = F.file(ihdr, idat, F.end)
        badType[39] = 0x31
        expectError(.invalidChunkType(offset: 37), badType)
        let shortHeader = F.chunk("IHDR", Array(F.header(width: 2, height: 2, depth: 8, colorType: 0)[8..<20]))
        expectError(.invalidChunkLength(chunk: "IHDR", length: 12), F.file(shortHeader, idat, F.end))
        expectError(.invalidChunkLength(chunk: "IEND", length: 1), F.file(ihdr, idat, F.chunk("IEND", [0])))
    }

    @Test func checksums() {
        var file = F.file(ihdr, idat, F.end)
        let crcOffset = 33 + 8 + zlib.count
        let computed = CRC32.checksum(of: Array(file[37..<crcOffset]))
        file[crcOffset] ^= 0x01
        let declared = UInt32(file[crcOffset]) << 24 | UInt32(file[crcOffset + 1]) << 16
            | UInt32(file[crcOffset + 2]) << 8 | UInt32(file[crcOffset + 3])
        expectError(.chunkChecksumMismatch(chunk: "IDAT", declared: declared, computed: computed), file)
        // Ancillary chunks are checked too.
        var text = F.chunk("tEXt", Array("k\0v".utf8))
        text[text.count - 1] ^= 0xFF
        let textCRC = CRC32.checksum(of: Array(text[4..<(text.count - 4)]))
        expectError(
            .chunkChecksumMismatch(chunk: "tEXt", declared: textCRC ^ 0xFF, computed: textCRC), F.file(ihdr, text, idat, F.end))
    }

    @Test func unknownChunks() throws {
        expectError(.unknownCriticalChunk("ABCD"), F.file(ihdr, F.chunk("ABCD", [1]), idat, F.end))
        #expect(try decoder.decode(F.file(ihdr, F.chunk("aBCD", [1]), idat, F.end)).pixels == [1, 2, 3, 4])
    }

    @Test func headerFields() {
        let cases: [([UInt8], PNGError)] = [
            (F.header(width: 0, height: 2, depth: 8, colorType: 0), .invalidHeader(field: "width", value: 0)),
            (F.header(width: 2, height: 0, depth: 8, colorType: 0), .invalidHeader(field: "height", value: 0)),
            (F.header(width: 1 << 31, height: 2, depth: 8, colorType: 0), .invalidHeader(field: "width", value: 1 << 31)),
            (F.header(width: 2, height: 2, depth: 8, colorType: 1), .invalidHeader(field: "colorType", value: 1)),
            (F.header(width: 2, height: 2, depth: 8, colorType: 7), .invalidHeader(field: "colorType", value: 7)),
            (F.header(width: 2, height: 2, depth: 3, colorType: 0), .invalidHeader(field: "bitDepth", value: 3)),
            (F.header(width: 2, height: 2, depth: 4, colorType: 2), .invalidHeader(field: "bitDepth", value: 4)),
            (F.header(width: 2, height: 2, depth: 16, colorType: 3), .invalidHeader(field: "bitDepth", value: 16)),
            (F.header(width: 2, height: 2, depth: 8, colorType: 0, compression: 1), .invalidHeader(field: "compressionMethod", value: 1)),
            (F.header(width: 2, height: 2, depth: 8, colorType: 0, filter: 1), .invalidHeader(field: "filterMethod", value: 1)),
            (F.header(width: 2, height: 2, depth: 8, colorType: 0, interlace: 2), .invalidHeader(field: "interlaceMethod", value: 2)),
        ]
        for (header, error) in cases { expectError(error, F.file(header, idat, F.end)) }
    }

    @Test func chunkOrdering() {
        let plte = F.chunk("PLTE", [1, 2, 3, 4, 5, 6])
        let rgb = F.header(width: 1, height: 1, depth: 8, colorType: 2)
        let rgbData = F.chunk("IDAT", storedZlib([0, 9, 9, 9]))
        expectError(.missingHeader(found: "IDAT"), F.file(idat, ihdr, F.end))
        expectError(.duplicateChunk("IHDR"), F.file(ihdr, ihdr, idat, F.end))
        expectError(.duplicateChunk("PLTE"), F.file(rgb, plte, plte, rgbData, F.end))
        expectError(.misplacedChunk("PLTE"), F.file(rgb, rgbData, plte, F.end))
        expectError(.misplacedChunk("IDAT"), F.file(ihdr, idat, F.chunk("tEXt", [0x41]), idat, F.end))
        expectError(.misplacedChunk("tRNS"), F.file(ihdr, idat, F.chunk("tRNS", [0, 1]), F.end))
        expectError(.duplicateChunk("tRNS"), F.file(ihdr, F.chunk("tRNS", [0, 1]), F.chunk("tRNS", [0, 1]), idat, F.end))
        // tRNS must follow PLTE.
        expectError(.misplacedChunk("PLTE"), F.file(rgb, F.chunk("tRNS", [0, 1, 0, 1, 0, 1]), plte, rgbData, F.end))
        let indexed = F.header(width: 1, height: 1, depth: 8, colorType: 3)
        let indexData = F.chunk("IDAT", storedZlib([0, 0]))
        expectError(.misplacedChunk("tRNS"), F.file(indexed, F.chunk("tRNS", [0]), plte, indexData, F.end))
        expectError(.missingPalette, F.file(indexed, indexData, F.end))
        expectError(.missingImageData, F.file(ihdr, F.end))
        expectError(.missingImageData, F.file(ihdr, F.chunk("tEXt", [0x41]), F.end))
    }

    @Test func palettes() {
        let indexed1 = F.header(width: 1, height: 1, depth: 1, colorType: 3)
        let data = F.chunk("IDAT", storedZlib([0, 0]))
        expectError(.invalidPalette(length: 4), F.file(indexed1, F.chunk("PLTE", [1, 2, 3, 4]), data, F.end))
        expectError(.invalidPalette(length: 0), F.file(indexed1, F.chunk("PLTE", []), data, F.end))
        // Depth 1 indexes two entries at most.
        expectError(.invalidPalette(length: 9), F.file(indexed1, F.chunk("PLTE", [UInt8](repeating: 7, count: 9)), data, F.end))
        expectError(
            .invalidPalette(length: 771),
            F.file(F.header(width: 1, height: 1, depth: 8, colorType: 2), F.chunk("PLTE", [UInt8](repeating: 1, count: 771)), data, F.end))
        expectError(.paletteNotAllowed(colorType: 0), F.file(ihdr, F.chunk("PLTE", [1, 2, 3]), idat, F.end))
        expectError(
            .paletteNotAllowed(colorType: 4),
            F.file(F.header(width: 1, height: 1, depth: 8, colorType: 4), F.chunk("PLTE", [1, 2, 3]), data, F.end))
    }

    @Test func transparency() {
        expectError(.invalidTransparency(length: 3), F.file(ihdr, F.chunk("tRNS", [0, 1, 2]), idat, F.end))
        let rgb = F.header(width: 1, height: 1, depth: 8, colorType: 2)
        expectError(.invalidTransparency(length: 2), F.file(rgb, F.chunk("tRNS", [0, 1]), idat, F.end))
        let indexed = F.header(width: 1, height: 1, depth: 8, colorType: 3)
        expectError(
            .invalidTransparency(length: 3),
            F.file(indexed, F.chunk("PLTE", [1, 2, 3, 4, 5, 6]), F.chunk("tRNS", [1, 2, 3]), idat, F.end))
        expectError(
            .transparencyNotAllowed(colorType: 6),
            F.file(F.header(width: 1, height: 1, depth: 8, colorType: 6), F.chunk("tRNS", [0, 1, 0, 1, 0, 1]), idat, F.end))
        expectError(
            .transparencyNotAllowed(colorType: 4),
            F.file(F.header(width: 1, height: 1, depth: 16, colorType: 4), F.chunk("tRNS", [0, 1]), idat, F.end))
    }

    @Test func imageData() {
        var badAdler = zlib
        badAdler[badAdler.count - 1] ^= 0x10
        let good = Adler32.checksum(of: [0, 1, 2, 0, 3, 4] as [UInt8])
        expectError(.compression(.adlerMismatch(declared: good ^ 0x10, computed: good)), F.file(ihdr, F.chunk("IDAT", badAdler), F.end))
        var badHeader = zlib
        badHeader[0] = 0x79
        expectError(.compression(.invalidZlibHeader(cmf: 0x79, flg: 0x01)), F.file(ihdr, F.chunk("IDAT", badHeader), F.end))
        expectError(.compression(.truncatedInput), F.file(ihdr, F.chunk("IDAT", []), F.end))
        expectError(.compression(.truncatedInput), F.file(ihdr, F.chunk("IDAT", Array(zlib.prefix(9))), F.end))
        expectError(.imageDataTooShort(expected: 6, actual: 5), F.file(ihdr, F.chunk("IDAT", storedZlib([0, 1, 2, 0, 3])), F.end))
        expectError(.imageDataTooLong(expected: 6), F.file(ihdr, F.chunk("IDAT", storedZlib([0, 1, 2, 0, 3, 4, 5])), F.end))
        expectError(.invalidFilterType(row: 1, filter: 5), F.file(ihdr, F.chunk("IDAT", storedZlib([0, 1, 2, 5, 3, 4])), F.end))
        let interlaced = F.header(width: 2, height: 2, depth: 8, colorType: 0, interlace: 1)
        // Passes 1 (1×1), 6 (1×1), 7 (2×1): the third filtered row has filter 9.
        expectError(
            .invalidFilterType(row: 2, filter: 9), F.file(interlaced, F.chunk("IDAT", storedZlib([0, 1, 0, 2, 9, 3, 4])), F.end))
    }

    /// A 1 KB file that declares 100,000 × 100,000 pixels fails at IHDR, before any allocation.
    @Test func limitsAreCheckedBeforeAllocating() {
        let huge = F.file(
            F.header(width: 100_000, height: 100_000, depth: 8, colorType: 6), F.chunk("IDAT", [UInt8](repeating: 0, count: 1_000)), F.end)
        #expect(huge.count < 1_100)
        expectError(.limitExceeded(limit: "maximumPixelCount", requested: 10_000_000_000, maximum: 1 << 28), huge)
        let small = PNGDecoder(limits: PNGLimits(maximumPixelCount: 3, maximumDecompressedBytes: 100))
        #expect(throws: PNGError.limitExceeded(limit: "maximumPixelCount", requested: 4, maximum: 3)) {
            try small.decode(F.file(ihdr, idat, F.end))
        }
        let tight = PNGDecoder(limits: PNGLimits(maximumPixelCount: 100, maximumDecompressedBytes: 5))
        #expect(throws: PNGError.limitExceeded(limit: "maximumDecompressedBytes", requested: 6, maximum: 5)) {
            try tight.decode(F.file(ihdr, idat, F.end))
        }
        // With the pixel limit lifted, a size that overflows Int still fails cleanly.
        let widest = F.file(F.header(width: Int(Int32.max), height: Int(Int32.max), depth: 16, colorType: 6), idat, F.end)
        #expect(throws: PNGError.limitExceeded(limit: "maximumDecompressedBytes", requested: .max, maximum: .max - 1)) {
            try PNGDecoder(limits: PNGLimits(maximumPixelCount: .max, maximumDecompressedBytes: .max - 1)).decode(widest)
        }
    }

    @Test func errorNamesAndDescriptionsAreOneLine() {
        let errors: [PNGError] = [
            .invalidSignature, .truncatedData(offset: 3), .chunkChecksumMismatch(chunk: "IDAT", declared: 1, computed: 0xABCDEF),
            .compression(.truncatedInput), .limitExceeded(limit: "maximumPixelCount", requested: 2, maximum: 1),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.description.contains(error.name))
        }
        #expect(PNGError.chunkChecksumMismatch(chunk: "IDAT", declared: 1, computed: 0xABCDEF).description.contains("0x00ABCDEF"))
    }
}
