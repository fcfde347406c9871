import Testing

@testable import PNG

/// `Spec/thumbnail.md`: the size rule, the exact arithmetic on every format, alpha, identity
/// and the errors. Expected pixels are worked out by hand or by ``ReferenceDownsampler``.
@Suite struct DownsamplerTests {
    // MARK: Hand-computed examples

    /// The worked example of `Spec/thumbnail.md` §3.
    @Test func specWorkedExample() throws {
        let bitmap = try Bitmap(
            width: 3, height: 2, format: .grayAlpha8,
            pixels: [200, 255, 50, 128, 0, 0, 100, 255, 77, 0, 9, 0])
        let thumbnail = try bitmap.downsampled(toFit: 2)
        #expect(
            thumbnail == (try Bitmap(width: 2, height: 1, format: .grayAlpha8, pixels: [139, 191, 50, 21])))
    }

    /// 3 × 1 to 2 × 1: weights (2, 1, 0) and (0, 1, 2) over T = 3.
    /// Red of the second pixel: (40 + 2·70) / 3 = 60; blue: (60 + 2·91) / 3 = 80.67 → 81.
    @Test func nonIntegerRatioRGB8() throws {
        let bitmap = try Bitmap(
            width: 3, height: 1, format: .rgb8, pixels: [10, 20, 30, 40, 50, 60, 70, 80, 91])
        #expect(try bitmap.downsampled(toFit: 2).pixels == [20, 30, 40, 60, 70, 81])
    }

    /// Big-endian 16-bit samples and a half rounding up: (0x1234 + 0x00FF) / 2 = 2457.5 → 2458
    /// = 0x099A; (0xFFFF + 0) / 2 = 32767.5 → 32768 = 0x8000.
    @Test func sixteenBitSamplesAreBigEndianAndHalvesRoundUp() throws {
        let bitmap = try Bitmap(
            width: 4, height: 1, format: .gray16, pixels: [0x12, 0x34, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00])
        #expect(try bitmap.downsampled(toFit: 2).pixels == [0x09, 0x9A, 0x80, 0x00])
    }

    /// 2 × 2 to 1 × 1 (T = 4): opaque red, transparent blue, half-transparent green, transparent
    /// black. A = 255 + 128 = 383 → alpha R(383, 4) = 96. Red: R(255·255, 383) = R(65025, 383) =
    /// 170 (169·383 = 64727, remainder 298 ≥ 383 − 298); green: R(255·128, 383) = R(32640, 383)
    /// = 85 (remainder 85); blue: 0, since the blue pixel is transparent.
    @Test func premultipliedAlphaRGBA8() throws {
        let bitmap = try Bitmap(
            width: 2, height: 2, format: .rgba8,
            pixels: [255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 128, 0, 0, 0, 0])
        #expect(try bitmap.downsampled(toFit: 1).pixels == [170, 85, 0, 96])
    }

    // MARK: The size rule (§1)

    @Test(arguments: [
        // Spec/thumbnail.md §1.4.
        (4000, 3000, 120, 120, 90), (3000, 4000, 120, 90, 120), (4096, 4096, 1000, 1000, 1000),
        (3, 2, 2, 2, 1), (5, 2, 4, 4, 2), (4, 2, 3, 3, 2), (640, 480, 1000, 640, 480), (1, 7, 3, 1, 3),
        (10000, 3, 100, 100, 1),
        // Exact fits, a maximum of 1, strips, the short side raised to 1.
        (8, 6, 8, 8, 6), (6, 8, 8, 6, 8), (7, 5, 1, 1, 1), (1, 1, 1, 1, 1), (1, 10000, 100, 1, 100),
        (10000, 1, 100, 100, 1), (3, 10000, 100, 1, 100), (2, 4, 3, 2, 3),
        // The largest sides: the products reach 2^62 without overflowing.
        (
            Bitmap.maximumDimension, Bitmap.maximumDimension, Bitmap.maximumDimension - 1,
            Bitmap.maximumDimension - 1, Bitmap.maximumDimension - 1
        ),
        (Bitmap.maximumDimension, 2, Bitmap.maximumDimension - 1, Bitmap.maximumDimension - 1, 2),
        (1, Bitmap.maximumDimension, 256, 1, 256), (Bitmap.maximumDimension, 1, 256, 256, 1),
        (Bitmap.maximumDimension, Bitmap.maximumDimension / 2, 1000, 1000, 500),
    ])
    func targetSize(width: Int, height: Int, maximum: Int, expectedWidth: Int, expectedHeight: Int) throws {
        let size = try Downsampler.targetSize(width: width, height: height, maximumPixelSize: maximum)
        #expect(size == (expectedWidth, expectedHeight))
    }

    /// Over many seeded sizes: never larger, never 0, the long side exactly M when reduced, and
    /// the short side the nearest whole number to the exact ratio (or 1).
    @Test func targetSizeProperties() throws {
        var generator = SplitMix64(seed: 21)
        for round in 0..<5000 {
            let limit = round % 2 == 0 ? 5000 : Bitmap.maximumDimension
            let width = Int.random(in: 1...limit, using: &generator)
            let height = Int.random(in: 1...limit, using: &generator)
            let maximum = Int.random(in: 1...max(width, height) + 10, using: &generator)
            let (w, h) = try Downsampler.targetSize(width: width, height: height, maximumPixelSize: maximum)
            if width <= maximum && height <= maximum {
                #expect((w, h) == (width, height))
                continue
            }
            let (long, short, longTarget, shortTarget) =
                width >= height ? (width, height, w, h) : (height, width, h, w)
            #expect(longTarget == maximum)
            #expect(shortTarget >= 1 && shortTarget <= short && shortTarget <= maximum)
            // |shortTarget − short·M / long| ≤ 1/2, in integers; unless raised from 0 to 1.
            let exact = Int64(short) * Int64(maximum)
            let error = (2 * Int64(shortTarget) * Int64(long) - 2 * exact).magnitude
            #expect(error <= UInt64(long) || (shortTarget == 1 && 2 * exact < Int64(long)))
        }
    }

    @Test(arguments: [0, -1, -1000, Int.min])
    func rejectsAMaximumBelowOne(maximum: Int) throws {
        #expect(throws: PNGError.invalidMaximumPixelSize(maximum)) {
            try Downsampler.targetSize(width: 10, height: 10, maximumPixelSize: maximum)
        }
        let bitmap = try Bitmap(width: 1, height: 1, format: .gray8, pixels: [0])
        #expect(throws: PNGError.invalidMaximumPixelSize(maximum)) { try bitmap.downsampled(toFit: maximum) }
    }

    @Test func targetSizeRejectsInvalidDimensions() {
        #expect(throws: PNGError.invalidDimensions(width: 0, height: 5)) {
            try Downsampler.targetSize(width: 0, height: 5, maximumPixelSize: 3)
        }
        #expect(throws: PNGError.invalidDimensions(width: 5, height: Bitmap.maximumDimension + 1)) {
            try Downsampler.targetSize(width: 5, height: Bitmap.maximumDimension + 1, maximumPixelSize: 3)
        }
    }

    // MARK: Errors and their order (§2.9)

    /// A bitmap's fields are mutable, so the downsampler checks them again, before the maximum.
    @Test func checksTheBitmapBeforeTheMaximum() throws {
        var bitmap = try Bitmap(width: 3, height: 2, format: .rgba8, pixels: [UInt8](repeating: 7, count: 24))
        bitmap.pixels.removeLast()
        #expect(throws: PNGError.invalidPixelBufferLength(expected: 24, actual: 23)) {
            try bitmap.downsampled(toFit: 2)
        }
        #expect(throws: PNGError.invalidPixelBufferLength(expected: 24, actual: 23)) {
            try bitmap.downsampled(toFit: 0)
        }
        bitmap.width = 0
        #expect(throws: PNGError.invalidDimensions(width: 0, height: 2)) { try bitmap.downsampled(toFit: 2) }
        bitmap.width = 3
        bitmap.format = .rgba16
        #expect(throws: PNGError.invalidPixelBufferLength(expected: 48, actual: 23)) {
            try bitmap.downsampled(toFit: 2)
        }
    }

    /// Above 2^32 pixels a reduction is refused (its sums could pass 2^64); at exactly 2^32 it
    /// is planned; a bitmap that already fits is returned whatever its size. `plan` takes the
    /// buffer length, so no 4 GiB buffer is needed to test the limit.
    @Test func pixelLimit() throws {
        #expect(throws: PNGError.imageTooLarge(width: 65537, height: 65536)) {
            try Downsampler.plan(
                width: 65537, height: 65536, format: .gray8, pixelBufferLength: 65537 * 65536,
                maximumPixelSize: 100)
        }
        let atLimit = try Downsampler.plan(
            width: 65536, height: 65536, format: .rgba16, pixelBufferLength: 65536 * 65536 * 8,
            maximumPixelSize: 100)
        #expect(atLimit.map { [$0.width, $0.height] } == [100, 100])
        let fits = try Downsampler.plan(
            width: 100_000, height: 100_000, format: .gray8, pixelBufferLength: 100_000 * 100_000,
            maximumPixelSize: 100_000)
        #expect(fits == nil)
        #expect(UInt64(65536 * 65536) == Downsampler.maximumPixelCount)
    }

    // MARK: Identity (§2.8)

    /// Nothing to reduce: the very same bytes, the colour of transparent pixels kept (the
    /// formula would have made it 0).
    @Test(arguments: [5, 6, 1000])
    func identityReturnsTheInput(maximum: Int) throws {
        let pixels = randomBytes(5 * 4 * 8, seed: 3).enumerated().map { $0.offset % 8 >= 6 ? 0 : $0.element }
        let bitmap = try Bitmap(width: 5, height: 4, format: .rgba16, pixels: pixels)
        #expect(try bitmap.downsampled(toFit: maximum) == bitmap)
    }

    // MARK: Agreement with the reference (§2)

    /// Seeded random images of every format and many shapes against the literal formula.
    @Test(arguments: PixelFormat.allCases)
    func agreesWithTheReference(format: PixelFormat) throws {
        var generator = SplitMix64(seed: 0x7468_756D_6200 &+ UInt64(format.bytesPerPixel))
        for _ in 0..<60 {
            let width = Int.random(in: 1...40, using: &generator)
            let height = Int.random(in: 1...40, using: &generator)
            let maximum = Int.random(in: 1...max(width, height), using: &generator)
            let bitmap = try randomBitmap(width: width, height: height, format: format, using: &generator)
            try expectReferenceResult(bitmap, maximum: maximum)
        }
    }

    /// 1 × N and N × 1 with integer and non-integer ratios, and the short side raised to 1.
    @Test(arguments: [
        (1, 5000, 7), (5000, 1, 7), (1, 4096, 16), (4096, 1, 16), (1, 4097, 3), (3, 5000, 100),
        (5000, 3, 100),
        (2, 999, 998),
    ])
    func extremeAspectRatios(width: Int, height: Int, maximum: Int) throws {
        var generator = SplitMix64(seed: UInt64(width * 31 + height))
        for format in [PixelFormat.gray8, .rgba8, .grayAlpha16, .rgb16] {
            let bitmap = try randomBitmap(width: width, height: height, format: format, using: &generator)
            try expectReferenceResult(bitmap, maximum: maximum)
        }
    }

    /// Column sums are UInt32 while `vertical weight sum × largest term` fits in 32 bits, else
    /// UInt64. Samples at max on both sides of that boundary must still average to max; a
    /// wrong choice would wrap. 8-bit alpha: 66,051 × 65,025 < 2^32 < 66,052 × 65,025;
    /// 16-bit plain: 65,537 × 65,535 = 2^32 − 1.
    @Test(arguments: [
        (PixelFormat.grayAlpha8, 66051), (.grayAlpha8, 66052), (.gray16, 65537), (.gray16, 65538),
        (.rgba16, 3),
    ])
    func sumsAtTheAccumulatorBoundary(format: PixelFormat, height: Int) throws {
        let bitmap = try Bitmap(
            width: 1, height: height, format: format,
            pixels: [UInt8](repeating: 0xFF, count: height * format.bytesPerPixel))
        let thumbnail = try bitmap.downsampled(toFit: 1)
        #expect(thumbnail.pixels == [UInt8](repeating: 0xFF, count: format.bytesPerPixel))
        var generator = SplitMix64(seed: UInt64(height))
        try expectReferenceResult(
            try randomBitmap(width: 1, height: height, format: format, using: &generator), maximum: 1)
    }

    // MARK: Alpha (§2.5)

    /// An opaque square in a transparent black border: wherever the thumbnail is not fully
    /// transparent, its colour is exactly the square's.
    @Test(arguments: [PixelFormat.rgba8, .rgba16, .grayAlpha8, .grayAlpha16])
    func transparentEdgesDoNotDarken(format: PixelFormat) throws {
        let maximum = format.bytesPerSample == 1 ? 255 : 65535
        let colour = format.channels == 4 ? [maximum, maximum / 5, 3] : [maximum * 2 / 3]
        var samples: [Int] = []
        for y in 0..<10 {
            for x in 0..<10 {
                samples +=
                    (2..<8).contains(x) && (3..<8).contains(y)
                    ? colour + [maximum] : [0, 0, 0, 0].prefix(format.channels)
            }
        }
        let bitmap = try Bitmap(width: 10, height: 10, format: format, pixels: pack(samples, format))
        let thumbnail = try bitmap.downsampled(toFit: 4)
        let pixels = unpack(thumbnail.pixels, format).chunked(format.channels)
        #expect(pixels.count == 16)
        #expect(pixels.contains { $0.last! == 0 })
        #expect(pixels.contains { $0.last! == maximum })
        for pixel in pixels where pixel.last! > 0 { #expect(Array(pixel.dropLast()) == colour) }
    }

    /// Every pixel of an area transparent (A = 0): every colour sample of the output is 0.
    @Test(arguments: [PixelFormat.rgba8, .rgba16, .grayAlpha8, .grayAlpha16])
    func fullyTransparentAreasHaveColourZero(format: PixelFormat) throws {
        let pixels = randomBytes(9 * 7 * format.bytesPerPixel, seed: 8).enumerated().map {
            $0.offset % format.bytesPerPixel >= format.bytesPerPixel - format.bytesPerSample ? 0 : $0.element
        }
        let bitmap = try Bitmap(width: 9, height: 7, format: format, pixels: pixels)
        let thumbnail = try bitmap.downsampled(toFit: 4)
        #expect(pixels.contains { $0 != 0 })
        #expect(thumbnail.pixels == [UInt8](repeating: 0, count: 4 * 3 * format.bytesPerPixel))
    }

    /// A fully opaque image gives the colours of the same image without alpha, and alpha max.
    @Test(arguments: [
        (PixelFormat.rgba8, PixelFormat.rgb8), (.rgba16, .rgb16), (.grayAlpha8, .gray8),
        (.grayAlpha16, .gray16),
    ])
    func opaqueImagesMatchTheFormatWithoutAlpha(withAlpha: PixelFormat, without: PixelFormat) throws {
        var generator = SplitMix64(seed: 99)
        let plain = try randomBitmap(width: 23, height: 17, format: without, using: &generator)
        let opaqueAlpha = [UInt8](repeating: 0xFF, count: withAlpha.bytesPerSample)
        let opaque = try Bitmap(
            width: 23, height: 17, format: withAlpha,
            pixels: plain.pixels.chunked(without.bytesPerPixel).flatMap { $0 + opaqueAlpha })
        let expected = try plain.downsampled(toFit: 7).pixels.chunked(without.bytesPerPixel).flatMap {
            $0 + opaqueAlpha
        }
        #expect(try opaque.downsampled(toFit: 7).pixels == expected)
    }

    // MARK: The division (§2.6)

    /// The division without `div` equals the exact integer R(p, q) at the edges where a
    /// floating-point estimate could land on the wrong side: every remainder near 0, q / 2 and
    /// q, quotients from 0 to 65,535, divisors up to 2^48 (p then reaches 2^64 − 2^48).
    @Test func reciprocalDivisionIsExact() {
        var generator = SplitMix64(seed: 26)
        var divisors: [UInt64] = [
            1, 2, 3, 7, 255, 256, 65025, 65535, 65536, 1 << 32, (1 << 32) + 1, (1 << 48) - 1,
        ]
        for _ in 0..<200 { divisors.append(UInt64.random(in: 1..<(1 << 48), using: &generator)) }
        for q in divisors {
            let reciprocal = 1 / Double(q)
            for quotient: UInt64 in [0, 1, 2, 127, 128, 255, 32767, 65534, 65535] {
                var remainders: Set<UInt64> = [0, 1, q / 2, (q + 1) / 2, q - 1]
                if q > 2 { remainders.formUnion([q / 2 - 1, q / 2 + 1, q - 2]) }
                remainders.insert(UInt64.random(in: 0..<q, using: &generator))
                for remainder in remainders where remainder < q && (quotient < 65535 || remainder == 0) {
                    let p = quotient * q + remainder
                    #expect(
                        Downsampler.roundedHalfUp(p, q, reciprocal: reciprocal)
                            == ReferenceDownsampler.rounded(p, q), "p \(p), q \(q)")
                }
            }
        }
    }

    // MARK: Helpers

    func expectReferenceResult(
        _ bitmap: Bitmap, maximum: Int, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let (width, height) = try Downsampler.targetSize(
            width: bitmap.width, height: bitmap.height, maximumPixelSize: maximum)
        let thumbnail = try bitmap.downsampled(toFit: maximum)
        #expect(thumbnail.width == width && thumbnail.height == height, sourceLocation: sourceLocation)
        #expect(thumbnail.format == bitmap.format, sourceLocation: sourceLocation)
        let expected =
            (width, height) == (bitmap.width, bitmap.height)
            ? bitmap.pixels : ReferenceDownsampler.downsample(bitmap, width: width, height: height)
        #expect(
            thumbnail.pixels == expected,
            "\(bitmap.format) \(bitmap.width)×\(bitmap.height) to \(maximum)", sourceLocation: sourceLocation)
    }

    /// Random samples, a third of them at 0 or max; alpha mostly 0, max or 1.
    func randomBitmap(width: Int, height: Int, format: PixelFormat, using generator: inout SplitMix64) throws
        -> Bitmap
    {
        let maximum = format.bytesPerSample == 1 ? 255 : 65535
        var samples: [Int] = []
        samples.reserveCapacity(width * height * format.channels)
        for _ in 0..<(width * height) {
            for channel in 0..<format.channels {
                let isAlpha = format.hasAlpha && channel == format.channels - 1
                switch Int.random(in: 0..<(isAlpha ? 5 : 6), using: &generator) {
                case 0: samples.append(0)
                case 1: samples.append(maximum)
                case 2 where isAlpha: samples.append(1)
                default: samples.append(Int.random(in: 0...maximum, using: &generator))
                }
            }
        }
        return try Bitmap(width: width, height: height, format: format, pixels: pack(samples, format))
    }

    func pack(_ samples: [Int], _ format: PixelFormat) -> [UInt8] {
        format.bytesPerSample == 1
            ? samples.map { UInt8($0) } : samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    func unpack(_ bytes: [UInt8], _ format: PixelFormat) -> [Int] {
        format.bytesPerSample == 1
            ? bytes.map { Int($0) } : bytes.chunked(2).map { Int($0[0]) << 8 | Int($0[1]) }
    }
}

extension Array {
    /// Consecutive pieces of `size` elements (the last may be shorter).
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
