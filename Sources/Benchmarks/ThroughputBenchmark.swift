import Foundation

/// Experiment 2: read and write throughput by value size, 4 KiB to 64 MiB in powers of 4, on
/// every backend and on the raw-file baseline in the same run.
///
/// - write: open an empty store (untimed), then store `count` distinct values and synchronize.
/// - read: reopen the filled store (untimed, so no backend answers from the memory of the
///   writes), then read every value back.
///
/// `count` is `BenchmarkPreset.throughputCount(forSize:)`, so every size moves about the same
/// bytes. Sizes run in the outer loop and subjects in the inner one, so a noisy moment on the
/// shared machine hits all subjects of one size rather than one subject's whole curve.
public enum ThroughputBenchmark {
    public static let suite = BenchSuite(
        name: "throughput",
        summary: "read/write MB/s by value size, 4 KiB to 64 MiB, every backend and raw files",
        run: run)

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let preset = options.preset
        let subjects = try BenchmarkSubjects.selectedWithBaseline(options)
        let scratch = try ScratchSpace(options, suite: "throughput")
        defer { scratch.removeAll() }
        options.progress.begin("throughput")
        var results: [BenchmarkResult] = []
        var step = 0
        for size in preset.throughputSizes {
            let count = preset.throughputCount(forSize: size)
            let values = (0..<count).map {
                SampleData.bytes(count: size, seed: UInt64(size) << 20 | UInt64($0))
            }
            let sampler = preset.sampler()
            for subject in subjects {
                step += 1
                options.progress.update(
                    "\(subject.name), \(Formatting.bytes(size)) values", done: step,
                    of: subjects.count * preset.throughputSizes.count)
                let write = try sampler.measurePhases { _, timer in
                    let directory = scratch.directory("\(subject.name)-write")
                    try fill(subject, directory, values, timer: &timer)
                    try scratch.remove(directory)
                }
                let directory = scratch.directory("\(subject.name)-read")
                var untimed = PhaseTimer()
                try fill(subject, directory, values, timer: &untimed)
                let read = try sampler.measurePhases { _, timer in
                    let store = try subject.open(StoreSettings(directory: directory))
                    try timer.time("read") {
                        for index in 0..<count {
                            let value = try store.value(forKey: SampleData.key("t", index))
                            guard value?.count == size else {
                                throw BenchmarkError.verificationFailed(
                                    suite: "throughput", backend: subject.name,
                                    detail: "value \(index) of \(Formatting.bytes(size)) came back with "
                                        + "\(value.map { "\($0.count) bytes" } ?? "nothing")")
                            }
                        }
                    }
                    try store.close()
                }
                try verify(subject, directory, values)
                try scratch.remove(directory)
                for (phase, summary) in write + read {
                    results.append(
                        BenchmarkResult(
                            suite: "throughput", op: phase, backend: subject.name, bytes: size * count,
                            count: count, seconds: summary.median, spread: summary.spread,
                            repeats: summary.samples.count, extra: [("value_bytes", Double(size))]))
                }
            }
        }
        options.progress.clear()
        return results
    }

    /// Opens an empty store in `directory` and times storing `values` and synchronizing as `write`.
    private static func fill(
        _ subject: BenchmarkSubject, _ directory: URL, _ values: [[UInt8]], timer: inout PhaseTimer
    ) throws {
        let store = try subject.open(StoreSettings(directory: directory))
        try timer.time("write") {
            for (index, value) in values.enumerated() {
                try store.store(value, forKey: SampleData.key("t", index))
            }
            try store.synchronize()
        }
        try store.close()
    }

    /// Checks, untimed, that every value reads back byte for byte.
    private static func verify(_ subject: BenchmarkSubject, _ directory: URL, _ values: [[UInt8]]) throws {
        let store = try subject.open(StoreSettings(directory: directory))
        for (index, value) in values.enumerated()
        where try store.value(forKey: SampleData.key("t", index)) != value {
            throw BenchmarkError.verificationFailed(
                suite: "throughput", backend: subject.name,
                detail: "value \(index) differs from what was stored")
        }
        try store.close()
    }
}
