import Checksums
import Foundation
import Testing

@testable import Inflate
@testable import PNG

/// The PngSuite images (`Tests/Fixtures/PngSuite`). A missing image or oracle fails the test
/// that needs it.
@Suite struct PngSuiteTests {
    /// `name → (sha256, width, height)` from the committed oracle (Tests/Fixtures/PNG); empty
    /// when the oracle is missing, which `oracleListsAllValidFiles` reports.
    static let oracle: [String: (String, Int, Int)] = {
        guard let text = try? PngSuite.fixture("pngsuite-rgba8.sha256") else { return [:] }
        var entries: [String: (String, Int, Int)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let size = fields[2].split(separator: "x").map { Int($0)! }
            entries[String(fields[1])] = (String(fields[0]), size[0], size[1])
        }
        return entries
    }()

    /// The RGBA conversion as 8-bit samples: 16-bit samples keep their high byte, as in the oracle.
    static func rgba8(_ bitmap: Bitmap) -> [UInt8] {
        guard bitmap.format == .rgba16 else { return bitmap.pixels }
        return stride(from: 0, to: bitmap.pixels.count, by: 2).map { bitmap.pixels[$0] }
    }

    @Test func oracleListsAllValidFiles() throws {
        _ = try PngSuite.fixture("pngsuite-rgba8.sha256")
        #expect(Self.oracle.count == 161)
        // Every valid image of the folder is in the oracle, and every image it names is there.
        let files = try FileManager.default.contentsOfDirectory(atPath: PngSuite.directory.path)
        let valid = Set(files.filter { $0.hasSuffix(".png") && !$0.hasPrefix("x") })
        #expect(valid == Set(Self.oracle.keys))
        #expect(files.filter { $0.hasPrefix("x") }.count == 14)
    }

    @Test func everyValidFileMatchesTheOracle() throws {
        var checked = 0
        for (name, (digest, width, height)) in Self.oracle.sorted(by: { $0.key < $1.key }) {
            let bytes = try PngSuite.bytes(name)
            let rgba = try PNGDecoder().decode(bytes).rgba()
            #expect(rgba.width == width && rgba.height == height, "\(name)")
            #expect(SHA256.hexDigest(Self.rgba8(rgba)) == digest, "\(name)")
            checked += 1
        }
        #expect(checked == 161)
    }

    /// Each interlaced file (`?????i??`) decodes to exactly the samples of its non-interlaced
    /// twin, all 16 bits included.
    @Test func interlacedTwinsMatch() throws {
        var pairs = 0
        for name in Self.oracle.keys.sorted() where name.count == 12 && Array(name)[3] == "i" {
            var twin = Array(name)
            twin[3] = "n"
            // Two interlaced files (bgai4a08, bgai4a16) have no non-interlaced twin in the suite.
            guard Self.oracle[String(twin)] != nil else { continue }
            let progressive = try PngSuite.bytes(String(twin))
            let interlaced = try PngSuite.bytes(name)
            let a = try PNGDecoder().decode(interlaced)
            let b = try PNGDecoder().decode(progressive)
            #expect(a.pixels == b.pixels, "\(name)")
            #expect(a.rgba() == b.rgba(), "\(name)")
            #expect(a.header.interlaced && !b.header.interlaced)
            pairs += 1
        }
        #expect(pairs == 33)
    }

    @Test(arguments: [
        ("xc1n0g08.png", PNGError.invalidHeader(field: "colorType", value: 1)),
        ("xc9n2c08.png", .invalidHeader(field: "colorType", value: 9)),
        ("xcrn0g04.png", .invalidSignature),
        ("xcsn0g01.png", .chunkChecksumMismatch(chunk: "IDAT", declared: 0x4353_554D, computed: 0xD02F_14C9)),
        ("xd0n2c08.png", .invalidHeader(field: "bitDepth", value: 0)),
        ("xd3n2c08.png", .invalidHeader(field: "bitDepth", value: 3)),
        ("xd9n2c08.png", .invalidHeader(field: "bitDepth", value: 99)),
        ("xdtn0g01.png", .missingImageData),
        ("xhdn0g08.png", .chunkChecksumMismatch(chunk: "IHDR", declared: 0x4353_554D, computed: 0x5611_2528)),
        ("xlfn0g04.png", .invalidSignature),
        ("xs1n0g01.png", .invalidSignature),
        ("xs2n0g01.png", .invalidSignature),
        ("xs4n0g01.png", .invalidSignature),
        ("xs7n0g01.png", .invalidSignature),
    ])
    func corruptFileFailsWithItsError(name: String, error: PNGError) throws {
        let bytes = try PngSuite.bytes(name)
        #expect(throws: error) { try PNGDecoder().decode(bytes) }
    }

    /// Thousands of mutants of valid files (bit flips, truncations, changed length fields,
    /// byte runs): each one decodes or throws a PNGError; none may crash or hang.
    @Test func mutantsNeverCrash() throws {
        var seeds: [[UInt8]] = []
        for name in [
            "basn0g01.png", "basi3p02.png", "basn2c16.png", "basi6a08.png", "tbbn3p08.png", "f02n2c08.png",
            "z06n2c08.png",
        ] {
            seeds.append(try PngSuite.bytes(name))
        }
        // Copy-free seeds, so the test checks something without the suite: compressed is not
        // available here, so these use every filter, Adam7 and a palette with tRNS.
        seeds.append(TestImage(width: 13, height: 7, colorType: 6, depth: 16, seed: 1).file(interlaced: true))
        let palette = PNGFile.chunk("PLTE", (0..<48).map { UInt8($0 * 5) })
        let alpha = PNGFile.chunk("tRNS", [0, 128, 255])
        seeds.append(
            TestImage(width: 9, height: 9, colorType: 3, depth: 4, seed: 2).file(
                interlaced: true, extra: [palette, alpha]))
        seeds.append(
            try PNGEncoder.encode(
                Bitmap(width: 5, height: 4, format: .rgb8, pixels: randomBytes(60, seed: 3))))

        var generator = SplitMix64(seed: 0x504E_4721)
        var decoded = 0
        var failed = 0
        for round in 0..<6_000 {
            var bytes = seeds[round % seeds.count]
            switch generator.next() % 5 {
            case 0, 1:
                for _ in 0...(generator.next() % 4) {
                    let bit = Int(generator.next() % UInt64(bytes.count * 8))
                    bytes[bit / 8] ^= 1 << UInt8(bit % 8)
                }
            case 2:
                bytes.removeLast(Int(generator.next() % UInt64(bytes.count)))
            case 3:
                // Overwrite a length field (or what sits where one might be).
                let offset = 8 + Int(generator.next() % UInt64(max(1, bytes.count - 12)))
                let value = UInt32(truncatingIfNeeded: generator.next() >> UInt64(generator.next() % 32))
                for k in 0..<4 where offset + k < bytes.count {
                    bytes[offset + k] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * k))
                }
            default:
                let offset = Int(generator.next() % UInt64(bytes.count))
                let run = min(bytes.count - offset, Int(generator.next() % 16) + 1)
                let fill = UInt8(truncatingIfNeeded: generator.next())
                for k in offset..<offset + run { bytes[k] = fill }
            }
            do {
                let image = try PNGDecoder(
                    limits: PNGLimits(maximumPixelCount: 1 << 20, maximumDecompressedBytes: 1 << 23)
                )
                .decode(bytes)
                let rgba = image.rgba()
                #expect(rgba.pixels.count == rgba.width * rgba.height * rgba.format.bytesPerPixel)
                decoded += 1
            } catch {
                #expect(!error.name.isEmpty)
                failed += 1
            }
        }
        #expect(decoded + failed == 6_000)
        #expect(failed > 1_000)
    }
}

/// The RGBA conversion of Spec/png.md §8 on hand-made images.
@Suite struct RGBAConversionTests {
    func decode(_ image: TestImage, extra: [[UInt8]] = []) throws -> DecodedPNG {
        try PNGDecoder().decode(image.file(extra: extra))
    }

    @Test func subByteGrayScalesToTheFullRange() throws {
        for (depth, scale) in [(1, 255), (2, 85), (4, 17)] {
            let image = TestImage(width: 9, height: 3, colorType: 0, depth: depth, seed: 4)
            let rgba = try decode(image).rgba()
            #expect(rgba.format == .rgba8)
            let expected = image.samples.flatMap { v -> [UInt8] in
                let g = UInt8(v * scale)
                return [g, g, g, 255]
            }
            #expect(rgba.pixels == expected, "depth \(depth)")
        }
    }

    @Test func grayKeyMakesMatchingPixelsTransparent() throws {
        let image = TestImage(width: 8, height: 2, colorType: 0, depth: 2, seed: 6)
        let rgba = try decode(image, extra: [PNGFile.chunk("tRNS", [0, 2])]).rgba()
        #expect(
            rgba.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
                == image.samples.map { $0 == 2 ? 0 : 255 })
        // A key's bits above the bit depth are masked to 0 first (Spec/png.md §8.2, PNG Third
        // Edition #11tRNS): 4 at depth 2 is the key 0.
        let masked = try decode(image, extra: [PNGFile.chunk("tRNS", [0, 4])]).rgba()
        #expect(
            masked.pixels.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
                == image.samples.map { $0 == 0 ? 0 : 255 })
        // decodeBitmap gives the RGBA conversion when there is a tRNS chunk.
        let gray8 = TestImage(width: 2, height: 1, colorType: 0, depth: 8, seed: 0, maximumSample: 0)
        #expect(
            try PNGDecoder().decodeBitmap(gray8.file(extra: [PNGFile.chunk("tRNS", [0, 0])])).pixels == [
                0, 0, 0, 0, 0, 0, 0, 0,
            ])
    }

    @Test func sixteenBitGrayAndKeys() throws {
        var image = TestImage(width: 2, height: 1, colorType: 0, depth: 16, seed: 0)
        image.samples = [0x1234, 0xABCD]
        let rgba = try decode(image, extra: [PNGFile.chunk("tRNS", [0xAB, 0xCD])]).rgba()
        #expect(rgba.format == .rgba16)
        #expect(
            rgba.pixels == [
                0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0xFF, 0xFF, 0xAB, 0xCD, 0xAB, 0xCD, 0xAB, 0xCD, 0, 0,
            ])
        var rgb = TestImage(width: 2, height: 1, colorType: 2, depth: 16, seed: 0)
        rgb.samples = [1, 2, 3, 1, 2, 4]
        let keyed = try decode(rgb, extra: [PNGFile.chunk("tRNS", [0, 1, 0, 2, 0, 3])]).rgba()
        #expect(keyed.pixels == [0, 1, 0, 2, 0, 3, 0, 0, 0, 1, 0, 2, 0, 4, 0xFF, 0xFF])
        var rgb8 = TestImage(width: 2, height: 1, colorType: 2, depth: 8, seed: 0)
        rgb8.samples = [9, 8, 7, 9, 8, 6]
        #expect(
            try decode(rgb8, extra: [PNGFile.chunk("tRNS", [0, 9, 0, 8, 0, 7])]).rgba().pixels == [
                9, 8, 7, 0, 9, 8, 6, 255,
            ])
    }

    @Test func paletteWithAlphaAndOutOfRangeIndex() throws {
        var image = TestImage(width: 4, height: 1, colorType: 3, depth: 2, seed: 0)
        image.samples = [0, 1, 2, 3]
        let extra = [
            PNGFile.chunk("PLTE", [10, 11, 12, 20, 21, 22, 30, 31, 32]), PNGFile.chunk("tRNS", [7]),
        ]
        let decoded = try decode(image, extra: extra)
        #expect(decoded.transparency == .paletteAlpha([7]))
        #expect(decoded.rgba().pixels == [10, 11, 12, 7, 20, 21, 22, 255, 30, 31, 32, 255, 0, 0, 0, 255])
        #expect(try PNGDecoder().decodeBitmap(image.file(extra: extra)).format == .rgba8)
    }

    @Test func grayAlphaExpands() throws {
        var image = TestImage(width: 1, height: 1, colorType: 4, depth: 16, seed: 0)
        image.samples = [0x0102, 0x0304]
        let decoded = try decode(image)
        #expect(decoded.rgba().pixels == [1, 2, 1, 2, 1, 2, 3, 4])
        #expect(
            decoded.bitmap() == (try Bitmap(width: 1, height: 1, format: .grayAlpha16, pixels: [1, 2, 3, 4])))
    }
}
