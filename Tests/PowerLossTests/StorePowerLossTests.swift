import Foundation
import LogStoreKit
import TestSupport
import Testing

@testable import Platform

/// The power-loss simulator on a bare log store (`Spec/store.md` §5.3, §7, §11.2): a store of
/// format 1 migrated by the first writable open, then puts small and large, a touch, removes,
/// a compaction and a clear, then a synchronize whose fdatasync fails (and its rewrite too)
/// before the writer crashes and the store is opened again, with every call recorded and every
/// state a power cut could leave opened (read-only, writable, read-only again).
@Suite("Power loss, bare log store")
struct StorePowerLossTests {
    enum Step: CustomStringConvertible {
        case open
        case put(String, Int)
        case touch(String)
        case remove(String)
        case synchronize
        /// A synchronize whose fdatasync fails, and the rewrite that answers it too: it throws,
        /// and what it covered is lost for good unless written again (`Spec/store.md` §8.3).
        case failingSynchronize
        /// The writer crashes: nothing is written or closed.
        case abandon
        /// A writable open after the crash: it keeps what the crashed writer appended, and makes
        /// it durable before it returns (§5.3 rule 4).
        case reopen
        case compact
        case clear
        case close

        var description: String {
            switch self {
            case .open: "open"
            case .put(let key, let size): "put \(key) (\(size) bytes)"
            case .touch(let key): "touch \(key)"
            case .remove(let key): "remove \(key)"
            case .synchronize: "synchronize"
            case .failingSynchronize: "synchronize with failing fdatasyncs"
            case .abandon: "crash"
            case .reopen: "open after the crash"
            case .compact: "compact"
            case .clear: "clear"
            case .close: "close"
            }
        }
    }

    static let steps: [Step] = [
        .open,  // migrates the format-1 store
        .put("a", 300), .put("b", 5_000), .synchronize,
        .put("big", 700_000), .remove("f2"), .touch("f3"), .put("a", 900), .synchronize,
        .put("c", 2_000), .remove("b"), .compact,
        .put("d", 400), .clear, .put("e", 600), .synchronize,
        .put("g", 3_000), .failingSynchronize, .abandon, .reopen,
        .put("f", 800), .close,
    ]

    static func value(_ number: Int, _ size: Int) -> [UInt8] {
        var generator = SplitMix(state: UInt64(number) &* 7_919 &+ 3)
        return (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static func formatOneStore() -> (bytes: [UInt8], values: [String: [UInt8]]) {
        var writer = FormatOneWriter()
        var values: [String: [UInt8]] = [:]
        for (index, key) in ["f1", "f2", "f3", "f4"].enumerated() {
            let value = value(100 + index, 200 + 50 * index)
            writer.append(
                type: 1, key: key, value: value,
                metadata: EntryMetadata(createdAt: 1, expiresAt: .max, accessSequence: UInt64(index)))
            values[key] = value
        }
        writer.append(type: 2, key: "f4")
        values["f4"] = nil
        return (writer.bytes, values)
    }

    @Test(
        "a migrated, compacted and cleared store keeps what synchronize() returned for, after a power cut at any call",
        arguments: FileSystemModel.allCases)
    func storeSurvivesPowerCuts(model: FileSystemModel) throws {
        let temporary = TemporaryDirectory()
        let scratch = temporary.path
        let root = scratch + "/recorded"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let (formatOne, initialValues) = Self.formatOneStore()
        let path = root + "/store.log"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(formatOne)))

        // The run, with the store's content noted after every step.
        let recorder = SystemCallRecorder.start(root: root)
        var values = initialValues
        func state() -> [String: KeyState] {
            values.mapValues { .value(digest: $0.hashValue, expiresAt: .max) }
        }
        var checkpoints = [
            Checkpoint(callCount: 0, keys: state(), synchronized: true, now: 0, step: "(format 1)")
        ]
        var store: LogStore?
        for (number, step) in Self.steps.enumerated() {
            switch step {
            case .open, .reopen: store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
            case .put(let key, let size):
                let value = Self.value(number, size)
                try store!.put(
                    value, forKey: key,
                    metadata: EntryMetadata(createdAt: 2, expiresAt: .max, accessSequence: 1))
                values[key] = value
            case .touch(let key):
                try store!.updateMetadata(
                    EntryMetadata(createdAt: 2, expiresAt: .max, accessSequence: 9), forKey: key)
            case .remove(let key):
                try store!.removeValue(forKey: key)
                values[key] = nil
            case .synchronize: try store!.synchronize()
            case .failingSynchronize:
                // The log's fdatasync, then the rewrite's fsync of the new log.
                let fault = FaultInjection.failSynchronizations(2, under: root, pathContaining: "store.log")
                #expect(throws: LogStoreError.self) { try store!.synchronize() }
                #expect(fault.disarm() == 2)
            case .abandon:
                store!.abandon()
                store = nil
            case .compact: _ = try store!.compact(now: 0)
            case .clear:
                try store!.removeAll()
                values = [:]
            case .close:
                try store!.close()
                store = nil
            }
            let synchronized: Bool
            switch step {
            case .synchronize, .reopen, .close: synchronized = true
            default: synchronized = false
            }
            checkpoints.append(
                Checkpoint(
                    callCount: recorder.callCount, keys: state(), synchronized: synchronized, now: 0,
                    step: "step \(number): \(step)"))
        }
        recorder.stop()

        let report = Simulation.run(
            calls: recorder.calls, initialItems: recorder.initialItems, model: model,
            randomStates: PowerLossTests.randomStates, seed: PowerLossTests.seed,
            expectation: { Expectation(checkpoints, afterCalls: $0) },
            check: { image, expectation in
                Self.problems(of: image, expectation: expectation, scratch: scratch)
            })
        print("power loss, bare store, \(model): \(report.summary)")
        if let first = report.findings.first {
            Issue.record("\(report.findings.count) crash states failed; the first:\n\(first)")
        }
    }

    /// Opens the state read-only (a format-1 file may refuse with `migrationRequired`: the
    /// migration's rename did not reach the disk), writable, and read-only again, and checks
    /// every key.
    static func problems(of image: DiskImage, expectation: Expectation, scratch: String) -> [String] {
        let root = scratch + "/state-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try image.materialize(at: root)
        } catch {
            return ["the state could not be written: \(error)"]
        }
        var problems: [String] = []
        for (phase, readOnly) in [
            ("read-only open", true), ("writable open", false), ("second read-only open", true),
        ] {
            let store: LogStore
            do {
                store = try LogStore(path: root + "/store.log", options: .init(readOnly: readOnly))
            } catch LogStoreError.migrationRequired where phase == "read-only open" {
                continue
            } catch {
                problems.append("\(phase) failed: \(error)")
                return problems
            }
            let keys = Set(store.entries().map(\.key)).union(expectation.candidates.keys)
            for key in keys.sorted() {
                do {
                    let bytes = try store.value(forKey: key)
                    if !expectation.allows(bytes, forKey: key) {
                        problems.append(
                            "\(phase): \(key) read \(bytes.map { "\($0.count) bytes no allowed state holds" } ?? "a miss")"
                        )
                    }
                } catch {
                    problems.append("\(phase): reading \(key) threw \(error)")
                }
            }
            do {
                try store.close()
            } catch {
                problems.append("\(phase): close failed: \(error)")
            }
            if !problems.isEmpty { return problems }
        }
        return problems
    }
}
