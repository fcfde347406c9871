import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import Platform
#endif

/// The price of durability (`Spec/backends.md` §8.7): one change, then `synchronize()`, on
/// every backend, with the synchronizations (`fsync`, `fdatasync`) each took.
///
/// Each repeat opens a cache holding 100 synchronized 4 KiB values (untimed), then times, one
/// after the other, `rounds` times each:
///
/// - `sync_new`: store a new 4 KiB value, synchronize;
/// - `sync_overwrite`: replace a synchronized 4 KiB value, synchronize;
/// - `sync_remove`: remove a synchronized value, synchronize;
/// - `sync_large`: store a new 256 KiB value (an external file on `hybrid`), synchronize;
/// - `sync_nothing`: synchronize with nothing changed.
///
/// Every result carries `fsyncs_per_op`, counted by Platform's ``SynchronizationCounter``. The
/// values are checked after the timed part.
public enum DurabilityBenchmark {
    public static let suite = BenchSuite(
        name: "durability",
        summary: "the cost of synchronize() after one change, and its fsyncs, per backend",
        run: run)

    static let operations = ["sync_new", "sync_overwrite", "sync_remove", "sync_large", "sync_nothing"]

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let scratch = try ScratchSpace(options, suite: "durability")
        defer { scratch.removeAll() }
        let rounds = options.quick ? 20 : 100
        let repeats = options.preset.repeats
        var results: [BenchmarkResult] = []
        for subject in try BenchmarkSubjects.selected(options) {
            guard let backend = Backend(rawValue: subject.name) else { continue }
            var samples: [String: [Double]] = [:]
            var fsyncs: [String: Int] = [:]
            for repeatIndex in 0..<repeats {
                options.progress.update(
                    "\(subject.name), repeat \(repeatIndex + 1)", done: repeatIndex + 1, of: repeats)
                let directory = scratch.directory("\(subject.name)-\(repeatIndex)")
                let measured = try measure(backend, directory, rounds: rounds, subject: subject.name)
                for (operation, seconds, count) in measured {
                    samples[operation, default: []].append(seconds / Double(rounds))
                    fsyncs[operation, default: 0] += count
                }
                try scratch.remove(directory)
            }
            for operation in operations {
                let summary = Summary(samples: samples[operation] ?? [])
                let bytes = operation == "sync_large" ? 256 << 10 : operation == "sync_nothing" ? 0 : 4 << 10
                results.append(
                    BenchmarkResult(
                        suite: "durability", op: operation, backend: subject.name, bytes: bytes, count: 1,
                        seconds: summary.median, spread: summary.spread, repeats: summary.samples.count,
                        extra: [("fsyncs_per_op", Double(fsyncs[operation] ?? 0) / Double(rounds * repeats))])
                )
            }
        }
        options.progress.clear()
        return results
    }

    /// One repeat: each operation `rounds` times; its total seconds and synchronizations.
    private static func measure(_ backend: Backend, _ directory: URL, rounds: Int, subject: String) throws
        -> [(String, Double, Int)]
    {
        let cache = try ImageCache(
            configuration: CacheConfiguration(directory: directory, backend: backend))
        defer { try? cache.close() }
        let small = SampleData.bytes(count: 4 << 10, seed: 1)
        let large = SampleData.bytes(count: 256 << 10, seed: 2)
        for index in 0..<100 { try cache.store(small, forKey: SampleData.key("base", index)) }
        try cache.synchronize()
        var measured: [(String, Double, Int)] = []
        func time(_ operation: String, _ body: (Int) throws -> Void) throws {
            let before = SynchronizationCounter.count
            let start = MonotonicClock.now()
            for round in 0..<rounds {
                try body(round)
                try cache.synchronize()
            }
            measured.append(
                (operation, MonotonicClock.seconds(since: start), SynchronizationCounter.count - before))
        }
        let replacement = SampleData.bytes(count: 4 << 10, seed: 3)
        try time("sync_new") { try cache.store(small, forKey: SampleData.key("new", $0)) }
        try time("sync_overwrite") { try cache.store(replacement, forKey: SampleData.key("base", $0)) }
        try time("sync_remove") { _ = try cache.removeValue(forKey: SampleData.key("new", $0)) }
        try time("sync_large") { try cache.store(large, forKey: SampleData.key("large", $0)) }
        try time("sync_nothing") { _ in }
        let checked =
            try cache.bytes(forKey: SampleData.key("base", 0)) == replacement
            && cache.bytes(forKey: SampleData.key("large", rounds - 1)) == large
            && cache.bytes(forKey: SampleData.key("new", 0)) == nil
        guard checked else {
            throw BenchmarkError.verificationFailed(
                suite: "durability", backend: subject, detail: "a value read back after the run differs")
        }
        return measured
    }
}
