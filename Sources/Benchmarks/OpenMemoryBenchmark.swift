import Foundation
import ImageCacheKit

/// Opening a large cache against opening its log store alone, in time and peak memory: the
/// cost of the cache layer at start-up (issue 11: the cache must stay within 1.5× of the store).
///
/// One cache on the log backend is filled (untimed) with `openMemoryEntries` entries of 29-byte
/// keys and 64-byte values, and closed, which writes the index snapshot. Then each repeat starts
/// a fresh child process (`imagecache-bench-probe`, `Sources/BenchProbe`) that opens either the cache or the cache's
/// `cache.log` as a bare `LogStore`, checks the entry count, and reports the time the open
/// took and the process's peak resident memory, which a child must measure alone because a
/// process's peak only ever grows. The child reads its own peak (`VmHWM` on Linux): Linux's
/// `ru_maxrss` would start at the parent's resident memory, which after filling the cache is
/// larger than the open being measured. Both opens use the same file and the same
/// snapshot. Ops: `open_store` and `open_cache`, with `peak_rss_bytes`; the cache's rows carry
/// `time_ratio` and `memory_ratio` over the store's.
public enum OpenMemoryBenchmark {
    public static let suite = BenchSuite(
        name: "open-memory",
        summary: "cache open vs its LogStore alone at 1,000,000 entries: time and peak memory",
        run: run)

    /// The entry count: a million in the full run, a tenth of that with --quick.
    static func entries(_ options: BenchOptions) -> Int {
        switch options.preset.name {
        case "full": 1_000_000
        case "quick": 100_000
        default: 2_000
        }
    }

    /// A 29-byte key, as the issue measured.
    static func key(_ index: Int) -> String {
        let digits = String(index)
        return "https://cdn.example/i/" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let count = entries(options)
        let scratch = try ScratchSpace(options, suite: "open-memory")
        defer { scratch.removeAll() }
        let folder = scratch.directory("log")
        options.progress.begin("open-memory")
        do {
            let cache = try ImageCache(configuration: CacheConfiguration(directory: folder, backend: .log))
            for index in 0..<count {
                if index % 10_000 == 0 { options.progress.update("filling", done: index, of: count) }
                try cache.store(SampleData.bytes(count: 64, seed: UInt64(index)), forKey: key(index))
            }
            try cache.close()
        }
        var samples: [String: (seconds: [Double], memory: [Double])] = [:]
        let sampler = options.preset.sampler()
        for round in (sampler.warmUp ? -1 : 0)..<sampler.repeats {
            for probe in ["open-store", "open-cache"] {
                options.progress.update("\(probe), repeat \(round + 1)", done: round + 1, of: sampler.repeats)
                let outcome = try runProbe(probe, folder: folder, expected: count)
                if round >= 0 {
                    samples[probe, default: ([], [])].seconds.append(outcome.seconds)
                    samples[probe, default: ([], [])].memory.append(outcome.peakBytes)
                }
            }
        }
        options.progress.clear()
        var results: [BenchmarkResult] = []
        let store = samples["open-store"].map { (Summary(samples: $0.seconds), Summary(samples: $0.memory)) }
        for (probe, op) in [("open-store", "open_store"), ("open-cache", "open_cache")] {
            guard let measured = samples[probe] else { continue }
            let time = Summary(samples: measured.seconds)
            let memory = Summary(samples: measured.memory)
            var extra: [(String, Double)] = [("peak_rss_bytes", memory.median), ("key_bytes", 29)]
            if op == "open_cache", let store, store.0.median > 0, store.1.median > 0 {
                extra.append(("time_ratio", time.median / store.0.median))
                extra.append(("memory_ratio", memory.median / store.1.median))
            }
            results.append(
                BenchmarkResult(
                    suite: "open-memory", op: op, backend: "log", bytes: count * 64, count: count,
                    seconds: time.median, spread: time.spread, repeats: measured.seconds.count, extra: extra))
        }
        return results
    }

    /// Starts `imagecache-bench-probe PROBE FOLDER EXPECTED` and reads its one line.
    static func runProbe(_ probe: String, folder: URL, expected: Int) throws -> (
        seconds: Double, peakBytes: Double
    ) {
        let process = Process()
        process.executableURL = try probeExecutable()
        process.arguments = [probe, folder.path, String(expected)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0, fields.count == 2 else {
            throw BenchmarkError.verificationFailed(
                suite: "open-memory", backend: "log",
                detail: "\(probe) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return (fields[0], fields[1])
    }

    /// The name of the probe's executable, built beside `imagecache`.
    static let probeName = "imagecache-bench-probe"

    /// The probe beside this executable (`imagecache`), or beside the test bundle's folders
    /// when the suite runs in the tests.
    static func probeExecutable() throws -> URL {
        try siblingExecutable(probeName, suite: "open-memory")
    }

    /// The executable `name` beside this one (`imagecache`), or beside the test bundle's
    /// folders when a suite runs in the tests.
    static func siblingExecutable(_ name: String, suite: String) throws -> URL {
        let this = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var directory = this.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw BenchmarkError.verificationFailed(
            suite: suite, backend: "log",
            detail: "no \(name) beside \(this.path) to run (swift build builds it)")
    }
}
