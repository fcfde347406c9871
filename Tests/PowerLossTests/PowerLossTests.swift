import Foundation
import ImageCacheKit
import Platform
import TestSupport
import Testing

/// The power-loss simulator (`Spec/backends.md` §8): a workload runs on each backend with
/// every system call recorded; after every call, the disk states a power cut could leave are
/// rebuilt under both file-system models and opened, and every read is checked.
///
/// Each crash point gets the state where every unsynchronized change is lost, the state where
/// every change survived (what a killed process leaves), and seeded random states in between.
/// `IMAGECACHE_POWER_LOSS_STATES=N` asks for N random states per crash point (default 8) and
/// `IMAGECACHE_POWER_LOSS_SEED` for another seed: the long local mode.
@Suite("Power loss")
struct PowerLossTests {
    static let randomStates =
        ProcessInfo.processInfo.environment["IMAGECACHE_POWER_LOSS_STATES"].flatMap(Int.init) ?? 8
    static let seed =
        ProcessInfo.processInfo.environment["IMAGECACHE_POWER_LOSS_SEED"].flatMap(UInt64.init) ?? 1

    @Test(
        "every value synchronize() returned for survives a power cut after any call, and the cache opens",
        arguments: Backend.allCases, FileSystemModel.allCases)
    func cacheSurvivesPowerCuts(backend: Backend, model: FileSystemModel) throws {
        let temporary = TemporaryDirectory()
        let scratch = temporary.path
        try FileManager.default.createDirectory(
            atPath: scratch + "/recorded", withIntermediateDirectories: true)
        let settings = CacheWorkloadSettings(backend: backend)
        let run = try CacheWorkloadRun(
            settings: settings, steps: PowerLossScript.steps(for: backend), root: scratch + "/recorded")
        let report = Simulation.run(
            calls: run.recorder.calls, initialItems: run.recorder.initialItems, model: model,
            randomStates: Self.randomStates, seed: Self.seed ^ UInt64(backend.hashValue & 0xFFFF),
            expectation: run.expectation(afterCalls:)
        ) { image, expectation in
            StateCheck.problems(of: image, expectation: expectation, settings: settings, scratch: scratch)
        }
        print("power loss, \(backend), \(model): \(report.summary)")
        if let folder = ProcessInfo.processInfo.environment["IMAGECACHE_POWER_LOSS_REPORT"] {
            let text = report.findings.joined(separator: "\n\n")
            try? text.write(toFile: folder + "/\(backend)-\(model).txt", atomically: true, encoding: .utf8)
        }
        if let first = report.findings.first {
            Issue.record("\(report.findings.count) crash states failed; the first:\n\(first)")
        }
    }
}

/// The workloads: every operation whose write order matters, on every backend.
enum PowerLossScript {
    /// Whose fsync fails in a step of failing fsyncs: the file a synchronize makes durable first
    /// (for the hybrid backend, an external file, then the log).
    static func failingFile(_ backend: Backend, first: Bool) -> FailingFsyncs {
        switch backend {
        case .dictionary: .files(containing: "cache.dictionary")
        case .directory: .files(containing: "entries/")
        case .log: .files(containing: "cache.log")
        case .hybrid: .files(containing: first ? "external/" : "hybrid.log")
        }
    }

    /// Steps whose folder fsyncs fail (`Spec/backends.md` §8.10: a folder's failed fsync is
    /// made again, never taken as done): the names a synchronize made (the dictionary file or
    /// index that took its name, new entry and external files), and the log's new name after a
    /// compaction, each followed by a synchronize that must make them durable.
    static func failingFolderSteps(_ backend: Backend) -> [CacheStep] {
        let cacheFolder = FailingFsyncs.folder(endingWith: "/caches/app")
        switch backend {
        case .dictionary:
            return [
                .store(key: "k", size: 1_500), .synchronizeDespiteFailingFsyncs(count: 1, of: cacheFolder),
            ]
        case .directory:
            return [
                .store(key: "k", size: 1_500),
                .synchronizeDespiteFailingFsyncs(count: 1, of: .folder(endingWith: "/entries")),
                .remove("k"), .store(key: "l", size: 1_200),
                .synchronizeDespiteFailingFsyncs(count: 1, of: cacheFolder),
            ]
        case .log:
            return [
                .store(key: "k", size: 1_500), .remove("i"), .compactDespiteAFailingFsync(of: cacheFolder),
                .store(key: "l", size: 1_200), .synchronize,
            ]
        case .hybrid:
            return [
                .store(key: "k", size: 1_500), .store(key: "big11", size: 13_000),
                .synchronizeDespiteFailingFsyncs(count: 1, of: .folder(endingWith: "/external")),
                .remove("i"), .compactDespiteAFailingFsync(of: cacheFolder),
                .store(key: "l", size: 1_200), .synchronize,
            ]
        }
    }

    /// How many fsyncs fail in the second such step: the file's, then every rewrite of it in
    /// that synchronize (a new temporary file is tried twice, a new log once), so that the
    /// next synchronize() must rewrite it.
    static func failuresOutlastingTheRewrite(_ backend: Backend) -> Int {
        backend == .directory ? 3 : 2
    }

    static func steps(for backend: Backend) -> [CacheStep] {
        // The log's write buffer is 1 MiB; filling it flushes records (a reference among them)
        // before any synchronize(). Other backends need only a few stores here.
        let fillCount = backend == .log || backend == .hybrid ? 150 : 6
        return [
            .open,
            .store(key: "a", size: 300), .store(key: "b", size: 2_000), .store(key: "c", size: 5_000),
            .store(key: "d", size: 100), .store(key: "big1", size: 20_000), .storeImage(key: "img", side: 24),
            .synchronize,
            // Overwrites, small and large; a removal; a hit.
            .store(key: "a", size: 700), .store(key: "big1", size: 24_000), .remove("b"),
            .store(key: "big2", size: 30_000), .read("c"),
            .synchronize,
            // Compaction with an external file written since the last synchronize().
            .store(key: "big1", size: 18_000), .remove("c"), .compact,
            // A large value, then enough small ones to flush the write buffer before a sync;
            // reads keep the large value recent, so the limit evicts the small ones instead.
            .store(key: "big2", size: 22_000),
        ]
            + (0..<fillCount).flatMap { index -> [CacheStep] in
                [.store(key: "fill\(index)", size: 7_000)] + (index % 8 == 7 ? [.read("big2")] : [])
            }
            + [
                .synchronize,
                .remove("a"), .synchronize,
                // Overwriting a synchronized value; a variant.
                .store(key: "d", size: 900), .storeImage(key: "img", side: 24),
                .variant(key: "img", size: 16),
                // Replacing an original with a variant removes the variant; a new one follows.
                .storeImage(key: "img", side: 20), .variant(key: "img", size: 16),
                .synchronize,
                // Expiry: d is read (extended), e stored later; the rest expires and is purged.
                .advance(milliseconds: 3_000_000), .read("d"), .store(key: "e", size: 400),
                .advance(milliseconds: 1_000_000), .purge, .synchronize,
                // Eviction: more than maximumBytes of large values.
                .store(key: "big3", size: 40_000), .store(key: "big4", size: 40_000),
                .store(key: "big5", size: 40_000),
                .store(key: "big6", size: 40_000), .store(key: "big7", size: 40_000), .synchronize,
                .removeAll, .store(key: "f", size: 500), .synchronize,
                // A failed fsync: what it was to make durable is written again (§8.10), at once,
                // or, when that fails too, by the next synchronize().
                .store(key: "i", size: 3_000), .store(key: "big9", size: 16_000),
                .synchronizeDespiteFailingFsyncs(count: 1, of: failingFile(backend, first: true)),
                .store(key: "j", size: 2_500), .store(key: "big10", size: 15_000),
                .synchronizeDespiteFailingFsyncs(
                    count: failuresOutlastingTheRewrite(backend), of: failingFile(backend, first: false)),
            ]
            + failingFolderSteps(backend)
            + [
                .store(key: "g", size: 600), .close,
                .open, .store(key: "h", size: 800), .store(key: "big8", size: 12_000), .synchronize, .close,
            ]
    }
}
