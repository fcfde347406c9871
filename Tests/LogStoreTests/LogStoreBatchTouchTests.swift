import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// `updateMetadata(_:)` for many keys must write exactly what one call per key writes.
@Suite struct LogStoreBatchTouchTests {
    /// A key whose touch record (56 + 3,000 bytes) is over half of the 4 KiB write buffer.
    static let longKey = String(repeating: "l", count: 3000)

    /// The updates: present keys, an absent one, one key twice, and (with a 4 KiB buffer) a
    /// long key whose touch record is too big to buffer; enough of them to flush mid-batch.
    static func updates() -> [(key: [UInt8], metadata: EntryMetadata)] {
        var updates: [(key: [UInt8], metadata: EntryMetadata)] = []
        for round in 0..<3 {
            for index in 0..<40 {
                updates.append((Array("key-\(index)".utf8), metadata(UInt64(100 + round * 40 + index))))
            }
        }
        updates.append((Array("absent".utf8), metadata(999)))
        updates.append((Array(longKey.utf8), metadata(1000)))
        updates.append((Array("key-7".utf8), metadata(1001)))
        return updates
    }

    static func filledStore(_ path: String) throws -> LogStore {
        let store = try LogStore(path: path, options: .init(writeBufferSize: 4096))
        for index in 0..<40 {
            try store.put(
                expectedValue(for: index, length: 100), forKey: "key-\(index)", metadata: metadata(1))
        }
        try store.put([1], forKey: longKey, metadata: metadata(1))
        return store
    }

    /// The two logs hold the same bytes, apart from the random generation in the file header.
    static func expectSameRecords(
        _ onePerKey: String, _ batched: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let one = fileBytes(onePerKey)
        let batch = fileBytes(batched)
        #expect(one.count == batch.count, sourceLocation: sourceLocation)
        #expect(
            one.count > RecordFormat.fileHeaderSize
                && one[RecordFormat.fileHeaderSize...] == batch[RecordFormat.fileHeaderSize...],
            sourceLocation: sourceLocation)
    }

    @Test func aBatchWritesWhatOneCallPerKeyWrites() throws {
        let directory = TemporaryDirectory()
        let onePerKey = directory.file("one.log")
        let batched = directory.file("batch.log")
        do {
            let store = try Self.filledStore(onePerKey)
            for update in Self.updates() { try store.updateMetadata(update.metadata, forKey: update.key) }
            try store.close()
        }
        do {
            let store = try Self.filledStore(batched)
            try store.updateMetadata(Self.updates())
            // Visible before any flush or reopen, as each single update is.
            #expect(store.metadata(forKey: "key-7") == metadata(1001))
            #expect(store.metadata(forKey: "key-39") == metadata(219))
            #expect(store.metadata(forKey: Self.longKey) == metadata(1000))
            #expect(store.metadata(forKey: "absent") == nil)
            try store.close()
        }
        Self.expectSameRecords(onePerKey, batched)
        let reopened = try LogStore(path: batched)
        #expect(reopened.metadata(forKey: "key-7") == metadata(1001))
        #expect(try reopened.value(forKey: "key-7") == expectedValue(for: 7, length: 100))
        try reopened.close()
    }

    @Test func aBatchWithAnInvalidKeyWritesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try Self.filledStore(path)
        try store.synchronize()
        let before = fileBytes(path)
        #expect(throws: LogStoreError.invalidKey(length: 0)) {
            try store.updateMetadata([(Array("key-1".utf8), metadata(5)), ([], metadata(6))])
        }
        try store.synchronize()
        #expect(fileBytes(path) == before)
        #expect(store.metadata(forKey: "key-1") == metadata(1))
        try store.close()
    }

    /// `touchRecords(_:newMetadata:)` writes what one `updateMetadata` call per current record
    /// writes, with each key's metadata made from its latest (a key touched twice starts from
    /// its first touch), and skips a replaced, a removed and an absent key without asking for
    /// their metadata.
    @Test func touchesOfTheRecordsReadWriteWhatOneUpdatePerKeyWrites() throws {
        let directory = TemporaryDirectory()
        /// A touch's metadata from the entry's current one and the touch's position.
        func touched(_ current: EntryMetadata, _ position: Int) -> EntryMetadata {
            EntryMetadata(
                createdAt: current.createdAt, expiresAt: current.expiresAt - 1,
                accessSequence: current.accessSequence + 1000 + UInt64(position))
        }
        /// A filled store, its touches (the records as first read; then key-3 replaced and
        /// key-5 removed), and which positions must be touched.
        func prepared(_ path: String) throws -> (LogStore, [LogStore.Touch], [Int]) {
            let store = try Self.filledStore(path)
            var touches: [LogStore.Touch] = []
            for round in 0..<2 {
                for index in 0..<40 where round == 0 || index == 7 {
                    let key = Array("key-\(index)".utf8)
                    let offset = try #require(try store.entryInfo(forKey: key)).recordOffset
                    touches.append(LogStore.Touch(key: key, recordOffset: offset))
                }
            }
            let longKey = Array(Self.longKey.utf8)
            touches.append(
                LogStore.Touch(
                    key: longKey,
                    recordOffset: try #require(try store.entryInfo(forKey: longKey)).recordOffset))
            touches.append(LogStore.Touch(key: Array("absent".utf8), recordOffset: 0))
            try store.put([9], forKey: "key-3", metadata: metadata(2))
            try store.removeValue(forKey: "key-5")
            let expected = touches.indices.filter { ![3, 5, touches.count - 1].contains($0) }
            return (store, touches, expected)
        }
        let onePerKey = directory.file("one.log")
        do {
            let (store, touches, expected) = try prepared(onePerKey)
            for position in expected {
                let current = try #require(
                    store.metadata(forKey: String(decoding: touches[position].key, as: UTF8.self)))
                try store.updateMetadata(touched(current, position), forKey: touches[position].key)
            }
            try store.close()
        }
        let batched = directory.file("batch.log")
        do {
            let (store, touches, expected) = try prepared(batched)
            var asked: [Int] = []
            try store.touchRecords(touches) { position, current in
                asked.append(position)
                return touched(current, position)
            }
            #expect(asked == expected)
            // key-7, touched at positions 7 and 40: the second starts from the first.
            #expect(
                store.metadata(forKey: "key-7")
                    == EntryMetadata(
                        createdAt: 1_700_000_000_000, expiresAt: .max - 2, accessSequence: 1 + 1007 + 1040))
            #expect(store.metadata(forKey: "key-3") == metadata(2))
            try store.close()
        }
        Self.expectSameRecords(onePerKey, batched)
    }

    @Test func touchesWithAnInvalidKeyWriteNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try Self.filledStore(path)
        try store.synchronize()
        let before = fileBytes(path)
        let offset = try #require(try store.entryInfo(forKey: Array("key-1".utf8))).recordOffset
        #expect(throws: LogStoreError.invalidKey(length: 0)) {
            try store.touchRecords([
                LogStore.Touch(key: Array("key-1".utf8), recordOffset: offset),
                LogStore.Touch(key: [], recordOffset: 0),
            ]) { _, current in current }
        }
        try store.synchronize()
        #expect(fileBytes(path) == before)
        try store.close()
    }
}
