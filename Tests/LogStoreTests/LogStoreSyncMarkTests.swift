import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// The sync mark and the recovery rule built on it (`Spec/store.md` §4.1, §5.3, §5.4): a write
/// torn by a power cut, after the durable length, is cut whatever survives after it; damage to
/// synchronized data is refused, repaired or skipped record by record.
@Suite struct LogStoreSyncMarkTests {
    /// A store of `count` synchronized puts (each its own record, in order) and the offsets
    /// where each record ends; the sync mark covers all of them.
    private func synchronizedStore(at path: String, count: Int, valueLength: Int = 300) throws -> [UInt64] {
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil, writeBufferSize: 0))
        var ends: [UInt64] = []
        for index in 0..<count {
            try store.put(
                expectedValue(for: index, length: valueLength), forKey: "key-\(index)", metadata: metadata(1))
            ends.append(store.statistics.fileSize)
        }
        try store.close()
        return ends
    }

    @Test func creationAndEverySynchronizeWriteTheMark() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path)
        #expect(syncMark(path)?.length == 32)
        #expect(syncMark(path)?.generation == logGeneration(path))
        try store.put([1, 2, 3], forKey: "a", metadata: metadata(1))
        #expect(syncMark(path)?.length == 32, "a buffered put is not durable")
        try store.synchronize()
        #expect(syncMark(path)?.length == UInt64(fileBytes(path).count))
        let compacted = try store.compact(now: 0)
        #expect(compacted.keptEntries == 1)
        #expect(syncMark(path)?.generation == logGeneration(path), "compaction marks its new generation")
        #expect(syncMark(path)?.length == UInt64(fileBytes(path).count))
        try store.close()
    }

    @Test func aTornWriteAfterTheMarkIsCutWhateverSurvivesAfterIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 3)
        // More records, written but never synchronized: the writer crashed.
        let store = try LogStore(path: path, options: .init(writeBufferSize: 0))
        for index in 3..<12 {
            try store.put(
                expectedValue(for: index, length: 3_000), forKey: "key-\(index)", metadata: metadata(2))
        }
        store.abandon()
        // A power cut lost one page in the middle of that part; later pages survived.
        var bytes = fileBytes(path)
        let lost = Int(ends[2]) + 9_000
        for position in lost..<(lost + 4_096) { bytes[position] = 0 }
        writeFile(path, bytes)
        for readOnly in [true, false] {
            let reopened = try LogStore(path: path, options: .init(readOnly: readOnly))
            let tail = try #require(reopened.recovery.tailOffset)
            #expect(tail > ends[2] && tail <= UInt64(lost))
            #expect(reopened.recovery.durableLength == ends[2])
            for index in 0..<3 {
                #expect(try reopened.value(forKey: "key-\(index)") == expectedValue(for: index, length: 300))
            }
            for index in 3..<12 {
                let value = try reopened.value(forKey: "key-\(index)")
                #expect(value == nil || value == expectedValue(for: index, length: 3_000))
            }
            #expect(try reopened.value(forKey: "key-11") == nil)
            try reopened.close()
        }
        #expect(
            syncMark(path)?.length == UInt64(fileBytes(path).count), "the writable open marked what it kept")
    }

    @Test func aRecordWhoseValueIsTornAfterTheMarkIsNotKept() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 2)
        let store = try LogStore(path: path, options: .init(writeBufferSize: 0))
        try store.put(expectedValue(for: 7, length: 9_000), forKey: "late", metadata: metadata(2))
        store.abandon()
        var bytes = fileBytes(path)
        bytes[Int(ends[1]) + 56 + 4 + 5_000] ^= 0x01  // the value, not the header
        writeFile(path, bytes)
        let reopened = try LogStore(path: path)
        #expect(reopened.recovery.tailOffset == ends[1])
        #expect(try reopened.value(forKey: "late") == nil)
        #expect(try reopened.value(forKey: "key-1") == expectedValue(for: 1, length: 300))
        try reopened.close()
    }

    @Test func damageBeforeTheMarkIsRefusedRepairedOrSkipped() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 6)
        var bytes = fileBytes(path)
        bytes[Int(ends[2]) + 40] ^= 0x10  // the expiresAt of key-3's header
        writeFile(path, bytes)
        #expect(throws: LogStoreError.corruptRecord(offset: ends[2])) {
            try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        }
        let repaired = try LogStore(
            path: path, options: .init(readOnly: true, usesSnapshot: false, repairsDamage: true))
        #expect(repaired.count == 3)
        let skipping = try LogStore(
            path: path, options: .init(readOnly: true, usesSnapshot: false, skipsDamagedRecords: true))
        #expect(
            skipping.recovery.damagedRecords
                == [.init(offset: ends[2], length: ends[3] - ends[2], key: Array("key-3".utf8))])
        #expect(skipping.count == 5)
        #expect(try skipping.value(forKey: "key-3") == nil)
        for index in [0, 1, 2, 4, 5] {
            #expect(try skipping.value(forKey: "key-\(index)") == expectedValue(for: index, length: 300))
        }
    }

    @Test func aDamagedPutRemovesTheEarlierValueOfItsKey() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil, writeBufferSize: 0))
        try store.put([1], forKey: "k", metadata: metadata(1))
        let second = store.statistics.fileSize
        try store.put([2], forKey: "k", metadata: metadata(2))
        try store.put([3], forKey: "other", metadata: metadata(3))
        try store.close()
        var bytes = fileBytes(path)
        bytes[Int(second) + 9] ^= 0x04  // the value checksum field: the header checksum fails
        writeFile(path, bytes)
        let skipping = try LogStore(
            path: path, options: .init(readOnly: true, usesSnapshot: false, skipsDamagedRecords: true))
        #expect(try skipping.value(forKey: "k") == nil, "the older value must not come back")
        #expect(try skipping.value(forKey: "other") == [3])
    }

    @Test func aDamagedTypeByteFollowsRuleOneAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 4)
        var bytes = fileBytes(path)
        bytes[Int(ends[1]) + 16] = 9  // key-2's type: no known type, its lengths still lead on
        writeFile(path, bytes)
        let skipping = try LogStore(
            path: path, options: .init(readOnly: true, usesSnapshot: false, skipsDamagedRecords: true))
        #expect(
            skipping.recovery.damagedRecords
                == [.init(offset: ends[1], length: ends[2] - ends[1], key: Array("key-2".utf8))])
        #expect(skipping.count == 3, "an unknown type changes nothing: key-2 had no earlier value")
        #expect(try skipping.value(forKey: "key-3") == expectedValue(for: 3, length: 300))
    }

    @Test func damagedLengthsAreSkippedToTheNextChainOfValidRecords() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 6)
        var bytes = fileBytes(path)
        bytes[Int(ends[1]) + 26] ^= 0x40  // key-2's valueLength: its own lengths lead nowhere
        writeFile(path, bytes)
        let skipping = try LogStore(
            path: path, options: .init(readOnly: true, usesSnapshot: false, skipsDamagedRecords: true))
        #expect(
            skipping.recovery.damagedRecords == [.init(offset: ends[1], length: ends[2] - ends[1], key: nil)])
        #expect(skipping.count == 5)
        for index in [0, 1, 3, 4, 5] {
            #expect(try skipping.value(forKey: "key-\(index)") == expectedValue(for: index, length: 300))
        }
    }

    @Test func aMarkOfAnotherLogOrDamagedIsIgnored() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let ends = try synchronizedStore(at: path, count: 3)
        var mark = fileBytes(path + ".sync")
        mark[10] ^= 0x01  // the generation
        writeFile(path + ".sync", mark)
        var bytes = fileBytes(path)
        bytes[Int(ends[0]) + 40] ^= 0x10  // synchronized, but no usable mark says so
        writeFile(path, bytes)
        let reopened = try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        #expect(reopened.recovery.durableLength == 32)
        #expect(reopened.recovery.tailOffset == ends[0], "without a mark the damage is taken for a torn tail")
        #expect(reopened.count == 1)
    }
}
