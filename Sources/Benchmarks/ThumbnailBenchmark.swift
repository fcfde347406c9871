import Foundation
import ImageCacheKit
import PNG
import Platform

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
            width: side, height: side, format: .rgba8, pixels: SampleData.imagePixels(count: side * side * 4))
        let scratch = try ScratchSpace(options, suite: suite.name)
        defer { scratch.removeAll() }
        let pixelFile = scratch.root.appendingPathComponent("pixels-rgba8.raw")
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.writeFile(bitmap.pixels, toPath: pixelFile.path)
        }
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
            try? StandardStream.error.write(Array("bench thumbnail: Pillow skipped: \(pillowSkipped)\n".utf8))
        }
        options.progress.update("the cache path")
        let cache = try cachePath(
            bitmap, target: configuration.targets[0], rounds: configuration.rounds,
            folder: scratch.directory("cache"))
        return results(
            configuration: configuration, ours: ours, pillow: pillow, pillowVersion: pillowVersion ?? "")
            + cache
    }

    /// The cache end to end (`Spec/thumbnail.md` §5), on the log backend without a memory tier:
    /// storing the original, the first request of its variant (read, decode, downsample, encode,
    /// store) and later requests (read the variant, decode). The baseline is `bitmap(forKey:)`
    /// of an entry that holds the variant's very PNG: what reading those bytes and decoding
    /// them costs. `cost_vs_bitmap` = later request ÷ baseline.
    static func cachePath(_ bitmap: Bitmap, target: Int, rounds: Int, folder: URL) throws -> [BenchmarkResult]
    {
        let cache = try ImageCache(configuration: CacheConfiguration(directory: folder, backend: .log))
        defer { try? cache.close() }
        let file = "synthetic-\(bitmap.width)x\(bitmap.height)-rgba8"
        func line(_ op: String, _ seconds: [Double], _ extra: [(String, Double)] = []) -> BenchmarkResult {
            let summary = Summary(samples: seconds)
            return BenchmarkResult(
                suite: suite.name, op: op, backend: "log", file: file, bytes: bitmap.pixels.count, count: 1,
                seconds: summary.median, spread: summary.spread, repeats: seconds.count, extra: extra)
        }
        var start = MonotonicClock.now()
        try cache.store(bitmap, forKey: "original")
        let stored = MonotonicClock.seconds(since: start)
        start = MonotonicClock.now()
        guard let first = try cache.variant(forKey: "original", maximumPixelSize: target) else {
            throw BenchmarkError.verificationFailed(
                suite: suite.name, backend: "log", detail: "the variant missed")
        }
        let made = MonotonicClock.seconds(since: start)
        try cache.store(try PNGEncoder.encode(first), forKey: "the variant's png")
        var again: [Double] = []
        var baseline: [Double] = []
        for _ in 0..<max(rounds, 3) {
            start = MonotonicClock.now()
            let variant = try cache.variant(forKey: "original", maximumPixelSize: target)
            again.append(MonotonicClock.seconds(since: start))
            start = MonotonicClock.now()
            let plain = try cache.bitmap(forKey: "the variant's png")
            baseline.append(MonotonicClock.seconds(since: start))
            guard variant == first, plain == first else {
                throw BenchmarkError.verificationFailed(
                    suite: suite.name, backend: "log", detail: "a later request gave other pixels")
            }
        }
        let ratio = Summary(samples: again).median / Summary(samples: baseline).median
        return [
            line("cache store original", [stored]),
            line("cache variant \(target), first request", [made]),
            line("cache variant \(target), later request", again, [("cost_vs_bitmap", ratio)]),
            line("cache bitmap of the same PNG", baseline),
        ]
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
}
