import Foundation
import ImageCacheKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Processes that write one cache folder together (`Spec/backends.md` §9): four run seeded
/// random operations at once, or are killed at random moments and replaced, and what each saw
/// is checked against what all of them wrote. `IMAGECACHE_SHARING_SECONDS` makes the runs longer.
@Suite("Sharing between processes", .serialized)
struct SharingProcessTests {
    static let seconds =
        ProcessInfo.processInfo.environment["IMAGECACHE_SHARING_SECONDS"].flatMap(Double.init) ?? 3
    /// Varies the kill test's moments (`IMAGECACHE_SHARING_SEED`), to look for a failure CI saw.
    static let seed = ProcessInfo.processInfo.environment["IMAGECACHE_SHARING_SEED"].flatMap(UInt64.init) ?? 0
    static let maximumBytes = 60_000

    /// One line of a child's log.
    struct Operation {
        enum Kind {
            case store(worker: Int, op: Int)
            case read(result: (worker: Int, op: Int)?)
            case remove
            case synchronize(bytes: Int, count: Int)
            case other
        }
        var kind: Kind
        var key: Int
        var start: UInt64
        var end: UInt64
    }

    static func parse(_ lines: [String], into problems: inout [String]) -> [Operation] {
        var operations: [Operation] = []
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            switch fields.first {
            case "S":
                operations.append(
                    Operation(
                        kind: .store(worker: Int(fields[2])!, op: Int(fields[3])!), key: Int(fields[1])!,
                        start: UInt64(fields[4])!, end: UInt64(fields[5])!))
            case "R":
                let result = fields[4] == "miss" ? nil : (Int(fields[4])!, Int(fields[5])!)
                operations.append(
                    Operation(
                        kind: .read(result: result), key: Int(fields[1])!, start: UInt64(fields[2])!,
                        end: UInt64(fields[3])!))
            case "D":
                operations.append(
                    Operation(
                        kind: .remove, key: Int(fields[1])!, start: UInt64(fields[2])!,
                        end: UInt64(fields[3])!))
            case "Y":
                operations.append(
                    Operation(
                        kind: .synchronize(bytes: Int(fields[3])!, count: Int(fields[4])!), key: -1,
                        start: UInt64(fields[1])!, end: UInt64(fields[2])!))
            case "C", "P", "X", "done":
                continue
            default:
                problems.append("a child reported: \(line)")
            }
        }
        return operations
    }

    /// Every read returns a value some process stored under that key, whose store began before
    /// the read ended, and never one older than the reader's own last store of the key
    /// (program order); every synchronize saw the cache within its byte limit.
    static func check(_ logs: [Int: [Operation]]) -> [String] {
        var problems: [String] = []
        var stores: [String: (key: Int, start: UInt64, end: UInt64)] = [:]
        // Per key, the stores by end time, with the latest start among those ended so far.
        var byEnd: [Int: [(end: UInt64, latestStart: UInt64)]] = [:]
        for (_, operations) in logs {
            for operation in operations {
                if case .store(let worker, let op) = operation.kind {
                    stores["\(worker)/\(op)"] = (operation.key, operation.start, operation.end)
                    byEnd[operation.key, default: []].append((operation.end, operation.start))
                }
            }
        }
        for key in byEnd.keys {
            byEnd[key]!.sort { $0.end < $1.end }
            var latest: UInt64 = 0
            for index in byEnd[key]!.indices {
                latest = max(latest, byEnd[key]![index].latestStart)
                byEnd[key]![index].latestStart = latest
            }
        }
        /// The latest start of a store of `key` that ended before `time` (0: none).
        func latestStartOfStoreEnded(before time: UInt64, key: Int) -> UInt64 {
            guard let list = byEnd[key] else { return 0 }
            var low = 0
            var high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle].end < time { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? 0 : list[low - 1].latestStart
        }
        for (worker, operations) in logs {
            var ownLastStore: [Int: (op: Int, start: UInt64, end: UInt64)] = [:]
            for operation in operations {
                switch operation.kind {
                case .store(_, let op):
                    ownLastStore[operation.key] = (op, operation.start, operation.end)
                case .read(let result?):
                    // A killed writer's last store may have no line; it began before it died.
                    guard let store = stores["\(result.worker)/\(result.op)"] else { continue }
                    if store.key != operation.key || store.start > operation.end {
                        problems.append(
                            "worker \(worker) read key \(operation.key) = \(result) before it was stored")
                    }
                    // Visible: a store of the key that returned before this read began (§9.3)
                    // is this value or older than it, never newer.
                    let newer = latestStartOfStoreEnded(before: operation.start, key: operation.key)
                    if newer > store.end {
                        // The times (monotonic ns) say how wide the window was, for whoever chases it.
                        problems.append(
                            "worker \(worker) read key \(operation.key) = \(result), older than a store that had returned"
                                + " (read \(operation.start)–\(operation.end), value stored \(store.start)–\(store.end),"
                                + " a newer store began \(newer))"
                        )
                    }
                    if let own = ownLastStore[operation.key], own.end < operation.start {
                        if result.worker == worker && result.op < own.op {
                            problems.append(
                                "worker \(worker) read its own older value of key \(operation.key)")
                        } else if result.worker != worker && store.end < own.start {
                            problems.append(
                                "worker \(worker) read key \(operation.key) from \(result), stored before its own store"
                            )
                        }
                    }
                case .synchronize(let bytes, _):
                    if bytes > maximumBytes {
                        problems.append("worker \(worker) synchronized holding \(bytes) bytes")
                    }
                default:
                    continue
                }
            }
        }
        return problems
    }

    /// The check itself, on made-up logs: it must catch each kind of wrong answer it looks for
    /// (a test that cannot fail checks nothing), and pass a history that is right.
    @Test("the check catches stale reads, reads ahead of their store, lost program order and overfull caches")
    func theCheckCatchesWhatItLooksFor() {
        func problems(_ logs: [Int: [String]]) -> [String] {
            var found: [String] = []
            let parsed = logs.mapValues { Self.parse($0, into: &found) }
            return found + Self.check(parsed)
        }
        // Worker 0 stores key 5 twice; worker 1 reads it after each returned.
        let stores = ["S 5 0 1 100 110", "S 5 0 2 200 210"]
        #expect(
            problems([0: stores, 1: ["R 5 120 130 0 1", "R 5 220 230 0 2", "R 5 240 250 miss"]]).isEmpty)
        #expect(
            problems([0: stores, 1: ["R 5 220 230 0 1"]]).count == 1, "a value older than a returned store")
        #expect(
            problems([0: stores, 1: ["R 5 105 108 0 2"]]).count == 1, "a value read before its store began")
        #expect(problems([0: stores, 1: ["R 7 220 230 0 2"]]).count == 1, "a value of another key")
        #expect(
            problems([0: stores + ["R 5 300 310 0 1"]]).count == 2,
            "its own older value, which is also older than a returned store")
        #expect(problems([0: stores, 1: ["Y 300 310 60001 3"]]).count == 1, "a cache over its byte limit")
        #expect(problems([0: stores, 1: ["BAD 5 40 bytes"]]).count == 1, "bytes no process wrote")
        #expect(problems([0: stores, 1: ["E op 3: ioFailure"]]).count == 1, "a failed operation")
    }

    @Test(
        "four processes at once: every read is a value someone stored, in program order, within the limits",
        arguments: [Backend.log, .hybrid])
    func fourProcessesAtOnce(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("cache").path
        let milliseconds = Int(Self.seconds * 1000)
        let children = try (0..<4).map { worker in
            try DrainedChild(
                [
                    folder, backend.rawValue, String(worker), String(1000 + worker), String(milliseconds),
                    String(Self.maximumBytes),
                ],
                binary: "sharing-child")
        }
        var problems: [String] = []
        var logs: [Int: [Operation]] = [:]
        for (worker, child) in children.enumerated() {
            child.waitUntilExit()
            #expect(
                child.process.terminationStatus == 0,
                "worker \(worker) exited with \(child.process.terminationStatus)")
            logs[worker] = Self.parse(child.lines, into: &problems)
        }
        problems += Self.check(logs)
        let operations = logs.values.reduce(0) { $0 + $1.count }
        print("sharing, \(backend): 4 processes, \(operations) operations, \(problems.count) problems")
        Self.record(problems)
        #expect(operations > 400, "the processes ran")
        try Self.verifyFolder(folder, backend: backend)
    }

    @Test(
        "processes killed at random moments, holding the lock or not, leave the folder usable by the rest",
        arguments: [Backend.log, .hybrid])
    func killedProcessesLeaveTheFolderUsable(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("cache").path
        var random = SplitMix64(state: (backend == .log ? 11 : 12) &+ Self.seed &* 100)
        let survivors = try (0..<2).map { worker in
            try DrainedChild(
                [
                    folder, backend.rawValue, String(worker), String(2000 + worker + Int(Self.seed) * 10_000),
                    String(Int(Self.seconds * 1000) + 500),
                    String(Self.maximumBytes),
                ],
                binary: "sharing-child")
        }
        var problems: [String] = []
        var kills = 0
        let deadline = Date().addingTimeInterval(Self.seconds)
        // A loaded machine starts processes slowly: kill at least five, within a bound.
        let latest = Date().addingTimeInterval(Self.seconds * 6)
        var worker = 10
        while Date() < deadline || (kills < 5 && Date() < latest) {
            let victim = try DrainedChild(
                [
                    folder, backend.rawValue, String(worker), String(3000 + worker + Int(Self.seed) * 10_000),
                    "60000",
                    String(Self.maximumBytes),
                ],
                binary: "sharing-child")
            usleep(UInt32(20_000 + random.next() % 150_000))
            victim.kill()
            kills += 1
            _ = Self.parse(victim.lines, into: &problems)
            worker += 1
        }
        var logs: [Int: [Operation]] = [:]
        for (index, child) in survivors.enumerated() {
            child.waitUntilExit()
            #expect(
                child.process.terminationStatus == 0,
                "survivor \(index) exited with \(child.process.terminationStatus)")
            logs[index] = Self.parse(child.lines, into: &problems)
        }
        problems += Self.check(logs)
        print("sharing, \(backend): \(kills) processes killed beside 2 survivors, \(problems.count) problems")
        Self.record(problems)
        #expect(kills >= 5)
        try Self.verifyFolder(folder, backend: backend)
    }

    /// Fails the test on any problem, and prints the first 40 on lines of their own, which CI's
    /// filter of this test's output keeps (an issue's text it drops).
    static func record(_ problems: [String]) {
        guard !problems.isEmpty else { return }
        Issue.record("\(problems.count) problems; the first: \(problems.prefix(5))")
        for problem in problems.prefix(40) { print("sharing problem: \(problem)") }
    }

    /// After every process is gone, the folder opens alone and every value is one a process
    /// stored under its key.
    static func verifyFolder(_ folder: String, backend: Backend) throws {
        let cache = try ImageCache(
            configuration: CacheConfiguration(
                directory: URL(fileURLWithPath: folder), backend: backend, externalStorageThreshold: 2_000))
        for key in cache.keys {
            let bytes = try #require(try cache.bytes(forKey: key))
            let number = UInt32(key.dropFirst())!
            #expect(
                bytes.count >= 16
                    && bytes[8..<12].elementsEqual(withUnsafeBytes(of: number.littleEndian) { Array($0) }))
        }
        #expect(cache.totalByteCount <= maximumBytes)
        try cache.close()
    }
}

/// A child whose output a thread of its own reads as it comes, so that several children can
/// print at once without filling a pipe (and blocking while they hold the folder's lock).
final class DrainedChild: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let finished = DispatchSemaphore(value: 0)
    private var collected = Data()

    init(_ arguments: [String], binary: String) throws {
        process.executableURL = try childBinary(binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        DispatchQueue.global().async {
            self.collected = handle.readDataToEndOfFile()
            self.finished.signal()
        }
    }

    /// The whole lines the child printed (a line cut by a kill does not count).
    var lines: [String] {
        let text = String(decoding: collected, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the part after the last newline
        return lines
    }

    func waitUntilExit() {
        process.waitUntilExit()
        finished.wait()
    }

    func kill() {
        _ = systemKill(process.processIdentifier, SIGKILL)
        waitUntilExit()
    }
}

/// A small deterministic generator.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
