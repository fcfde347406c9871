import Foundation
import PNG

/// `imagecache bench png`: the codec's throughput (issue 2, `Spec/png.md`).
///
/// Measures stored encode and decode of a 4096 × 4096 RGBA8 image, decode of a compressed
/// photo-like sample (`Tests/Fixtures/PNG/photo-768.png`, made by Python's zlib at level 6),
/// and decode of each file given. `bytes` counts pixel bytes; `seconds` is the median of the
/// repeats.
public enum PNGBenchmark {
    /// The compressed sample, found beside the sources of a checkout.
    public static let photoSample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/PNG/photo-768.png")

    public enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        public var description: String {
            switch self {
            case .unreadable(let path): "cannot read \(path)"
            }
        }
    }

    /// Runs the suite.
    ///
    /// - Parameters:
    ///   - quick: a smaller stored image (2048 × 2048) and fewer repeats.
    ///   - files: PNG files to decode as well.
    public static func run(quick: Bool, files: [String]) throws -> [BenchmarkResult] {
        let sampler = Sampler(repeats: quick ? 3 : 9)
        let side = quick ? 2048 : 4096
        var results: [BenchmarkResult] = []

        // A deterministic, incompressible-looking RGBA8 image: stored blocks do not care.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = [UInt8](unsafeUninitializedCapacity: side * side * 4) { buffer, initialized in
            for index in stride(from: 0, to: buffer.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state) { word in
                    for k in 0..<min(8, buffer.count - index) { buffer[index + k] = word[k] }
                }
            }
            initialized = buffer.count
        }
        let bitmap = try Bitmap(width: side, height: side, format: .rgba8, pixels: pixels)
        let name = "synthetic-\(side)x\(side)-rgba8-stored"
        var encoded: [UInt8] = []
        let encode = try sampler.measure { encoded = try PNGEncoder.encode(bitmap) }
        results.append(result("encode", name, pixels.count, encode, sampler))
        let decode = try sampler.measure { _ = try PNGDecoder().decodeBitmap(encoded) }
        results.append(result("decode", name, pixels.count, decode, sampler))

        var inputs: [(String, [UInt8])] = []
        if let sample = FileManager.default.contents(atPath: photoSample.path) {
            inputs.append(("photo-768.png", [UInt8](sample)))
        }
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure.unreadable(path)
            }
            inputs.append((path, [UInt8](data)))
        }
        for (file, bytes) in inputs {
            let decoded = try PNGDecoder().decodeBitmap(bytes)
            let repeatSampler = Sampler(
                repeats: max(sampler.repeats, min(51, 50_000_000 / max(1, decoded.pixels.count))))
            let summary = try repeatSampler.measure { _ = try PNGDecoder().decodeBitmap(bytes) }
            results.append(result("decode", file, decoded.pixels.count, summary, repeatSampler))
        }
        return results
    }

    static func result(_ op: String, _ file: String, _ bytes: Int, _ summary: Summary, _ sampler: Sampler)
        -> BenchmarkResult
    {
        BenchmarkResult(
            suite: "png", op: op, file: file, bytes: bytes, count: 1, seconds: summary.median,
            spread: summary.spread,
            repeats: sampler.repeats)
    }
}
