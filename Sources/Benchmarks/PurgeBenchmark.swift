import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import Platform
#endif

/// Experiment 4: purging a store in which half of the entries have expired, on every backend:
/// how long it takes and how much disk space it gives back.
///
/// Each repeat builds its own store (untimed) with a hand-driven clock: half of the entries are
/// stored at t0, the clock moves forward by the time-to-live, the other half is stored, and the
/// store is synchronized; so exactly the first half has expired (`now >= expiresAt`). Nothing
/// sleeps. Then two timed steps, each followed by a measurement of the bytes allocated on disk:
///
/// - purge: `purgeExpired()` then `synchronize()`; it must remove exactly half of the entries;
/// - compact: `compact()` then `synchronize()`, which gives the space of removed entries back
///   where the purge alone does not (an append-only log, for example).
public enum PurgeBenchmark {
    public static let suite = BenchSuite(
        name: "purge",
        summary: "purge with half of the entries expired: time and bytes reclaimed, every backend",
        run: run)

    /// The time the clock starts at (2023-11-14 22:13:20 UTC) and the time-to-live: one hour.
    static let startTime: Int64 = 1_700_000_000_000
    static let timeToLive: Int64 = 3_600_000

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let preset = options.preset
        let entries = preset.purgeEntries
        let expired = entries / 2
        let scratch = try ScratchSpace(options, suite: "purge")
        defer { scratch.removeAll() }
        options.progress.begin("purge")
        var results: [BenchmarkResult] = []
        for subject in try BenchmarkSubjects.selected(options) {
            var reclaimedByPurge: [Double] = []
            var reclaimedByCompact: [Double] = []
            let sampler = preset.sampler(heavy: true)
            let phases = try sampler.measurePhases { index, timer in
                options.progress.update(
                    "\(subject.name), \(entries) entries, repeat \(index + 1)", done: index + 1,
                    of: sampler.repeats)
                let directory = scratch.directory(subject.name)
                let reclaimed = try purgeOnce(subject, directory, preset, timer: &timer)
                reclaimedByPurge.append(Double(reclaimed.byPurge))
                reclaimedByCompact.append(Double(reclaimed.byCompact))
                try scratch.remove(directory)
            }
            for (phase, summary) in phases {
                let reclaimed = phase == "purge" ? reclaimedByPurge : reclaimedByCompact
                results.append(
                    BenchmarkResult(
                        suite: "purge", op: phase, backend: subject.name,
                        bytes: expired * preset.purgeValueSize,
                        count: expired, seconds: summary.median, spread: summary.spread,
                        repeats: summary.samples.count,
                        extra: [
                            ("entries", Double(entries)), ("value_bytes", Double(preset.purgeValueSize)),
                            ("bytes_reclaimed", Summary.percentile(0.5, of: reclaimed)),
                        ]))
            }
        }
        options.progress.clear()
        return results
    }

    /// One repeat: fills a store in `directory`, times the purge and the compaction, and returns
    /// the bytes each gave back. The store is closed when this returns.
    private static func purgeOnce(
        _ subject: BenchmarkSubject, _ directory: URL, _ preset: BenchmarkPreset, timer: inout PhaseTimer
    ) throws -> (byPurge: Int, byCompact: Int) {
        let entries = preset.purgeEntries
        let expired = entries / 2
        let clock = ManualClock(milliseconds: startTime)
        let opened = try subject.open(
            StoreSettings(directory: directory, timeToLive: timeToLive, clock: clock))
        guard let store = opened as? any BenchmarkExpiringStore else {
            throw BenchmarkError.verificationFailed(
                suite: "purge", backend: subject.name, detail: "the store cannot expire entries")
        }
        for index in 0..<entries {
            if index == expired { clock.advance(by: timeToLive) }
            try store.store(
                SampleData.bytes(count: preset.purgeValueSize, seed: UInt64(index)),
                forKey: SampleData.key("p", index))
        }
        try store.synchronize()
        let before = try diskBytes(under: directory)
        let removed = try timer.time("purge") {
            let removed = try store.purgeExpired()
            try store.synchronize()
            return removed
        }
        guard removed == expired, store.count == entries - expired else {
            throw BenchmarkError.verificationFailed(
                suite: "purge", backend: subject.name,
                detail: "purge removed \(removed) entries and left \(store.count); "
                    + "expected \(expired) and \(entries - expired)")
        }
        let afterPurge = try diskBytes(under: directory)
        try timer.time("compact") {
            try store.compact()
            try store.synchronize()
        }
        let afterCompact = try diskBytes(under: directory)
        try store.close()
        return (before - afterPurge, afterPurge - afterCompact)
    }

    /// The blocks the store's folder takes on the disk (``FileSystem/allocatedBytes(under:)``).
    static func diskBytes(under directory: URL) throws(BenchmarkError) -> Int {
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            Int(clamping: try FileSystem.allocatedBytes(under: directory.path))
        }
    }
}
