import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// A read looks its key up by length and hash bits alone and lets the record's own key confirm
/// the entry (`KeyIndex.findLikely`); when the record holds another key, the exact lookup must
/// decide. Two keys whose hashes agree in the tag and the first slot are found by search, under
/// an index with a fixed seed.
@Suite struct LogStoreLikelyEntryTests {
    static let seed: UInt64 = 0x5EED

    /// Two 8-byte keys whose hashes under `seed` share the 32-bit tag and the low 4 bits (the
    /// first slot of a 16-slot table), so each one's lookup meets the other's entry first.
    static let collidingKeys: ([UInt8], [UInt8]) = {
        let index = KeyIndex(seed: seed)
        var seen: [UInt64: UInt64] = [:]
        var counter: UInt64 = 0
        while true {
            counter += 1
            let hash = withUnsafeBytes(of: counter.littleEndian) { index.hash($0) }
            let bits = hash & 0xFFFF_FFFF_0000_000F
            if let other = seen[bits] {
                return (
                    withUnsafeBytes(of: other.littleEndian) { Array($0) },
                    withUnsafeBytes(of: counter.littleEndian) { Array($0) }
                )
            }
            seen[bits] = counter
        }
    }()

    /// `store`'s index rebuilt under `seed` (a fresh 16-slot table), entries unchanged.
    static func useFixedSeed(_ store: LogStore) {
        let rebuilt = KeyIndex(seed: seed)
        store.index.forEachEntry { _, key, entry in rebuilt.insert(key, entry) }
        store.index = rebuilt
    }

    static func value(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 300) }

    static func put(_ value: [UInt8], _ key: [UInt8], _ store: LogStore) throws {
        try value.withUnsafeBytes { try store.put($0, forKey: key, metadata: metadata(1)) }
    }

    static func likely(_ key: [UInt8], _ store: LogStore) -> Int? {
        key.withUnsafeBytes { store.index.findLikely($0)?.number }
    }

    static func exact(_ key: [UInt8], _ store: LogStore) -> Int? {
        key.withUnsafeBytes { store.index.find($0) }
    }

    /// Reads `key` every way a reader can: into an array, and lent (from the mapping once the
    /// record is flushed).
    static func reads(_ store: LogStore, _ key: [UInt8]) throws -> [[UInt8]?] {
        [try store.value(forKey: key), try store.withValue(forKey: key) { bytes, _ in Array(bytes) }]
    }

    @Test func aKeyWhoseLikelyEntryIsAnotherKeysReadsItsOwnValue() throws {
        let (first, second) = Self.collidingKeys
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(compactionDeadRatio: nil))
        try Self.put(Self.value(1), first, store)
        try Self.put(Self.value(2), second, store)
        for flushed in [false, true] {
            if flushed { try store.synchronize() }
            Self.useFixedSeed(store)
            #expect(Self.likely(second, store) != Self.exact(second, store))
            #expect(try Self.reads(store, second) == [Self.value(2), Self.value(2)])
            #expect(try Self.reads(store, first) == [Self.value(1), Self.value(1)])
        }
        try store.close()
    }

    @Test func anAbsentKeyWhoseLikelyEntryIsAnotherKeysIsAMiss() throws {
        let (first, second) = Self.collidingKeys
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(compactionDeadRatio: nil))
        try Self.put(Self.value(1), first, store)
        for flushed in [false, true] {
            if flushed { try store.synchronize() }
            Self.useFixedSeed(store)
            #expect(Self.likely(second, store) != nil)
            #expect(try Self.reads(store, second) == [nil, nil])
        }
        try store.close()
    }

    /// A hit's touch finds its entry by hash bits and length too, and must check that the
    /// record at the offset the read found still holds its key: after a compaction, another
    /// key's record can start at that offset, and that key's entry can be the likely one.
    @Test func aTouchOfAnOffsetAnotherKeysRecordNowHoldsTouchesNothing() throws {
        let (first, second) = Self.collidingKeys
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(compactionDeadRatio: nil))
        try Self.put(Self.value(1), first, store)
        let offset = try #require(try store.entryInfo(forKey: first)).recordOffset
        try store.removeValue(forKey: first)
        try Self.put(Self.value(2), second, store)
        _ = try store.compact(now: 0)
        Self.useFixedSeed(store)
        // The scenario: the second key's record now starts where the first's was read, and its
        // entry is the one the first key's hash bits and length lead to.
        let secondInfo = try #require(try store.entryInfo(forKey: second))
        #expect(secondInfo.recordOffset == offset)
        #expect(Self.likely(first, store) == Self.exact(second, store))
        let length = store.statistics.fileSize
        try store.touchRecords([LogStore.Touch(key: first, recordOffset: offset)]) { _, _ in metadata(99) }
        #expect(try store.entryInfo(forKey: second)?.metadata == secondInfo.metadata)
        #expect(store.statistics.fileSize == length, "no touch record written")
        // The second key's own touch at that offset takes the same path and is applied.
        try store.touchRecords([LogStore.Touch(key: second, recordOffset: offset)]) { _, _ in metadata(99) }
        #expect(try store.entryInfo(forKey: second)?.metadata == metadata(99))
        try store.close()
    }

    /// A closure that throws is not called again, even when the value was replaced meanwhile
    /// (the retry after a failed record check must not take the closure's own errors).
    @Test func aLendingClosureThatThrowsRunsOnceThoughTheValueChangedMeanwhile() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(path: directory.file(), options: .init(compactionDeadRatio: nil))
        let key = Array("key".utf8)
        try Self.put(Self.value(1), key, store)
        try store.synchronize()
        var calls = 0
        #expect(throws: LogStoreError.closed(path: "body")) {
            try store.withValue(forKey: key) { _, _ in
                calls += 1
                try Self.put(Self.value(2), key, store)
                try store.synchronize()
                throw LogStoreError.closed(path: "body")
            }
        }
        #expect(calls == 1)
        #expect(try store.value(forKey: key) == Self.value(2))
        try store.close()
    }
}
