import Checksums
import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// The byte layouts of `Spec/backends.md`, checked field by field so another implementation
/// can rely on the tables.
@Suite struct FormatTests {
    static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    @Test func anEntryRecordMatchesTheTable() {
        var writer = ByteWriter(capacity: 0)
        let metadata = CacheEntryMetadata(createdAt: 1_000, expiresAt: .max, accessSequence: 7)
        encode(key: Array("k".utf8), value: [0xAA, 0xBB], metadata: metadata, into: &writer)
        var expected = Self.littleEndian(UInt32(1)) + Self.littleEndian(UInt64(2))
        expected +=
            Self.littleEndian(Int64(1_000)) + Self.littleEndian(Int64.max) + Self.littleEndian(UInt64(7))
        expected += Self.littleEndian(XXH3.checksum(of: [0xAA, 0xBB] as [UInt8]))
        expected += Self.littleEndian(XXH3.checksum(of: expected + Array("k".utf8)))
        expected += Array("k".utf8) + [0xAA, 0xBB]
        #expect(writer.bytes == expected)
        #expect(writer.bytes.count == EntryRecord.overhead + 1 + 2)
    }

    @Test func theDictionaryFileIsAHeaderAndSortedRecords() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(.dictionary, directory, clock: ManualClock(milliseconds: 5)))
        try cache.store([2], forKey: "b")
        try cache.store([1], forKey: "a")
        try cache.synchronize()
        let file = try [UInt8](
            Data(contentsOf: directory.cacheURL.appendingPathComponent("cache.dictionary")))
        var expected = Array("ICDICT01".utf8) + Self.littleEndian(UInt32(2)) + Self.littleEndian(UInt32(2))
        var writer = ByteWriter(capacity: 0)
        encode(
            key: [0x61], value: [1], metadata: .init(createdAt: 5, expiresAt: .max, accessSequence: 2),
            into: &writer)
        encode(
            key: [0x62], value: [2], metadata: .init(createdAt: 5, expiresAt: .max, accessSequence: 1),
            into: &writer)
        expected += writer.bytes
        #expect(file == expected)
    }

    @Test func aDirectoryEntryFileIsMagicAndOneRecord() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(.directory, directory, clock: ManualClock(milliseconds: 9)))
        try cache.store([3, 4], forKey: "key")
        try cache.synchronize()
        let entryPath = directory.cacheURL.appendingPathComponent("entries/" + SHA256.hexDigest("key".utf8))
        var writer = ByteWriter(capacity: 0)
        writer.append(Array("ICENTR02".utf8))
        encode(
            key: Array("key".utf8), value: [3, 4],
            metadata: .init(createdAt: 9, expiresAt: .max, accessSequence: 1), into: &writer)
        #expect(try [UInt8](Data(contentsOf: entryPath)) == writer.bytes)
        let index = try [UInt8](Data(contentsOf: directory.cacheURL.appendingPathComponent("index")))
        var expected = Array("ICINDX01".utf8) + Self.littleEndian(UInt32(2)) + Self.littleEndian(UInt32(1))
        expected += Self.littleEndian(UInt32(3)) + Self.littleEndian(UInt64(2)) + Self.littleEndian(Int64(9))
        expected += Self.littleEndian(Int64.max) + Self.littleEndian(UInt64(1)) + Array("key".utf8)
        expected += Self.littleEndian(XXH3.checksum(of: expected))
        #expect(index == expected)
    }

    private func encode(
        key: [UInt8], value: [UInt8], metadata: CacheEntryMetadata, into writer: inout ByteWriter
    ) {
        value.withUnsafeBytes { EntryRecord.encode(key: key, value: $0, metadata: metadata, into: &writer) }
    }
}
