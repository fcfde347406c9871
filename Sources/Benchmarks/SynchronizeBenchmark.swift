import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

/// Experiment 1: the seeds' store-then-synchronize protocol, for X = 10, 100 and 1000 items on
/// every backend, once with images and once with raw data.
///
/// Before the repeats, X distinct images (RGBA, 8 bits, `imageSide` square, noise from a fixed
/// seed) are encoded to PNG, untimed: that is the data as it would arrive from a server. Each
/// repeat opens an empty store (untimed) and times these steps:
///
/// 1. `build` (images only): decode the X PNG files into X distinct bitmaps, so no store can
///    answer from an object it has seen before;
/// 2. `store`: store all X (images: the cache encodes each to PNG);
/// 3. `synchronize`: one synchronize;
/// 4. `load`: load all X (images: the cache decodes each), checking every one came back;
/// 5. `clear_synchronize`: remove everything, then synchronize;
/// 6. `store_synchronize`: store and synchronize X times, one item at a time.
///
/// Raw data stores the PNG files' bytes as they are, so the two variants differ by exactly the
/// codec. The raw variant also runs on the raw-file baseline.
///
/// After step 6, untimed, the store reports its value bytes and the bytes its files take on
/// disk (`CacheStatistics.diskBytes` for the cache): the `store_synchronize` result carries
/// them as `stored_bytes` and `disk_bytes`, so each backend's overhead on disk can be read off.
public enum SynchronizeBenchmark {
    public static let suite = BenchSuite(
        name: "sync",
        summary: "the seeds' store-then-synchronize protocol, X = 10/100/1000, images and raw data",
        run: run)

    /// The two kinds of data, in the order they run.
    package enum Variant: String, CaseIterable {
        case images, raw
    }

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let preset = options.preset
        let scratch = try ScratchSpace(options, suite: "sync")
        defer { scratch.removeAll() }
        options.progress.begin("sync")
        let backends = try BenchmarkSubjects.selected(options)
        let everything = try BenchmarkSubjects.selectedWithBaseline(options)
        var results: [BenchmarkResult] = []
        for items in preset.protocolCounts {
            let files = try (0..<items).map { index in
                try PNGEncoder.encode(SampleData.bitmap(side: preset.imageSide, seed: UInt64(index)))
            }
            let pixelBytes = preset.imageSide * preset.imageSide * 4
            // The largest X is the heavy case: its one-at-a-time step dominates the whole run.
            let sampler = preset.sampler(heavy: items == preset.protocolCounts.max())
            for variant in Variant.allCases {
                for subject in variant == .images ? backends : everything {
                    // Every repeat stores the same data and takes about the same space; the
                    // last repeat's figures are reported.
                    var usage = DiskUsage(valueBytes: 0, diskBytes: 0)
                    let phases = try sampler.measurePhases { index, timer in
                        options.progress.update(
                            "\(variant.rawValue), X = \(items), \(subject.name), repeat \(index + 1)",
                            done: index + 1, of: sampler.repeats)
                        let directory = scratch.directory("\(subject.name)-\(variant.rawValue)-\(items)")
                        usage = try runProtocol(subject, directory, variant, files, timer: &timer)
                        try scratch.remove(directory)
                    }
                    let valueBytes = variant == .images ? pixelBytes : files[0].count
                    for (phase, summary) in phases {
                        let perItem = !["synchronize", "clear_synchronize"].contains(phase)
                        var extra = [("items", Double(items)), ("value_bytes", Double(valueBytes))]
                        if phase == "store_synchronize" {
                            extra += [
                                ("stored_bytes", Double(usage.valueBytes)),
                                ("disk_bytes", Double(usage.diskBytes)),
                            ]
                        }
                        results.append(
                            BenchmarkResult(
                                suite: "sync", op: phase, backend: subject.name, variant: variant.rawValue,
                                bytes: perItem ? items * valueBytes : 0, count: perItem ? items : 1,
                                seconds: summary.median, spread: summary.spread,
                                repeats: summary.samples.count,
                                extra: extra))
                    }
                }
            }
        }
        options.progress.clear()
        return results
    }

    /// One repeat of the protocol on a new store in `directory`; the store is closed on return.
    /// - Returns: what the store held and took on disk after the last step.
    private static func runProtocol(
        _ subject: BenchmarkSubject, _ directory: URL, _ variant: Variant, _ files: [[UInt8]],
        timer: inout PhaseTimer
    ) throws -> DiskUsage {
        let store = try subject.open(StoreSettings(directory: directory))
        switch variant {
        case .images:
            guard let images = store as? any BenchmarkImageStore else {
                throw BenchmarkError.verificationFailed(
                    suite: "sync", backend: subject.name, detail: "the store cannot hold images")
            }
            let bitmaps = try timer.time("build") {
                try files.map { try PNGDecoder().decodeBitmap($0) }
            }
            try runSteps(
                subject, store, bitmaps, put: { try images.store($0, forKey: $1) },
                get: { try images.bitmap(forKey: $0) }, timer: &timer)
        case .raw:
            try runSteps(
                subject, store, files, put: { try store.store($0, forKey: $1) },
                get: { try store.value(forKey: $0) }, timer: &timer)
        }
        let usage = try store.diskUsage()
        try store.close()
        return usage
    }

    /// Steps 2 to 6 for values of any kind, checking every result outside the timed sections.
    private static func runSteps<Value: Equatable>(
        _ subject: BenchmarkSubject, _ store: any BenchmarkStore, _ values: [Value],
        put: (Value, String) throws -> Void, get: (String) throws -> Value?, timer: inout PhaseTimer
    ) throws {
        func check(_ condition: Bool, _ detail: @autoclosure () -> String) throws {
            guard condition else {
                throw BenchmarkError.verificationFailed(
                    suite: "sync", backend: subject.name, detail: detail())
            }
        }
        let keys = values.indices.map { SampleData.key("s", $0) }
        try timer.time("store") {
            for (value, key) in zip(values, keys) { try put(value, key) }
        }
        try timer.time("synchronize") { try store.synchronize() }
        let loaded = try timer.time("load") { try keys.map(get) }
        try check(loaded == values.map { $0 }, "an item loaded back differs from the one stored")
        try check(store.count == values.count, "\(store.count) items after storing \(values.count)")
        try timer.time("clear_synchronize") {
            try store.removeAll()
            try store.synchronize()
        }
        try check(store.count == 0, "\(store.count) items left after clearing")
        try timer.time("store_synchronize") {
            for (value, key) in zip(values, keys) {
                try put(value, key)
                try store.synchronize()
            }
        }
        try check(
            store.count == values.count, "\(store.count) items after storing \(values.count) one at a time")
    }
}
