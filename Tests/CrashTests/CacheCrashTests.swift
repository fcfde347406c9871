import Foundation
import ImageCacheKit
import TestSupport
import Testing
import TortureWorkload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash safety of every backend, with real processes (`Spec/backends.md`, `Spec/cache.md`
/// §5.5): a child runs a random workload of stores, removes, reads, synchronizes, compactions
/// and purges and is killed with SIGKILL at a random moment, again and again on the same folder.
@Suite(.serialized) struct CacheCrashTests {
    /// Children killed per backend; a child that finishes its workload before the kill adds a
    /// round, up to half as many again.
    static let kills = 100

    /// After every kill: every key reads back the value it had when the child last reported a
    /// synchronize, or a value a later operation stored (or is absent when a later operation
    /// removed it); no value is ever wrong or damaged; the cache's byte total is the sum of the
    /// values; and no file outside the cache folder changes, not even through a symbolic link
    /// planted inside it.
    @Test(arguments: Backend.allCases)
    func everySynchronizedValueSurvivesSIGKILL(backend: Backend) throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.url.appendingPathComponent("cache", isDirectory: true)
        let outside = scratch.url.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        for index in 0..<5 {
            try Data("not the cache's \(index)".utf8).write(
                to: outside.appendingPathComponent("file-\(index)"))
        }
        let untouched = try snapshotOfFiles(under: outside)
        var random = TortureWorkload.SplitMix(state: 0xC0FFEE ^ UInt64(backend.rawValue.utf8.count))
        var baseline: [Int: [UInt8]] = [:]
        var kills = 0
        var round = 0
        while kills < Self.kills && round < Self.kills * 3 / 2 {
            defer { round += 1 }
            if round == 1 { try plantLinks(in: folder, pointingAt: outside) }
            let seed = random.next() | 1
            let child = try Child(["torture", backend.rawValue, folder.path, String(seed)])
            child.waitForLines(1 + Int(random.next() % 4))
            usleep(UInt32(random.next() % 4_000))
            child.kill()
            if child.process.terminationReason == .uncaughtSignal { kills += 1 }
            let errors = child.lines.filter { $0.hasPrefix("error") }
            #expect(errors.isEmpty, "round \(round): the child failed: \(errors)")
            let synced = child.lines.compactMap { line -> Int? in
                line.hasPrefix("synced ") ? Int(line.dropFirst(7)) : nil
            }.max()
            baseline = try check(
                backend: backend, folder: folder, baseline: baseline, seed: seed, syncedThrough: synced,
                round: round)
            #expect(
                try snapshotOfFiles(under: outside) == untouched, "round \(round): a file outside changed")
        }
        print(
            "\(backend.rawValue): \(kills) children killed in \(round) rounds, the cache checked after each")
        #expect(kills >= Self.kills, "only \(kills) of \(round) children were killed")
    }

    /// Puts symbolic links into the cache folder that point outside it: a stray one inside the
    /// backend's subfolder, which a writer must delete without touching its target.
    private func plantLinks(in folder: URL, pointingAt outside: URL) throws {
        for sub in ["entries", "external"] {
            let subfolder = folder.appendingPathComponent(sub)
            guard FileManager.default.fileExists(atPath: subfolder.path) else { continue }
            try FileManager.default.createSymbolicLink(
                atPath: subfolder.appendingPathComponent("stray-link").path, withDestinationPath: outside.path
            )
            try FileManager.default.createSymbolicLink(
                atPath: subfolder.appendingPathComponent(String(repeating: "a", count: 64)).path,
                withDestinationPath: outside.appendingPathComponent("file-0").path)
        }
    }

    /// Reopens the cache after a kill and checks every key; returns what the cache now holds.
    private func check(
        backend: Backend, folder: URL, baseline: [Int: [UInt8]], seed: UInt64, syncedThrough: Int?,
        round: Int
    ) throws -> [Int: [UInt8]] {
        // The state the last reported synchronize made durable: the baseline, then every
        // operation before it.
        var synced = baseline
        for number in 0..<(syncedThrough ?? 0) {
            switch TortureWorkload.operation(number, seed: seed) {
            case .store(let key, let size):
                synced[key] = TortureWorkload.value(key: key, size: size, operation: number, seed: seed)
            case .remove(let key):
                synced[key] = nil
            default:
                break
            }
        }
        let later = syncedThrough ?? 0
        let cache = try ImageCache(
            configuration: CacheConfiguration(
                directory: folder, backend: backend, externalStorageThreshold: TortureWorkload.hybridThreshold
            ))
        defer { try? cache.close() }
        var now: [Int: [UInt8]] = [:]
        for key in 0..<TortureWorkload.keyCount {
            let name = TortureWorkload.key(key)
            let value: [UInt8]?
            do {
                value = try cache.bytes(forKey: name)
            } catch {
                Issue.record("round \(round), \(name): \(error)")
                continue
            }
            now[key] = value
            if value == synced[key] { continue }
            if let value, value.isEmpty {
                // An empty value names no operation: some later operation must store one.
                let storedLater = (later..<(later + 100_000)).contains {
                    TortureWorkload.operation($0, seed: seed) == .store(key: key, size: 0)
                }
                if !storedLater { Issue.record("round \(round), \(name): a wrong empty value") }
            } else if let value {
                // Not the synchronized value: it must be one a later operation stored, intact.
                guard let origin = TortureWorkload.origin(of: value), origin.seed == seed,
                    origin.operation >= later,
                    TortureWorkload.operation(origin.operation, seed: seed)
                        == .store(key: key, size: value.count),
                    value
                        == TortureWorkload.value(
                            key: key, size: value.count, operation: origin.operation, seed: seed)
                else {
                    Issue.record("round \(round), \(name): a wrong value (\(value.count) bytes)")
                    continue
                }
            } else {
                // Absent: a later operation must have removed it.
                let removedLater = (later..<(later + 100_000)).contains {
                    TortureWorkload.operation($0, seed: seed) == .remove(key: key)
                }
                if !removedLater { Issue.record("round \(round), \(name): a synchronized value is lost") }
            }
        }
        #expect(cache.count == now.count, "round \(round): count")
        #expect(cache.totalByteCount == now.values.reduce(0) { $0 + $1.count }, "round \(round): byte total")
        return now
    }

    // MARK: Locks and lifecycle across processes

    /// A second writer in another process is refused with `locked`, whatever the backend;
    /// readers are not; once the first writer is gone, a writer may open.
    @Test(arguments: Backend.allCases)
    func aWriterInAnotherProcessLocksTheFolder(backend: Backend) throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.url.appendingPathComponent("cache", isDirectory: true)
        let settings = CacheConfiguration(directory: folder, backend: backend)
        let holder = try Child(["hold-lock", backend.rawValue, folder.path])
        holder.waitForLines(1)
        try #require(holder.lines == ["open"])
        #expect(throws: CacheError.locked(path: folder.path, byThisProcess: false)) {
            try ImageCache(configuration: settings)
        }
        var reading = settings
        reading.readOnly = true
        let reader = try ImageCache(configuration: reading)
        #expect(reader.count == 0)
        try holder.finish()
        let writer = try ImageCache(configuration: settings)
        try writer.store([1], forKey: "after")
        try writer.close()
    }

    /// A program that stores and exits normally without close() loses nothing: the cache is
    /// closed at exit (`Spec/cache.md` §5.5).
    @Test(arguments: Backend.allCases)
    func aNormalExitWithoutCloseLosesNothing(backend: Backend) throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.url.appendingPathComponent("cache", isDirectory: true)
        let child = try Child(["exit-without-close", backend.rawValue, folder.path, "500"])
        try child.finish()
        #expect(child.lines == ["stored"])
        #expect(child.process.terminationStatus == 0)
        let cache = try ImageCache(configuration: CacheConfiguration(directory: folder, backend: backend))
        #expect(cache.count == 500)
        #expect(
            try cache.bytes(forKey: "k499")
                == TortureWorkload.value(key: 499, size: 64, operation: 499, seed: 7))
    }
}
