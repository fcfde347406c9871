import Inflate
import PNG
import Testing

@testable import Benchmarks

/// The bench's decompression bombs are valid PNGs of zeros at DEFLATE's largest expansion.
@Suite struct DecompressionBombTests {
    /// Small bombs of every kind decode to exactly their all-zero image.
    @Test func smallBombsDecodeToZeros() throws {
        let kinds: [(PNGColorType, Int)] = [
            (.truecolorAlpha, 8), (.truecolorAlpha, 16), (.grayscale, 1), (.indexed, 8), (.truecolor, 16),
        ]
        for (colorType, depth) in kinds {
            for interlaced in [false, true] {
                for (width, height) in [(1, 1), (13, 7), (300, 40)] {
                    let bomb = DecompressionBomb(
                        width: width, height: height, colorType: colorType, bitDepth: depth,
                        interlaced: interlaced)
                    let image = try PNGDecoder().decode(bomb.file)
                    #expect(image.header.width == width && image.header.height == height, "\(bomb.name)")
                    #expect(image.pixels == [UInt8](repeating: 0, count: image.header.bytesPerRow * height))
                    let bitmap = try PNGDecoder().decodeBitmap(bomb.file)
                    let pixel = bomb.pixel(in: bitmap.format)
                    let expected = (0..<(width * height)).flatMap { _ in pixel }
                    #expect(bitmap.pixels == expected, "\(bomb.name)")
                    #expect(bitmap.pixels.count == width * height * bitmap.format.bytesPerPixel)
                }
            }
        }
    }

    /// The 16,384² RGBA8 bomb is about 1 MB, expands more than 1,000 times to the 1 GiB (plus
    /// filter bytes) the default limits allow, and limits like Pillow's reject it at IHDR.
    @Test func theBenchBombFitsTheDefaultLimitsOnly() throws {
        let bomb = PNGBenchmark.bombs[0]
        #expect(bomb.name == "bomb-16384x16384-rgba8")
        #expect(bomb.filteredSize == 16_384 * (16_384 * 4 + 1))
        let file = bomb.file
        #expect(file.count < 1_100_000 && bomb.filteredSize / file.count > 1_000)
        let structure = try PNGDecoder().readStructure(file)
        #expect(structure.chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(bomb.filteredSize <= PNGLimits.default.maximumDecompressedBytes)
        #expect(
            throws: PNGError.limitExceeded(
                limit: "maximumPixelCount", requested: 1 << 28, maximum: 89_478_485)
        ) {
            try PNGDecoder(limits: PNGBenchmark.pillowLikeLimits).decodeBitmap(file)
        }
        #expect(PNGBenchmark.bombs[1].name == "bomb-16384x16384-palette8-interlaced")
    }

    @Test func zeroStreamsInflateToTheirLength() throws {
        for count in [1, 2, 258, 259, 260, 516, 517, 65_521, 65_522, 100_000] {
            let stream = DecompressionBomb.zlibZeros(count: count)
            #expect(
                try Decompressor.zlibDecompress(stream) == [UInt8](repeating: 0, count: count), "\(count)")
        }
    }
}
