import Foundation
import PNG

/// `imagecache bench thumbnail`: the exact downsampler (`Spec/thumbnail.md`) against Pillow, on
/// the same pixels in the same run.
///
/// A 4096 × 4096 RGBA8 image of seeded random bytes (every alpha value, so the premultiplied
/// path does its full work) is fitted to 256 (an integer factor, 16) and to 1000 (a ratio of
/// 4.096). The baseline is Pillow (``PillowBaseline``): `resize(…, BOX)` for both sizes and
/// `reduce(16)` for 256. The measurements are interleaved round by round (ours, then one Pillow
/// process), so a machine whose load changes during the run affects both sides alike. Every
/// figure is the median of the rounds; `pixels_per_s` counts source pixels, and our lines carry
/// `speedup_vs_pillow_box` (and `…_reduce`): Pillow's median time over ours. Without `python3`
/// or Pillow the Pillow lines are left out and standard error says why.
public enum ThumbnailBenchmark {
    public static let suite = BenchSuite(
        name: "thumbnail",
        summary: "downsample 4096×4096 RGBA8 to 256 and 1000 (exact area average) against Pillow BOX/reduce",
        run: run)

    /// The sizes of one run: `full` as described above; `quick` on a 2048 × 2048 image; the
    /// tests' `smoke` preset on 128 × 128, fitted to 32 and 50.
    struct Configuration {
        var side: Int
        var rounds: Int
        var targets: [Int]

        init(preset: BenchmarkPreset) {
            switch preset.name {
            case BenchmarkPreset.full.name: (side, rounds, targets) = (4096, 9, [256, 1000])
            case BenchmarkPreset.quick.name: (side, rounds, targets) = (2048, 3, [256, 1000])
            default: (side, rounds, targets) = (128, 1, [32, 50])
            }
        }
    }

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let configuration = Configuration(preset: options.preset)
        let side = configuration.side
        let bitmap = try Bitmap(
            width: side, height: side, format: .rgba8, pixels: randomPixels(count: side * side * 4))
        let scratch = try ScratchSpace(options, suite: suite.name)
        defer { scratch.removeAll() }
        let pixelFile = scratch.root.appendingPathComponent("pixels-rgba8.raw")
        try Platform.writeFile(atPath: pixelFile.path, bitmap.pixels)
        options.progress.begin(suite.name)

        // One untimed warm-up each; its output is what every timed repeat must reproduce.
        var expected: [Int: Bitmap] = [:]
        for target in configuration.targets { expected[target] = try bitmap.downsampled(toFit: target) }
        var ours: [Int: [Double]] = [:]
        var pillow: [String: [Double]] = [:]
        var pillowVersion: String?
        var pillowSkipped: String?
        for round in 0..<configuration.rounds {
            options.progress.update("round", done: round, of: configuration.rounds)
            for target in configuration.targets {
                let start = MonotonicClock.now()
                let thumbnail = try bitmap.downsampled(toFit: target)
                ours[target, default: []].append(MonotonicClock.seconds(since: start))
                guard thumbnail == expected[target], thumbnail.width == target, thumbnail.height == target
                else {
                    throw BenchmarkError.verificationFailed(
                        suite: suite.name, backend: "imagecache",
                        detail:
                            "fitting to \(target) gave \(thumbnail.width)×\(thumbnail.height) or other bytes")
                }
            }
            guard pillowSkipped == nil else { continue }
            switch try PillowBaseline.measureOnce(
                pixelFile: pixelFile, side: side, targets: configuration.targets)
            {
            case .skipped(let reason): pillowSkipped = reason
            case .measured(let version, let timings):
                pillowVersion = version
                for timing in timings {
                    pillow[key(timing.operation, timing.target), default: []].append(timing.seconds)
                }
            }
        }
        if let pillowSkipped {
            FileHandle.standardError.write(Data("bench thumbnail: Pillow skipped: \(pillowSkipped)\n".utf8))
        }
        return results(
            configuration: configuration, ours: ours, pillow: pillow, pillowVersion: pillowVersion ?? "")
    }

    static func key(_ operation: String, _ target: Int) -> String { "\(operation)-\(target)" }

    static func results(
        configuration: Configuration, ours: [Int: [Double]], pillow: [String: [Double]], pillowVersion: String
    ) -> [BenchmarkResult] {
        let side = configuration.side
        let file = "synthetic-\(side)x\(side)-rgba8"
        let pixels = Double(side * side)
        func result(_ backend: String, _ target: Int, _ summary: Summary, _ extra: [(String, Double)])
            -> BenchmarkResult
        {
            BenchmarkResult(
                suite: suite.name, op: "fit \(target)", backend: backend, file: file, bytes: side * side * 4,
                count: 1, seconds: summary.median, spread: summary.spread, repeats: summary.samples.count,
                extra: [("pixels_per_s", pixels / summary.median)] + extra)
        }
        var lines: [BenchmarkResult] = []
        for target in configuration.targets {
            guard let samples = ours[target] else { continue }
            let summary = Summary(samples: samples)
            var speedups: [(String, Double)] = []
            var baselines: [BenchmarkResult] = []
            for (operation, label) in [("box", "resize BOX"), ("reduce", "reduce")] {
                guard let times = pillow[key(operation, target)] else { continue }
                let baseline = Summary(samples: times)
                speedups.append(("speedup_vs_pillow_\(operation)", baseline.median / summary.median))
                baselines.append(result("pillow \(pillowVersion) \(label)", target, baseline, []))
            }
            lines.append(result("imagecache", target, summary, speedups))
            lines += baselines
        }
        return lines
    }

    /// Seeded, incompressible-looking bytes (the generator of the `png` suite).
    static func randomPixels(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in stride(from: 0, to: buffer.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state) { word in
                    for k in 0..<min(8, buffer.count - index) { buffer[index + k] = word[k] }
                }
            }
            initialized = buffer.count
        }
    }
}
