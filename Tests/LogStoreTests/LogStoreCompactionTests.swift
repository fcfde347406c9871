import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

@Suite struct LogStoreCompactionTests {
    /// A store with live, overwritten, touched, removed and expired entries.
    private func populate(_ store: LogStore) throws {
        for index in 0..<60 {
            let expiresAt: Int64 = index % 4 == 3 ? 1_000 : .max
            try store.put(
                expectedValue(for: index, length: 300 + index), forKey: "k\(index)",
                metadata: metadata(UInt64(index), expiresAt: expiresAt))
        }
        for index in stride(from: 0, to: 60, by: 5) { try store.removeValue(forKey: "k\(index)") }
        for index in stride(from: 1, to: 60, by: 7) {
            try store.updateMetadata(metadata(UInt64(100 + index)), forKey: "k\(index)")
        }
        try store.put(expectedValue(for: 999, length: 10), forKey: "k2", metadata: metadata(200))
    }

    private func expected(_ index: Int, afterExpiry: Bool) -> [UInt8]?? {
        if index % 5 == 0 { return .some(nil) }
        if index == 2 { return .some(expectedValue(for: 999, length: 10)) }
        // Expired entries may or may not survive, depending on whether the new file won.
        if index % 4 == 3 && index % 7 != 1 { return afterExpiry ? .some(nil) : .none }
        return .some(expectedValue(for: index, length: 300 + index))
    }

    @Test(arguments: CompactionStep.allCases)
    func interruptedCompactionLeavesAUsableStore(step: CompactionStep) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        var options = LogStore.Options(compactionDeadRatio: nil)
        options.compactionFault = step
        let store = try LogStore(path: path, options: options)
        try populate(store)
        #expect(throws: LogStoreError.injectedFault(step: step)) { try store.compact(now: 2_000) }
        #expect(throws: LogStoreError.closed(path: path)) { try store.value(forKey: "k1") }

        let reopened = try LogStore(path: path)
        #expect(!FileManager.default.fileExists(atPath: path + ".compacting"))
        let replaced = [CompactionStep.synchronizingDirectory, .writingSnapshot].contains(step)
        for index in 0..<60 {
            let value = try reopened.value(forKey: "k\(index)")
            switch expected(index, afterExpiry: replaced) {
            case .some(let exact): #expect(value == exact, "step \(step), key \(index)")
            case .none: #expect(value == nil || value == expectedValue(for: index, length: 300 + index))
            }
        }
        #expect(reopened.metadata(forKey: "k8") == metadata(108))
        #expect(try reopened.verify().isValid)
        // And it compacts cleanly afterwards.
        _ = try reopened.compact(now: 2_000)
        for index in 0..<60 {
            if case .some(let exact) = expected(index, afterExpiry: true) {
                #expect(try reopened.value(forKey: "k\(index)") == exact)
            }
        }
    }

    @Test func removedKeysNeverReturnAfterCompactionAndReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        try populate(store)
        _ = try store.compact(now: 2_000)
        try store.put([1], forKey: "new", metadata: metadata(300))
        _ = try store.compact(now: 2_000)
        try store.close()
        for usesSnapshot in [true, false] {
            let reopened = try LogStore(path: path, options: .init(usesSnapshot: usesSnapshot))
            for index in stride(from: 0, to: 60, by: 5) {
                #expect(try reopened.value(forKey: "k\(index)") == nil)
            }
            #expect(try reopened.value(forKey: "new") == [1])
            #expect(reopened.statistics.deadBytes == 0)
            try reopened.close()
        }
    }

    @Test func damagedValueStaysDetectableThroughCompaction() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
            try store.put(expectedValue(for: 1, length: 100), forKey: "plain", metadata: metadata(1))
            try store.put(expectedValue(for: 2, length: 100), forKey: "touched", metadata: metadata(2))
            try store.updateMetadata(metadata(3), forKey: "touched")
            try store.close()
        }
        var bytes = fileBytes(path)
        bytes[32 + 48 + 5 + 50] ^= 0x10  // inside plain's value
        bytes[32 + 153 + 48 + 7 + 50] ^= 0x10  // inside touched's value
        writeFile(path, bytes)
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        _ = try store.compact(now: 0)
        for key in ["plain", "touched"] {
            #expect(throws: LogStoreError.self) { try store.value(forKey: key) }
        }
        #expect(try !store.verify().isValid)
    }

    @Test func automaticCompactionRunsPastTheDeadRatio() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(
            path: directory.file(),
            options: .init(compactionDeadRatio: 0.5, compactionMinimumFileSize: 64 << 10))
        let value = [UInt8](repeating: 3, count: 1000)
        for round in 0..<200 {
            try store.put(value, forKey: "k\(round % 10)", metadata: metadata(UInt64(round)))
        }
        let statistics = store.statistics
        // 200 kB were written; compaction kept the file near the threshold.
        #expect(statistics.fileSize < 64 << 10 + 2000)
        #expect(statistics.entries == 10)
        #expect(try store.value(forKey: "k3") == value)
    }
}
