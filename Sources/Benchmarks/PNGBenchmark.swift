import Foundation
import PNG
import Platform

/// `imagecache bench png`: the codec's throughput (issue 2, `Spec/png.md`).
///
/// Measures stored encode and decode of a 4096 × 4096 RGBA8 image; decode and inflate of the
/// compressed files beside the C libraries (issue 20, `PNGBenchmark+Peers.swift`): generated
/// photo-like and gradient images, the committed photo-like sample
/// (`Tests/Fixtures/PNG/photo-768.png`), real photographs and illustrations, PngSuite and each
/// file given; and the decompression bombs of issue 14 (``DecompressionBomb``):
/// the time to decode each with the default limits, the peak resident memory while doing so,
/// and the time to reject it with limits like Pillow's. `bytes` counts pixel bytes (file bytes
/// for a rejection); `seconds` is the median of the repeats.
public enum PNGBenchmark {
    /// The compressed sample, found beside the sources of a checkout.
    public static let photoSample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/PNG/photo-768.png")

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        /// A bomb decoded to something other than its all-zero image.
        case wrongBombOutput(String)
        /// A bomb was not rejected by limits it exceeds.
        case bombNotRejected(String)
        public var description: String {
            switch self {
            case .unreadable(let path): "cannot read \(path)"
            case .wrongBombOutput(let name): "\(name) did not decode to its all-zero image"
            case .bombNotRejected(let name): "\(name) was not rejected by maximumPixelCount"
            }
        }
    }

    /// Pillow's limit: it warns above 89,478,485 pixels (`Image.MAX_IMAGE_PIXELS`) and refuses
    /// above twice that. The bench rejects at the warning level, as a cache should.
    public static let pillowLikeLimits = PNGLimits(maximumPixelCount: 89_478_485)

    /// The bombs measured: 16,384 × 16,384 (2^28 pixels, the default pixel limit), as RGBA8
    /// (a 1 MB file, 1 GiB decoded) and as interlaced 8-bit palette (a 256 KB file whose
    /// 256 MiB of indices convert to 1 GiB of RGBA).
    public static let bombs = [
        DecompressionBomb(
            width: 16_384, height: 16_384, colorType: .truecolorAlpha, bitDepth: 8, interlaced: false),
        DecompressionBomb(width: 16_384, height: 16_384, colorType: .indexed, bitDepth: 8, interlaced: true),
    ]

    /// Runs the suite.
    ///
    /// - Parameters:
    ///   - quick: a smaller stored image (2048 × 2048) and fewer repeats.
    ///   - files: PNG files to decode as well.
    ///   - scratchDirectory: where the generated images and the peers' inputs are written (and
    ///     removed afterwards).
    public static func run(
        quick: Bool, files: [String],
        scratchDirectory: URL = FileManager.default.temporaryDirectory
    ) throws -> [BenchmarkResult] {
        let sampler = Sampler(repeats: quick ? 3 : 9)
        let side = quick ? 2048 : 4096
        var results: [BenchmarkResult] = []

        // A deterministic, incompressible-looking RGBA8 image: stored blocks do not care.
        let pixels = SampleData.imagePixels(count: side * side * 4)
        let bitmap = try Bitmap(width: side, height: side, format: .rgba8, pixels: pixels)
        let name = "synthetic-\(side)x\(side)-rgba8-stored"
        var encoded: [UInt8] = []
        let encode = try sampler.measure { encoded = try PNGEncoder.encode(bitmap) }
        results.append(result("encode", name, pixels.count, encode, sampler))
        let decode = try sampler.measure { _ = try PNGDecoder().decodeBitmap(encoded) }
        results.append(result("decode", name, pixels.count, decode, sampler))

        let scratch = scratchDirectory.appendingPathComponent(
            "imagecache-bench-png-\(ProcessInfo.processInfo.processIdentifier)-"
                + String(UInt64.random(in: 0...UInt64.max), radix: 36))
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.makeDirectories(scratch.standardizedFileURL.path)
        }
        defer { try? FileSystem.removeTree(scratch.path) }
        results += try comparePeers(quick: quick, files: files, scratch: scratch, rounds: quick ? 3 : 9)
        for bomb in bombs { results += try measure(bomb, repeats: quick ? 1 : 3) }
        return results
    }

    /// `decode-bomb`: decodeBitmap with the default limits, the median over `repeats` and the
    /// peak resident memory of one decode (`peak_rss_bytes`, with `rss_before_bytes` the
    /// resident memory just before it; omitted where the platform cannot reset the peak).
    /// `reject-bomb`: decodeBitmap with ``pillowLikeLimits``, which fails at IHDR.
    static func measure(_ bomb: DecompressionBomb, repeats: Int) throws -> [BenchmarkResult] {
        let file = bomb.file
        let decoder = PNGDecoder()
        var outputBytes = 0
        // The first decode, untimed, is the warm-up; it also checks the output and measures
        // the peak memory.
        let memory = try residentMemory {
            let bitmap = try decoder.decodeBitmap(file)
            outputBytes = bitmap.pixels.count
            guard bitmap.width == bomb.width, bitmap.height == bomb.height,
                Self.isFilled(bitmap.pixels, with: bomb.pixel(in: bitmap.format))
            else { throw Failure.wrongBombOutput(bomb.name) }
        }
        var extra: [(String, Double)] = [("file_bytes", Double(file.count))]
        if let memory {
            extra += [("rss_before_bytes", Double(memory.before)), ("peak_rss_bytes", Double(memory.peak))]
        }
        let sampler = Sampler(repeats: repeats, warmUp: false)
        let decode = try sampler.measure { _ = try decoder.decodeBitmap(file) }
        let rejectSampler = Sampler(repeats: 101)
        let rejecter = PNGDecoder(limits: pillowLikeLimits)
        let reject = try rejectSampler.measure {
            let outcome = Result { () throws(PNGError) in try rejecter.decodeBitmap(file) }
            guard case .failure(.limitExceeded(limit: "maximumPixelCount", _, _)) = outcome else {
                throw Failure.bombNotRejected(bomb.name)
            }
        }
        return [
            BenchmarkResult(
                suite: "png", op: "decode-bomb", file: bomb.name, bytes: outputBytes, count: 1,
                seconds: decode.median, spread: decode.spread, repeats: repeats, extra: extra),
            BenchmarkResult(
                suite: "png", op: "reject-bomb", file: bomb.name, bytes: file.count, count: 1,
                seconds: reject.median, spread: reject.spread, repeats: rejectSampler.repeats,
                extra: [("file_bytes", Double(file.count))]),
        ]
    }

    /// Runs `work` once and returns the resident memory just before it and the peak while it
    /// ran, in bytes; nil where the platform cannot reset the peak (``SystemProcess``).
    static func residentMemory(during work: () throws -> Void) throws -> (before: Int, peak: Int)? {
        let reset = SystemProcess.resetPeakResidentMemory()
        let before = SystemProcess.residentMemory()
        try work()
        guard reset, let before, let after = SystemProcess.residentMemory() else { return nil }
        return (before.current, after.peak)
    }

    static func result(_ op: String, _ file: String, _ bytes: Int, _ summary: Summary, _ sampler: Sampler)
        -> BenchmarkResult
    {
        BenchmarkResult(
            suite: "png", op: op, file: file, bytes: bytes, count: 1, seconds: summary.median,
            spread: summary.spread,
            repeats: sampler.repeats)
    }

    /// Whether `bytes` is `pixel` over and over.
    static func isFilled(_ bytes: [UInt8], with pixel: [UInt8]) -> Bool {
        guard 8 % pixel.count == 0 || pixel.allSatisfy({ $0 == pixel[0] }) else {
            return bytes.enumerated().allSatisfy { $0.element == pixel[$0.offset % pixel.count] }
        }
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(pixel[index % pixel.count]) << UInt64(8 * index) }
        return bytes.withUnsafeBytes { raw in
            var difference: UInt64 = 0
            var index = 0
            while index + 8 <= raw.count {
                difference |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ word.littleEndian
                index += 8
            }
            while index < raw.count {
                difference |= UInt64(raw[index] ^ pixel[index % pixel.count])
                index += 1
            }
            return difference == 0
        }
    }
}
