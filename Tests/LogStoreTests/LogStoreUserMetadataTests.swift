import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// Format 3 and user metadata (`Spec/store.md` §13): a log stays format 2 until it needs it,
/// then is rewritten keeping every entry; the block is read and checked without the value, and
/// survives touches, compaction, snapshots and reopening.
@Suite struct LogStoreUserMetadataTests {
    static func major(_ path: String) -> UInt16 {
        let bytes = fileBytes(path)
        return UInt16(bytes[8]) | UInt16(bytes[9]) << 8
    }

    @Test func aLogBecomesFormat3OnlyWithItsFirstUserMetadataAndKeepsEveryEntry() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        try store.put([1, 2, 3], forKey: "plain", metadata: metadata(1))
        try store.put([4], forKey: "expired", metadata: metadata(2, expiresAt: 0))
        try store.synchronize()
        #expect(Self.major(path) == 2)
        #expect(try store.setUserMetadata([], forKey: Array("plain".utf8)))  // nothing to write in format 2
        #expect(Self.major(path) == 2)
        try [UInt8](repeating: 5, count: 100).withUnsafeBytes {
            try store.put(
                $0, forKey: Array("etag".utf8), metadata: metadata(3), userMetadata: Array("\"v1\"".utf8))
        }
        try store.synchronize()
        #expect(Self.major(path) == 3)
        #expect(store.entries().count == 3)  // the rewrite dropped nothing, expired or not
        #expect(try store.userMetadata(forKey: Array("etag".utf8)) == Array("\"v1\"".utf8))
        #expect(try store.userMetadata(forKey: Array("plain".utf8)) == [])
        #expect(try store.userMetadata(forKey: Array("absent".utf8)) == nil)
        #expect(try store.value(forKey: "etag") == [UInt8](repeating: 5, count: 100))
        #expect(try store.verify().isValid)
        try store.close()
        #expect(try LogStore.verify(path: path).isValid)
    }

    @Test(arguments: [true, false])
    func replacedUserMetadataSurvivesTouchesCompactionAndReopening(usesSnapshot: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
            try [UInt8](repeating: 9, count: 50).withUnsafeBytes {
                try store.put($0, forKey: Array("a".utf8), metadata: metadata(1), userMetadata: [1])
            }
            try store.put([7], forKey: "b", metadata: metadata(2))
            #expect(try store.setUserMetadata([2, 2], forKey: Array("a".utf8)))
            #expect(try store.setUserMetadata([3], forKey: Array("b".utf8)))
            #expect(try !store.setUserMetadata([3], forKey: Array("absent".utf8)))
            try store.updateMetadata(metadata(5), forKey: "a")
            #expect(try store.userMetadata(forKey: Array("a".utf8)) == [2, 2])  // from the buffer
            try store.synchronize()
            #expect(try store.userMetadata(forKey: Array("a".utf8)) == [2, 2])  // from the file
            try store.close()
        }
        let reopened = try LogStore(
            path: path, options: .init(compactionDeadRatio: nil, usesSnapshot: usesSnapshot))
        #expect(reopened.recovery.usedSnapshot == usesSnapshot)
        #expect(try reopened.userMetadata(forKey: Array("a".utf8)) == [2, 2])
        #expect(try reopened.userMetadata(forKey: Array("b".utf8)) == [3])
        #expect(reopened.metadata(forKey: "a") == metadata(5))
        _ = try reopened.compact(now: 0)
        #expect(try reopened.userMetadata(forKey: Array("a".utf8)) == [2, 2])
        #expect(try reopened.userMetadata(forKey: Array("b".utf8)) == [3])
        #expect(try reopened.value(forKey: "a") == [UInt8](repeating: 9, count: 50))
        #expect(try reopened.verify().isValid)
        try reopened.close()
    }

    @Test func aDamagedBlockIsReportedAndTheValueStillReads() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        do {
            let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
            try [UInt8](repeating: 1, count: 20).withUnsafeBytes {
                try store.put(
                    $0, forKey: Array("k".utf8), metadata: metadata(1), userMetadata: Array("etag-bytes".utf8)
                )
            }
            try store.close()
        }
        var bytes = fileBytes(path)
        let at = bytes.count - 2  // inside the block, the record's last bytes
        bytes[at] ^= 0xFF
        writeFile(path, bytes)
        let store = try LogStore(path: path, options: .init(readOnly: true))
        #expect(throws: (any Error).self) { try store.userMetadata(forKey: Array("k".utf8)) }
        #expect(try store.value(forKey: "k") == [UInt8](repeating: 1, count: 20))
        #expect(try !LogStore.verify(path: path).isValid)
    }

    @Test func moreThan4KiBIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file())
        let tooLong = [UInt8](repeating: 0, count: LogStore.maximumUserMetadataLength + 1)
        #expect(throws: LogStoreError.userMetadataTooLarge(length: 4097)) {
            try [UInt8]().withUnsafeBytes {
                try store.put($0, forKey: Array("k".utf8), metadata: metadata(1), userMetadata: tooLong)
            }
        }
        #expect(store.entries().isEmpty)
    }
}
