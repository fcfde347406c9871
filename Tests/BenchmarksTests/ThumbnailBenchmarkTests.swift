import Benchmarks
import Foundation
import TestSupport
import Testing

/// `imagecache bench thumbnail` on the smoke preset (128 × 128 fitted to 32 and 50): the lines it
/// prints, with Pillow's when Pillow is installed and none otherwise. Timings are never asserted.
@Suite struct ThumbnailBenchmarkTests {
    @Test func smokeRunReportsOursAndPillowOnlyWhenInstalled() throws {
        let scratch = TemporaryDirectory()
        var options = BenchOptions(quick: true, scratchDirectory: scratch.url)
        options.preset = .smoke
        let all = try ThumbnailBenchmark.run(options)
        for result in all { try JSONLineCheck.check(result.jsonLine) }
        // The cache path (Spec/thumbnail.md §5) comes last, on the log backend.
        let cachePath = all.filter { $0.backend == "log" }
        #expect(
            cachePath.map(\.op) == [
                "cache store original", "cache variant 32, first request", "cache variant 32, later request",
                "cache bitmap of the same PNG",
            ])
        #expect((cachePath[2].extra.first { $0.0 == "cost_vs_bitmap" }?.1 ?? 0) > 0)
        let results = all.filter { $0.backend != "log" }
        #expect(
            results.allSatisfy { $0.suite == "thumbnail" && $0.bytes == 128 * 128 * 4 && $0.repeats == 1 })
        #expect(results.allSatisfy { $0.extra.contains { $0.0 == "pixels_per_s" && $0.1 > 0 } })

        let ours = results.filter { $0.backend == "imagecache" }
        #expect(ours.map(\.op) == ["fit 32", "fit 50"])
        let pillow = results.filter { $0.backend?.hasPrefix("pillow ") == true }
        #expect(ours.count + pillow.count == results.count)
        if ThumbnailBenchmarkTests.pillowIsInstalled() {
            // BOX for both sizes, reduce(4) for 32 only: 50 does not divide 128.
            #expect(pillow.map(\.op) == ["fit 32", "fit 32", "fit 50"])
            #expect(pillow.map { $0.backend!.hasSuffix(" resize BOX") } == [true, false, true])
            #expect(
                ours[0].extra.map(\.0) == [
                    "pixels_per_s", "speedup_vs_pillow_box", "speedup_vs_pillow_reduce",
                ])
            #expect(ours[1].extra.map(\.0) == ["pixels_per_s", "speedup_vs_pillow_box"])
        } else {
            #expect(pillow.isEmpty)
            #expect(ours.allSatisfy { $0.extra.map(\.0) == ["pixels_per_s"] })
        }
        // The pixel file is gone with the suite's scratch folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    static func pillowIsInstalled() -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import PIL"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
