import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

@Suite struct LogStoreRecoveryTests {
    /// Builds a store of `count` puts (plus a touch and a remove at the end) and returns the
    /// file's bytes and the end offset of every record.
    private func buildStore(at path: String, count: Int, valueLength: Int) throws -> (
        bytes: [UInt8], ends: [UInt64]
    ) {
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil, writeBufferSize: 0))
        var ends: [UInt64] = []
        for index in 0..<count {
            try store.put(
                expectedValue(for: index, length: valueLength + index), forKey: "key-\(index)",
                metadata: metadata(UInt64(index)))
            ends.append(store.statistics.fileSize)
        }
        try store.updateMetadata(metadata(1_000), forKey: "key-1")
        ends.append(store.statistics.fileSize)
        try store.removeValue(forKey: "key-0")
        ends.append(store.statistics.fileSize)
        try store.close()
        return (fileBytes(path), ends)
    }

    @Test func truncationAtEveryOffsetOfTheLastRecordsKeepsEveryWholeRecord() throws {
        let directory = TemporaryDirectory()
        let original = directory.file("original.log")
        let count = 12
        let (bytes, ends) = try buildStore(at: original, count: count, valueLength: 40)
        let cutStart = Int(ends[count - 4])
        let copy = directory.file("cut.log")
        for cut in cutStart..<bytes.count {
            writeFile(copy, Array(bytes[..<cut]))
            let store = try LogStore(path: copy, options: .init(usesSnapshot: false))
            let wholeRecords = ends.filter { $0 <= UInt64(cut) }.count
            let boundary = wholeRecords == 0 ? 32 : ends[wholeRecords - 1]
            #expect(store.recovery.tailOffset == (UInt64(cut) == boundary ? nil : boundary), "cut at \(cut)")
            for index in 0..<count {
                let written = index < wholeRecords
                let removed = index == 0 && wholeRecords == ends.count
                let expected = written && !removed ? expectedValue(for: index, length: 40 + index) : nil
                #expect(try store.value(forKey: "key-\(index)") == expected, "cut at \(cut), key \(index)")
            }
            let touched = wholeRecords >= count + 1
            #expect(store.metadata(forKey: "key-1") == metadata(touched ? 1_000 : 1), "cut at \(cut)")
            // The cut tail is gone for good: a new append lands on a record boundary.
            try store.put([7], forKey: "after", metadata: metadata(9))
            try store.close()
            let reopened = try LogStore(path: copy, options: .init(usesSnapshot: false))
            #expect(reopened.recovery.tailOffset == nil)
            #expect(try reopened.value(forKey: "after") == [7])
            try reopened.close()
        }
    }

    @Test func randomBitFlipsNeverProduceAWrongValue() throws {
        let directory = TemporaryDirectory()
        let original = directory.file("original.log")
        let count = 30
        let (bytes, ends) = try buildStore(at: original, count: count, valueLength: 100)
        var generator = SeededGenerator(seed: 0xB17F_1195)
        let copy = directory.file("flipped.log")
        // With the sync mark, every record is synchronized data: a damaged value is found when
        // it is read (without it, open would check every value and cut the log there).
        writeFile(copy + ".sync", fileBytes(original + ".sync"))
        var refusedOpens = 0
        var failedReads = 0
        for trial in 0..<400 {
            var damaged = bytes
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let position = Int(generator.next() % UInt64(damaged.count))
                damaged[position] ^= UInt8(1) << (generator.next() % 8)
            }
            writeFile(copy, damaged)
            for repairs in [false, true] {
                let store: LogStore
                do {
                    store = try LogStore(
                        path: copy,
                        options: .init(readOnly: true, usesSnapshot: false, repairsDamage: repairs))
                } catch {
                    refusedOpens += 1
                    continue
                }
                let validEnd = store.recovery.tailOffset ?? UInt64(bytes.count)
                for index in 1..<count {
                    let recordEnd = ends[index]
                    do {
                        let value = try store.value(forKey: "key-\(index)")
                        if let value {
                            #expect(
                                value == expectedValue(for: index, length: 100 + index),
                                "trial \(trial): wrong bytes for key \(index)")
                        } else {
                            #expect(
                                recordEnd > validEnd, "trial \(trial): key \(index) vanished without a cut")
                        }
                    } catch {
                        failedReads += 1
                    }
                }
            }
        }
        // The flips did hit both headers and values.
        #expect(refusedOpens > 0)
        #expect(failedReads > 0)
    }

    @Test func damageInTheMiddleIsRefusedUnlessRepairIsAsked() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, ends) = try buildStore(at: path, count: 5, valueLength: 10)
        var damaged = bytes
        damaged[Int(ends[1]) + 8] ^= 0xFF  // the type byte of the third record
        writeFile(path, damaged)
        #expect(throws: LogStoreError.corruptRecord(offset: ends[1])) {
            try LogStore(path: path, options: .init(usesSnapshot: false))
        }
        #expect(fileBytes(path) == damaged, "a refused open must not modify the file")
        let report = try LogStore.verify(path: path)
        #expect(report.firstDamagedOffset == ends[1] && report.validRecords == 2)
        let repaired = try LogStore(path: path, options: .init(usesSnapshot: false, repairsDamage: true))
        #expect(repaired.recovery.tailOffset == ends[1])
        #expect(try repaired.value(forKey: "key-1") == expectedValue(for: 1, length: 11))
        #expect(try repaired.value(forKey: "key-2") == nil)
        #expect(try repaired.verify().isValid)
    }

    @Test func zeroFilledTailIsCutOff() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, ends) = try buildStore(at: path, count: 3, valueLength: 10)
        writeFile(path, bytes + [UInt8](repeating: 0, count: 5000))
        let store = try LogStore(path: path, options: .init(usesSnapshot: false))
        #expect(store.recovery.tailOffset == ends.last)
        #expect(store.recovery.discardedBytes == 5000)
        #expect(try store.value(forKey: "key-2") == expectedValue(for: 2, length: 12))
        try store.close()
        #expect(fileBytes(path).count == bytes.count)
    }

    @Test func notAStoreIsRefusedAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let text = Array("this is a text file, not a store\n".utf8)
        writeFile(path, text)
        #expect(throws: LogStoreError.notAStore(path: path)) { try LogStore(path: path) }
        #expect(fileBytes(path) == text)
        let short: [UInt8] = [0x89, 0x49]
        writeFile(path, short)
        #expect(throws: LogStoreError.notAStore(path: path)) { try LogStore(path: path) }
        #expect(fileBytes(path) == short)
    }

    @Test func zeroLengthFileBecomesAnEmptyStoreWithoutContendingForItsOwnLock() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        writeFile(path, [])
        // Read-only opens never write, so an empty file is not a store to them (§2.1 rule 5).
        #expect(throws: LogStoreError.notAStore(path: path)) {
            try LogStore(path: path, options: .init(readOnly: true))
        }
        let store = try LogStore(path: path)
        #expect(store.count == 0)
        try store.put([1, 2, 3], forKey: "k", metadata: metadata(1))
        try store.close()
        let reopened = try LogStore(path: path)
        #expect(try reopened.value(forKey: "k") == [1, 2, 3])
        try reopened.close()
    }

    /// `bytes` with another version in the file header and a header checksum that matches it.
    private func withVersion(_ bytes: [UInt8], major: UInt16, minor: UInt16) -> [UInt8] {
        var patched = bytes
        patched[8] = UInt8(major & 0xFF)
        patched[9] = UInt8(major >> 8)
        patched[10] = UInt8(minor & 0xFF)
        patched[11] = UInt8(minor >> 8)
        let checksum = XXH3.checksum(of: patched[0..<24])
        for position in 0..<8 {
            patched[24 + position] = UInt8(truncatingIfNeeded: checksum >> (8 * position))
        }
        return patched
    }

    @Test func newerVersionsAreRefusedOrOpenedReadOnlyAndLeftUntouched() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, _) = try buildStore(at: path, count: 3, valueLength: 10)
        try FileSystem.remove(path + ".hint")
        let major = withVersion(bytes, major: 4, minor: 0)
        writeFile(path, major)
        #expect(throws: LogStoreError.unsupportedVersion(path: path, major: 4, minor: 0)) {
            try LogStore(path: path)
        }
        #expect(throws: LogStoreError.unsupportedVersion(path: path, major: 4, minor: 0)) {
            try LogStore(path: path, options: .init(readOnly: true))
        }
        #expect(fileBytes(path) == major)

        let minor = withVersion(bytes, major: 2, minor: 3)
        writeFile(path, minor)
        #expect(throws: LogStoreError.newerMinorVersion(path: path, major: 2, minor: 3)) {
            try LogStore(path: path)
        }
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try reader.value(forKey: "key-2") == expectedValue(for: 2, length: 12))
        #expect(throws: LogStoreError.readOnly(path: path)) {
            try reader.put([1], forKey: "x", metadata: metadata(1))
        }
        #expect(fileBytes(path) == minor)

        var broken = bytes
        broken[20] ^= 1  // inside the generation: the header checksum fails
        writeFile(path, broken)
        #expect(throws: LogStoreError.corruptFileHeader(path: path)) { try LogStore(path: path) }
        #expect(fileBytes(path) == broken)
    }

    @Test func secondWriterInTheSameProcessIsLockedOutButReadersAreNot() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let first = try LogStore(path: path)
        try first.put([1], forKey: "a", metadata: metadata(1))
        try first.synchronize()
        #expect(throws: LogStoreError.storeLocked(path: path, byThisProcess: true)) {
            try LogStore(path: path)
        }
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try reader.value(forKey: "a") == [1])
        try first.close()
        let second = try LogStore(path: path)
        #expect(try second.value(forKey: "a") == [1])
    }
}
