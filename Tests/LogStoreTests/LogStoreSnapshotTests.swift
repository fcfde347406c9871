import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// The index snapshot, `<log>.hint` (`Spec/store.md` §4): written at a clean close and after
/// compaction, used by open in place of a scan when it describes the log, and ignored, never
/// fatal, when it does not.
@Suite struct LogStoreSnapshotTests {
    /// `snapshot` with both of its checksums computed again (header: bytes 40–47 over 0–39;
    /// trailer: the last 8 bytes over the entries), so only its other bytes can be wrong.
    static func withChecksums(_ snapshot: [UInt8]) -> [UInt8] {
        var bytes = snapshot
        func store(_ value: UInt64, at offset: Int) {
            for byte in 0..<8 {
                bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte)))
            }
        }
        store(XXH3.checksum(of: bytes[0..<40]), at: 40)
        store(XXH3.checksum(of: bytes[48..<(bytes.count - 8)]), at: bytes.count - 8)
        return bytes
    }

    /// A store of `count` entries, one of them touched since its put, closed cleanly.
    static func closedStore(at path: String, count: Int = 10) throws {
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        for index in 0..<count {
            try store.put(
                expectedValue(for: index, length: 20 + index), forKey: "k\(index)",
                metadata: metadata(UInt64(index)))
        }
        try store.updateMetadata(metadata(100, expiresAt: 9_000_000_000_000), forKey: "k3")
        try store.removeValue(forKey: "k5")
        try store.close()
    }

    /// Every entry of `store` with its value and metadata, to compare two opens of one log.
    static func contents(of store: LogStore) throws -> [String: ([UInt8]?, EntryMetadata?)] {
        var contents: [String: ([UInt8]?, EntryMetadata?)] = [:]
        for entry in store.entries() {
            contents[entry.key] = (try store.value(forKey: entry.key), store.metadata(forKey: entry.key))
        }
        return contents
    }

    @Test func aCleanCloseWritesASnapshotThatOpenUsesInPlaceOfAScan() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        try Self.closedStore(at: path)
        #expect(FileManager.default.fileExists(atPath: path + ".hint"))
        let fromSnapshot = try LogStore(path: path, options: .init(readOnly: true))
        let scanned = try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        #expect(fromSnapshot.recovery.usedSnapshot)
        #expect(fromSnapshot.recovery.scannedRecords == 0)
        #expect(!scanned.recovery.usedSnapshot)
        #expect(scanned.recovery.scannedRecords == 12)
        // The same entries, values, metadata (the touch included) and byte counts either way.
        let expected = try Self.contents(of: scanned)
        let found = try Self.contents(of: fromSnapshot)
        #expect(found.keys.sorted() == expected.keys.sorted())
        for (key, (value, metadata)) in expected {
            #expect(found[key]?.0 == value && found[key]?.1 == metadata, "\(key)")
        }
        #expect(fromSnapshot.metadata(forKey: "k3") == metadata(100, expiresAt: 9_000_000_000_000))
        // The index's memory estimate depends on how it was built; the byte counts may not.
        let (a, b) = (fromSnapshot.statistics, scanned.statistics)
        #expect(a.entries == b.entries && a.liveBytes == b.liveBytes)
        #expect(a.deadBytes == b.deadBytes && a.fileSize == b.fileSize)
    }

    /// A touched entry loaded from the snapshot keeps its flag: compaction rewrites its record
    /// header with the touched metadata, so a scan after it finds the touch.
    @Test func aTouchRecordedInTheSnapshotSurvivesCompaction() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        try Self.closedStore(at: path)
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        #expect(store.recovery.usedSnapshot)
        _ = try store.compact(now: 0)
        try store.close()
        let scanned = try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        #expect(scanned.metadata(forKey: "k3") == metadata(100, expiresAt: 9_000_000_000_000))
        #expect(try scanned.value(forKey: "k3") == expectedValue(for: 3, length: 23))
        #expect(try scanned.verify().isValid)
    }

    /// Compaction leaves a snapshot of the new log (§7.1 step 5): a crash right after it costs
    /// no scan.
    @Test func compactionWritesASnapshotOfTheNewLog() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        try Self.closedStore(at: path)
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        _ = try store.compact(now: 0)
        // What a crash now would leave: the new log and its snapshot, no close.
        let crashed = directory.file("crashed.log")
        writeFile(crashed, fileBytes(path))
        writeFile(crashed + ".hint", fileBytes(path + ".hint"))
        try store.close()
        let recovered = try LogStore(path: crashed, options: .init(readOnly: true))
        #expect(recovered.recovery.usedSnapshot)
        #expect(recovered.recovery.scannedRecords == 0)
        #expect(recovered.count == 9)
        #expect(try recovered.value(forKey: "k9") == expectedValue(for: 9, length: 29))
    }

    /// A snapshot that fails any check of §4 is ignored: open scans the log, and every entry
    /// is there. Damage in the magic, the major version, the header checksum, an entry and
    /// the trailer.
    @Test(arguments: [
        ("magic", 0), ("major", 8), ("header checksum", 41), ("entry", 48 + 50), ("trailer", -1),
    ])
    func aDamagedSnapshotIsIgnored(part: String, position: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        try Self.closedStore(at: path)
        var hint = fileBytes(path + ".hint")
        hint[position >= 0 ? position : hint.count + position] ^= 0x20
        writeFile(path + ".hint", hint)
        let store = try LogStore(path: path, options: .init(readOnly: true))
        #expect(!store.recovery.usedSnapshot, "\(part)")
        #expect(store.count == 9, "\(part)")
        #expect(try store.value(forKey: "k9") == expectedValue(for: 9, length: 29), "\(part)")
        #expect(store.metadata(forKey: "k3") == metadata(100, expiresAt: 9_000_000_000_000))
    }

    /// Only a writable store that changed its log writes a snapshot: not a read-only open, not a
    /// store opened without snapshots, and not a close with nothing new (§4).
    @Test func aSnapshotIsWrittenOnlyWhenTheLogChanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let bare = try LogStore(path: path, options: .init(usesSnapshot: false))
        try bare.put([1], forKey: "k", metadata: metadata(1))
        try bare.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".hint"))
        try LogStore(path: path, options: .init(readOnly: true)).close()
        #expect(!FileManager.default.fileExists(atPath: path + ".hint"))
        // A log opened without a usable snapshot gets one at its next close.
        try LogStore(path: path).close()
        let written =
            try FileManager.default.attributesOfItem(atPath: path + ".hint")[.modificationDate] as? Date
        #expect(written != nil)
        // Nothing new: the snapshot that describes the log stays as it is.
        let unchanged = try LogStore(path: path)
        #expect(unchanged.recovery.usedSnapshot)
        #expect(try unchanged.value(forKey: "k") == [1])
        try unchanged.close()
        #expect(
            try FileManager.default.attributesOfItem(atPath: path + ".hint")[.modificationDate] as? Date
                == written)
        // A change: the snapshot follows the log.
        let changed = try LogStore(path: path)
        try changed.put([2], forKey: "k2", metadata: metadata(2))
        try changed.close()
        let reopened = try LogStore(path: path, options: .init(readOnly: true))
        #expect(reopened.recovery.usedSnapshot && reopened.recovery.scannedRecords == 0)
        #expect(try reopened.value(forKey: "k2") == [2])
    }

    /// A crafted snapshot whose numbers overflow (an offset near 2^64, a count near 2^64, a
    /// size far beyond the log) is ignored: open scans the log instead of trapping (§4).
    @Test(arguments: [
        ("offset", 48 + 4, UInt64.max - 10), ("valueLength", 48 + 12, UInt64.max - 60),
        ("entryCount", 32, UInt64.max), ("logLength", 24, UInt64.max),
    ])
    func aSnapshotWithHostileNumbersIsIgnored(field: String, position: Int, value: UInt64) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path)
            for index in 0..<5 {
                try store.put(
                    expectedValue(for: index, length: 30), forKey: "k\(index)", metadata: metadata(1))
            }
            try store.close()
        }
        let original = fileBytes(path + ".hint")
        // With both checksums made again, an untouched snapshot is used: the control.
        writeFile(path + ".hint", Self.withChecksums(original))
        #expect(try LogStore(path: path, options: .init(readOnly: true)).recovery.usedSnapshot)
        var hint = original
        for byte in 0..<8 { hint[position + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        // Both checksums made again, so only the numbers are wrong.
        writeFile(path + ".hint", Self.withChecksums(hint))
        let store = try LogStore(path: path)
        #expect(!store.recovery.usedSnapshot, "\(field)")
        #expect(try store.value(forKey: "k4") == expectedValue(for: 4, length: 30))
    }

    /// A snapshot file much larger than its log cannot be real and is not even read.
    @Test func aHugeSnapshotIsNotRead() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path)
            try store.put([1], forKey: "k", metadata: metadata(1))
            try store.close()
        }
        // A sparse file: 64 GiB of apparent size, no disk.
        let hint = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".hint"))
        try hint.truncate(atOffset: 64 << 30)
        try hint.close()
        let store = try LogStore(path: path)
        #expect(!store.recovery.usedSnapshot)
        #expect(try store.value(forKey: "k") == [1])
    }

    @Test func snapshotCoversAPrefixAndTheRestIsScanned() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path)
            for index in 0..<20 {
                try store.put(
                    expectedValue(for: index, length: 50), forKey: "k\(index)",
                    metadata: metadata(UInt64(index)))
            }
            try store.close()
        }
        let store = try LogStore(path: path)
        #expect(store.recovery.usedSnapshot)
        #expect(store.recovery.scannedRecords == 0)
        try store.put([1], forKey: "k3", metadata: metadata(100))
        try store.removeValue(forKey: "k4")
        try store.synchronize()
        // What a crash now would leave: the durable log and the older snapshot.
        let crashed = directory.file("crashed.log")
        writeFile(crashed, fileBytes(path))
        writeFile(crashed + ".hint", fileBytes(path + ".hint"))
        let recovered = try LogStore(path: crashed)
        #expect(recovered.recovery.usedSnapshot)
        #expect(recovered.recovery.scannedRecords == 2)
        #expect(try recovered.value(forKey: "k3") == [1])
        #expect(try recovered.value(forKey: "k4") == nil)
        #expect(try recovered.value(forKey: "k5") == expectedValue(for: 5, length: 50))
        // A snapshot of another log (different generation) is ignored.
        try recovered.close()
        let other = directory.file("other.log")
        writeFile(other, fileBytes(path))
        let fresh = try LogStore(path: directory.file("fresh.log"))
        try fresh.put([9], forKey: "z", metadata: metadata(1))
        try fresh.close()
        writeFile(other + ".hint", fileBytes(directory.file("fresh.log") + ".hint"))
        let mismatched = try LogStore(path: other)
        #expect(!mismatched.recovery.usedSnapshot)
        #expect(try mismatched.value(forKey: "k3") == [1])
        #expect(try mismatched.value(forKey: "z") == nil)
    }
}
