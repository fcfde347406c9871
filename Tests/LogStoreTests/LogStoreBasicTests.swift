import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

@Suite struct LogStoreBasicTests {
    @Test func putGetRemoveAndReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path)
            try store.put([1, 2, 3], forKey: "a", metadata: metadata(1))
            try store.put(
                expectedValue(for: 7, length: 10_000), forKey: "big/key/\u{0}/..", metadata: metadata(2))
            try store.put([4], forKey: "a", metadata: metadata(3))
            try store.put([9], forKey: "gone", metadata: metadata(4))
            try store.removeValue(forKey: "gone")
            #expect(try store.value(forKey: "a") == [4])
            #expect(try store.value(forKey: "gone") == nil)
            #expect(store.metadata(forKey: "a") == metadata(3))
            #expect(store.count == 2)
            try store.close()
            #expect(throws: LogStoreError.closed(path: path)) { try store.value(forKey: "a") }
        }
        for usesSnapshot in [true, false] {
            let store = try LogStore(path: path, options: .init(usesSnapshot: usesSnapshot))
            #expect(store.recovery.usedSnapshot == usesSnapshot)
            #expect(try store.value(forKey: "a") == [4])
            #expect(try store.value(forKey: "big/key/\u{0}/..") == expectedValue(for: 7, length: 10_000))
            #expect(try store.value(forKey: "gone") == nil)
            #expect(store.metadata(forKey: "a") == metadata(3))
            try store.close()
        }
    }

    /// The counter a cache would start from (`Spec/cache.md` §2.5): 1 + the largest access
    /// sequence held, removed entries not counted, at most `UInt64.max`.
    @Test func theNextAccessSequenceFollowsTheLargestHeld() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file())
        #expect(store.nextAccessSequence == 1)
        try store.put([1], forKey: "a", metadata: metadata(5))
        try store.put([2], forKey: "b", metadata: metadata(3))
        #expect(store.nextAccessSequence == 6)
        try store.updateMetadata(metadata(9), forKey: "b")
        #expect(store.nextAccessSequence == 10)
        try store.removeValue(forKey: "b")
        #expect(store.nextAccessSequence == 6)
        try store.put([3], forKey: "c", metadata: metadata(.max))
        #expect(store.nextAccessSequence == .max)
        try store.close()
        let reader = try LogStore(path: directory.file(), options: .init(readOnly: true))
        #expect(reader.nextAccessSequence == .max)
    }

    @Test func emptyValueAndLargeValueBypassingTheBuffer() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(writeBufferSize: 4096))
        try store.put([], forKey: "empty", metadata: metadata(1))
        let large = expectedValue(for: 3, length: 100_000)
        try store.put(large, forKey: "large", metadata: metadata(2))
        #expect(try store.value(forKey: "empty") == [])
        #expect(try store.value(forKey: "large") == large)
        try store.close()
        let reopened = try LogStore(path: directory.file(), options: .init(usesSnapshot: false))
        #expect(try reopened.value(forKey: "empty") == [])
        #expect(try reopened.value(forKey: "large") == large)
    }

    @Test func keyLimits() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file())
        #expect(throws: LogStoreError.invalidKey(length: 0)) {
            try store.put([1], forKey: "", metadata: metadata(1))
        }
        let longest = String(repeating: "k", count: 65_535)
        try store.put([1], forKey: longest, metadata: metadata(1))
        #expect(throws: LogStoreError.invalidKey(length: 65_536)) {
            try store.put([1], forKey: longest + "k", metadata: metadata(1))
        }
        try store.close()
        let reopened = try LogStore(path: directory.file(), options: .init(usesSnapshot: false))
        #expect(try reopened.value(forKey: longest) == [1])
    }

    @Test func touchUpdatesMetadataAndSurvivesReopenAndCompaction() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        try store.put([1, 2], forKey: "k", metadata: metadata(1, expiresAt: 100))
        try store.updateMetadata(metadata(5, expiresAt: 900), forKey: "k")
        try store.updateMetadata(metadata(6), forKey: "absent")
        #expect(store.metadata(forKey: "absent") == nil)
        try store.synchronize()
        let scanned = try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        #expect(scanned.metadata(forKey: "k") == metadata(5, expiresAt: 900))
        let result = try store.compact(now: 500)
        #expect(result.keptEntries == 1 && result.expiredEntries == 0)
        #expect(try store.value(forKey: "k") == [1, 2])
        #expect(store.metadata(forKey: "k") == metadata(5, expiresAt: 900))
        #expect(try store.verify().isValid)
        try store.close()
        let reopened = try LogStore(path: path, options: .init(usesSnapshot: false))
        #expect(reopened.metadata(forKey: "k") == metadata(5, expiresAt: 900))
        #expect(try reopened.value(forKey: "k") == [1, 2])
    }

    @Test func compactionDropsExpiredAndRemovedKeysForGood() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        for index in 0..<100 {
            try store.put(
                expectedValue(for: index, length: 500), forKey: "key\(index)",
                metadata: metadata(UInt64(index), expiresAt: Int64(index)))
        }
        for index in 0..<10 { try store.removeValue(forKey: "key\(index * 10 + 5)") }
        let before = store.statistics
        let result = try store.compact(now: 50)
        #expect(result.expiredEntries == 46)  // keys 0...50 (expired iff now >= expiresAt) minus 5 removed
        #expect(result.keptEntries == 44)
        #expect(store.statistics.fileSize < before.fileSize)
        #expect(store.statistics.deadBytes == 0)
        try store.close()
        for usesSnapshot in [true, false] {
            let reopened = try LogStore(path: path, options: .init(usesSnapshot: usesSnapshot))
            for index in 0..<100 {
                let expected = index > 50 && index % 10 != 5 ? expectedValue(for: index, length: 500) : nil
                #expect(try reopened.value(forKey: "key\(index)") == expected)
            }
            try reopened.close()
        }
    }

    @Test func removeAllClearsAndSurvivesReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path)
        try store.put([1], forKey: "a", metadata: metadata(1))
        try store.removeAll()
        try store.put([2], forKey: "b", metadata: metadata(2))
        try store.synchronize()
        let scanned = try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        #expect(scanned.entries().map(\.key) == ["b"])
        #expect(try scanned.value(forKey: "b") == [2])
    }

    @Test func statisticsCountLiveAndDeadBytes() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(compactionDeadRatio: nil))
        try store.put([UInt8](repeating: 1, count: 100), forKey: "a", metadata: metadata(1))
        try store.put([UInt8](repeating: 2, count: 100), forKey: "a", metadata: metadata(2))
        let statistics = store.statistics
        #expect(statistics.entries == 1)
        #expect(statistics.liveBytes == 56 + 1 + 100)
        #expect(statistics.deadBytes == 56 + 1 + 100)
        #expect(statistics.fileSize == 32 + 2 * 157)
        #expect(statistics.indexBytes > 0)
    }
}
