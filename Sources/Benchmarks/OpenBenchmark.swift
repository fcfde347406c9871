import Foundation

/// Experiment 3: how long opening a store takes as it grows (1,000, 10,000 and 100,000 entries),
/// on every backend, with the raw-file baseline (list and stat every file) as the reference.
///
/// Each subject's store grows in one directory: filled (untimed) with distinct values of
/// `openValueSize` bytes up to the first count, measured, grown to the next count, measured
/// again, so the fills cost 100,000 stores rather than 111,000. Every repeat opens the store
/// afresh and checks the entry count, untimed.
public enum OpenBenchmark {
    public static let suite = BenchSuite(
        name: "open", summary: "open time by entry count (1k, 10k, 100k), every backend and raw files",
        run: run)

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let preset = options.preset
        let subjects = try BenchmarkSubjects.selectedWithBaseline(options)
        let scratch = try ScratchSpace(options, suite: "open")
        defer { scratch.removeAll() }
        options.progress.begin("open")
        var results: [BenchmarkResult] = []
        for subject in subjects {
            let directory = scratch.directory(subject.name)
            var filled = 0
            for entries in preset.openCounts.sorted() {
                try fill(
                    subject, directory, filled..<entries, valueSize: preset.openValueSize, options.progress)
                filled = entries
                options.progress.update("opening \(subject.name) with \(entries) entries")
                let phases = try preset.sampler().measurePhases { _, timer in
                    let store = try timer.time("open") {
                        try subject.open(StoreSettings(directory: directory))
                    }
                    guard store.count == entries else {
                        throw BenchmarkError.verificationFailed(
                            suite: "open", backend: subject.name,
                            detail: "opened with \(store.count) entries instead of \(entries)")
                    }
                    try store.close()
                }
                for (phase, summary) in phases {
                    results.append(
                        BenchmarkResult(
                            suite: "open", op: phase, backend: subject.name,
                            bytes: entries * preset.openValueSize,
                            count: entries, seconds: summary.median, spread: summary.spread,
                            repeats: summary.samples.count,
                            extra: [("value_bytes", Double(preset.openValueSize))]))
                }
            }
            try scratch.remove(directory)
        }
        options.progress.clear()
        return results
    }

    /// Opens the store in `directory` (creating it), stores the distinct values numbered
    /// `indices`, and closes it.
    ///
    /// Closing, not synchronizing: the cache's `close()` makes its files complete for the next
    /// open, and the raw-file baseline's synchronize would fsync every one of 100,000 files,
    /// which costs minutes on a busy disk and measures nothing here.
    static func fill(
        _ subject: BenchmarkSubject, _ directory: URL, _ indices: Range<Int>, valueSize: Int,
        _ progress: ProgressLine
    ) throws {
        let store = try subject.open(StoreSettings(directory: directory))
        for index in indices {
            if index % 1000 == 0 {
                progress.update("filling \(subject.name)", done: index, of: indices.upperBound)
            }
            try store.store(
                SampleData.bytes(count: valueSize, seed: UInt64(index)), forKey: SampleData.key("o", index))
        }
        try store.close()
    }
}
