import Checksums
import Testing

@testable import PNG

@Suite struct RoundTripTests {
    static let sizes: [(Int, Int)] = [
        (1, 1), (1, 7), (7, 1), (3, 5), (17, 9), (33, 2),
        (16_385, 2),  // a row of 65,540 bytes in rgba8: longer than one stored block
        (300, 120),  // more than 65,535 bytes of data in every format
    ]

    @Test(arguments: PixelFormat.allCases)
    func decodeOfEncodeIsIdentity(format: PixelFormat) throws {
        for (index, (width, height)) in Self.sizes.enumerated() {
            let pixels = randomBytes(width * height * format.bytesPerPixel, seed: UInt64(index))
            let bitmap = try Bitmap(width: width, height: height, format: format, pixels: pixels)
            let file = try PNGEncoder.encode(bitmap)
            #expect(try PNGDecoder().decodeBitmap(file) == bitmap, "\(format) \(width)×\(height)")
        }
    }

    /// More than 1 MiB of zlib data: several IDAT chunks, split in the middle of a stored block.
    @Test func imageSpanningSeveralImageDataChunks() throws {
        let bitmap = try Bitmap(
            width: 700, height: 400, format: .rgba8, pixels: randomBytes(700 * 400 * 4, seed: 9))
        let file = try PNGEncoder.encode(bitmap)
        let decoded = try PNGDecoder().decode(file)
        #expect(decoded.chunks.map(\.type) == ["IHDR", "IDAT", "IDAT", "IEND"])
        #expect(decoded.bitmap() == bitmap)
    }

    @Test func decodedHeaderDescribesTheEncodedBitmap() throws {
        let bitmap = try Bitmap(width: 5, height: 3, format: .grayAlpha16, pixels: randomBytes(60, seed: 3))
        let decoded = try PNGDecoder().decode(try PNGEncoder.encode(bitmap))
        #expect(
            decoded.header
                == PNGHeader(width: 5, height: 3, bitDepth: 16, colorType: .grayscaleAlpha, interlaced: false)
        )
        #expect(decoded.palette == nil)
        #expect(decoded.transparency == nil)
        #expect(decoded.pixels == bitmap.pixels)
    }
}

/// Every legal colour type and bit depth, each filter type, with and without Adam7.
@Suite struct DecoderCoverageTests {
    static let combinations: [(UInt8, Int)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16), (6, 8), (6, 16),
    ]

    static func palette(depth: Int) -> [UInt8] {
        PNGFile.chunk("PLTE", (0..<(3 << depth)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    }

    @Test(arguments: 0..<combinations.count)
    func everyFilterOnEveryFormat(combination: Int) throws {
        let (colorType, depth) = Self.combinations[combination]
        let extra = colorType == 3 ? [Self.palette(depth: depth)] : []
        for (width, height) in [(1, 1), (3, 3), (9, 10), (37, 13)] {
            let image = TestImage(
                width: width, height: height, colorType: colorType, depth: depth, seed: UInt64(width))
            for interlaced in [false, true] {
                for filter in 0..<6 {
                    // 0–4: one filter everywhere; 5: a different filter on each row.
                    let file = image.file(interlaced: interlaced, extra: extra) {
                        filter == 5 ? UInt8($0 % 5) : UInt8(filter)
                    }
                    let decoded = try PNGDecoder().decode(file)
                    #expect(
                        decoded.pixels == image.packed,
                        "type \(colorType) depth \(depth) \(width)×\(height) interlaced \(interlaced) filter \(filter)"
                    )
                }
            }
        }
    }

    /// IDAT may be split at any byte and may be empty (Spec/png.md §6.1).
    @Test func imageDataSplitAtEveryByteWithEmptyChunks() throws {
        let image = TestImage(width: 11, height: 7, colorType: 6, depth: 8, seed: 5)
        let zlib = storedZlib(image.filtered(interlaced: false) { _ in 4 }, blockLength: 100)
        for piece in [1, 2, 3, 7, 64, zlib.count] {
            var file = PNGFile.signature + PNGFile.header(width: 11, height: 7, depth: 8, colorType: 6)
            file += PNGFile.chunk("IDAT", [])
            for start in stride(from: 0, to: zlib.count, by: piece) {
                file += PNGFile.chunk("IDAT", Array(zlib[start..<min(start + piece, zlib.count)]))
                file += PNGFile.chunk("IDAT", [])
            }
            file += PNGFile.end
            #expect(try PNGDecoder().decode(file).pixels == image.packed, "pieces of \(piece)")
        }
    }

    @Test func unknownAncillaryChunksAreSkipped() throws {
        let image = TestImage(width: 4, height: 4, colorType: 2, depth: 8, seed: 1)
        let file = image.file(extra: [
            PNGFile.chunk("teXt", Array("a\0b".utf8)), PNGFile.chunk("zzZz", [1, 2, 3]),
        ])
        let decoded = try PNGDecoder().decode(file)
        #expect(decoded.pixels == image.packed)
        #expect(decoded.chunks.map(\.type) == ["IHDR", "teXt", "zzZz", "IDAT", "IEND"])
    }

    /// Bytes after IEND are ignored (Spec/png.md §5.4).
    @Test func dataAfterTheEndIsIgnored() throws {
        let image = TestImage(width: 2, height: 2, colorType: 0, depth: 8, seed: 2)
        let file = image.file() + [0xDE, 0xAD, 0xBE, 0xEF] + PNGFile.chunk("XXXX", [])
        #expect(try PNGDecoder().decode(file).pixels == image.packed)
    }

    /// A PLTE in a truecolour image is a quantization hint: kept, not applied.
    @Test func paletteInATruecolourImageIsKept() throws {
        let image = TestImage(width: 3, height: 2, colorType: 2, depth: 8, seed: 8)
        let decoded = try PNGDecoder().decode(image.file(extra: [PNGFile.chunk("PLTE", [1, 2, 3, 4, 5, 6])]))
        #expect(
            decoded.palette == [
                PNGPaletteEntry(red: 1, green: 2, blue: 3), PNGPaletteEntry(red: 4, green: 5, blue: 6),
            ])
        #expect(decoded.bitmap().format == .rgb8)
        #expect(decoded.bitmap().pixels == image.packed)
    }

    /// Compressed streams made by Python's zlib (level 9), and a stored block followed by a
    /// compressed one: these leave the stored fast path for the general inflate.
    @Test func compressedAndMixedStreams() throws {
        let expected: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 18, 27, 36, 250, 251, 252, 253]
        let compressed: [UInt8] = [
            0x78, 0xDA, 0x63, 0x60, 0x64, 0x62, 0x66, 0x61, 0x60, 0x65, 0x63, 0xE7, 0x60, 0xE4, 0x04, 0x02,
            0x86,
            0x5F, 0xBF, 0xFF, 0xFC, 0x05, 0x00, 0x0C, 0xE4, 0x04, 0x38,
        ]
        let mixed: [UInt8] = [
            0x78, 0x01, 0x00, 0x05, 0x00, 0xFA, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x63, 0x60, 0x65, 0x63,
            0xE7,
            0x60, 0xE4, 0x04, 0x02, 0x86, 0x5F, 0xBF, 0xFF, 0xFC, 0x05, 0x00, 0x0C, 0xE4, 0x04, 0x38,
        ]
        let header = PNGFile.header(width: 4, height: 4, depth: 8, colorType: 0)
        for stream in [compressed, mixed] {
            #expect(
                try PNGDecoder().decode(PNGFile.file(header, PNGFile.chunk("IDAT", stream), PNGFile.end))
                    .pixels == expected)
            // Split across IDATs too (the joined path).
            let split = PNGFile.file(
                header, PNGFile.chunk("IDAT", Array(stream[..<9])),
                PNGFile.chunk("IDAT", Array(stream[9...])), PNGFile.end)
            #expect(try PNGDecoder().decode(split).pixels == expected)
        }
    }

    /// Bytes after the Adler-32 are ignored (Spec/deflate.md §2.5), on the stored fast path too.
    @Test func bytesAfterTheZlibStreamAreIgnored() throws {
        let image = TestImage(width: 3, height: 3, colorType: 2, depth: 8, seed: 4)
        let stream = storedZlib(image.filtered(interlaced: false) { _ in 0 }) + [1, 2, 3]
        let file = PNGFile.file(
            PNGFile.header(width: 3, height: 3, depth: 8, colorType: 2), PNGFile.chunk("IDAT", stream),
            PNGFile.end)
        #expect(try PNGDecoder().decode(file).pixels == image.packed)
    }

    /// The committed level-6 sample (Tests/Fixtures/PNG/photo-768.png, Paeth rows, dynamic
    /// Huffman) decodes to the pixels Pillow gives: SHA-256 of its RGBA bytes, computed once with
    /// `hashlib.sha256(Image.open(path).convert("RGBA").tobytes())`.
    @Test func compressedPhotoSampleMatchesPillow() throws {
        let bytes = try PngSuite.fixtureBytes("photo-768.png")
        let bitmap = try PNGDecoder().decodeBitmap(bytes)
        #expect(bitmap.format == .rgba8 && bitmap.width == 768 && bitmap.height == 768)
        #expect(
            SHA256.hexDigest(bitmap.pixels)
                == "541d5a47be5e80e494d0a97842dace8e0561864cd7493629ebb61ca2f2abc694")
    }
}
