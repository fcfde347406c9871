import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads through a mapping of the file (`Spec/store.md` §8.2): the same bytes and the same
/// checks as `pread`, across growth past the mapping, compaction and reopening, for writers
/// and read-only handles.
@Suite struct LogStoreMappingTests {
    /// 72 MiB of values outgrow the first 64 MiB mapping; every value reads back from the
    /// mapping as it grows, after compaction (a new file, a new mapping) and after reopening.
    @Test func readsFollowTheFileAsItOutgrowsItsMappingAndIsCompacted() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        // 1 MiB values, each of its own byte with its index in front: cheap to make and compare.
        func large(_ index: Int) -> [UInt8] {
            var value = [UInt8](repeating: UInt8(truncatingIfNeeded: index &* 37), count: 1 << 20)
            value[0] = UInt8(index)
            return value
        }
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        #expect(store.mapping?.length == Int(LogStore.minimumMappingLength))
        for index in 0..<72 {
            try store.put(large(index), forKey: "v\(index)", metadata: metadata(1))
            // A value read right after it is written comes from the buffer or the mapping.
            #expect(try store.value(forKey: "v\(index)") == large(index))
        }
        try store.synchronize()
        let grown = try #require(store.mapping).length
        #expect(UInt64(grown) >= store.flushedLength && grown > Int(LogStore.minimumMappingLength))
        for index in stride(from: 0, to: 72, by: 2) { try store.removeValue(forKey: "v\(index)") }
        _ = try store.compact(now: 2)
        #expect(try #require(store.mapping).length >= Int(store.flushedLength))
        for index in 0..<72 {
            let expected = index % 2 == 0 ? nil : large(index)
            #expect(try store.value(forKey: "v\(index)") == expected)
        }
        try store.close()
        #expect(store.mapping == nil)

        let reopened = try LogStore(path: path)
        #expect(reopened.mapping != nil)
        #expect(try reopened.value(forKey: "v71") == large(71))
        try reopened.close()
    }

    /// A byte changed in the file under an open store is seen through the mapping and caught by
    /// the value checksum; the header checksum catches a changed key length.
    @Test func damageUnderAnOpenStoreIsCaughtThroughTheMapping() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path)
        try store.put(expectedValue(for: 1, length: 4096), forKey: "value", metadata: metadata(1))
        try store.put(expectedValue(for: 2, length: 100), forKey: "other", metadata: metadata(1))
        try store.synchronize()
        #expect(store.mapping != nil)
        let header = RecordFormat.fileHeaderSize + RecordFormat.recordHeaderSize
        try overwrite(
            path, at: header + "value".utf8.count + 1000,
            with: 0x5A ^ expectedValue(for: 1, length: 4096)[1000])
        #expect(throws: LogStoreError.self) { try store.value(forKey: "value") }
        #expect(try store.value(forKey: "other") == expectedValue(for: 2, length: 100))
        try store.close()
    }

    /// `withValue` lends a flushed record's value from the mapping itself, checked, and the
    /// bytes stay readable inside `body` even when the store closes (and drops its mapping)
    /// there; damage in the file is a `checksumMismatch`, not bytes.
    @Test func withValueLendsTheMappedBytesAndKeepsThemValid() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path)
        let value = expectedValue(for: 4, length: 10_000)
        try store.put(value, forKey: "lent", metadata: metadata(1))
        try store.put(expectedValue(for: 5, length: 50), forKey: "buffered", metadata: metadata(1))
        // Still in the write buffer: read into a buffer, same bytes.
        #expect(
            try store.withValue(forKey: Array("buffered".utf8)) { bytes, _ in Array(bytes) }
                == expectedValue(for: 5, length: 50))
        try store.synchronize()
        let mapping = try #require(store.mapping)
        let lent = try store.withValue(forKey: Array("lent".utf8)) { (bytes, info) -> [UInt8] in
            let start = UnsafeRawPointer(bytes.baseAddress!)
            #expect(start >= mapping.base && start + bytes.count <= mapping.base + mapping.length)
            #expect(info.valueLength == 10_000)
            try store.close()
            #expect(store.mapping == nil)
            return Array(bytes)
        }
        #expect(lent == value)

        let damaged = try LogStore(path: path)
        #expect(try damaged.withValue(forKey: Array("absent".utf8)) { _, _ in 1 } == nil)
        let header = RecordFormat.fileHeaderSize + RecordFormat.recordHeaderSize
        try overwrite(path, at: header + "lent".utf8.count + 5000, with: 0x5A ^ value[5000])
        #expect(throws: LogStoreError.self) {
            try damaged.withValue(forKey: Array("lent".utf8)) { _, _ in Issue.record("damaged bytes lent") }
        }
        try damaged.close()
    }

    /// Writers that turn the mapping off read with `pread` and see the same bytes.
    @Test func theOptionOffUsesPread() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(mapsFileForReads: false))
        #expect(writer.mapping == nil)
        try writer.put(expectedValue(for: 3, length: 300_000), forKey: "big", metadata: metadata(1))
        try writer.synchronize()
        let reader = try LogStore(path: path, options: .init(readOnly: true, mapsFileForReads: false))
        #expect(reader.mapping == nil)
        #expect(try reader.value(forKey: "big") == expectedValue(for: 3, length: 300_000))
        #expect(try writer.value(forKey: "big") == expectedValue(for: 3, length: 300_000))
        try reader.close()
        try writer.close()
    }

    /// A read-only handle maps the file too (§8.2), but copies from the mapping only what the
    /// writer synchronized: a record the writer wrote and may still cut back is read with
    /// `pread`, so a file cut back under the reader is a `truncatedRecord`, never a crash. It
    /// follows the writer's growth and its later synchronizations, and lends mapped bytes.
    @Test func readOnlyHandlesMapWhatTheWriterSynchronized() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(writeBufferSize: 0))
        try writer.put(expectedValue(for: 1, length: 5000), forKey: "synced", metadata: metadata(1))
        try writer.synchronize()
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        let mapping = try #require(reader.mapping)
        #expect(reader.mappedReadLimit == reader.flushedLength)
        let lent = try reader.withValue(forKey: Array("synced".utf8)) { (bytes, _) -> [UInt8] in
            let start = UnsafeRawPointer(bytes.baseAddress!)
            #expect(start >= mapping.base && start + bytes.count <= mapping.base + mapping.length)
            return Array(bytes)
        }
        #expect(lent == expectedValue(for: 1, length: 5000))

        // Written, not synchronized: the reader follows (looking at most once a millisecond)
        // and reads it with pread.
        let synchronizedLength = writer.flushedLength
        try writer.put(expectedValue(for: 2, length: 7000), forKey: "written", metadata: metadata(2))
        var seen: [UInt8]?
        for _ in 0..<200 where seen == nil {
            Thread.sleep(forTimeInterval: 0.002)
            seen = try reader.value(forKey: "written")
        }
        #expect(seen == expectedValue(for: 2, length: 7000))
        #expect(reader.mappedReadLimit == synchronizedLength)

        // Cut back under the reader (as a writer does after a failed write, §8.4): a short
        // read, reported; the synchronized record still reads from the mapping.
        #expect(truncate(path, off_t(synchronizedLength)) == 0)
        #expect(throws: LogStoreError.truncatedRecord(offset: synchronizedLength)) {
            try reader.value(forKey: "written")
        }
        #expect(try reader.value(forKey: "synced") == expectedValue(for: 1, length: 5000))
        try reader.close()
        try writer.close()

        // Once the writer synchronizes, the reader maps it all.
        let second = try LogStore(path: path, options: .init(writeBufferSize: 0))
        let follower = try LogStore(path: path, options: .init(readOnly: true))
        try second.put(expectedValue(for: 3, length: 9000), forKey: "later", metadata: metadata(3))
        try second.synchronize()
        var later: [UInt8]?
        for _ in 0..<200 where later == nil {
            Thread.sleep(forTimeInterval: 0.002)
            later = try follower.value(forKey: "later")
        }
        #expect(later == expectedValue(for: 3, length: 9000))
        #expect(follower.mappedReadLimit == second.flushedLength)
        try follower.close()
        try second.close()
    }

    private func metadata(_ sequence: UInt64) -> EntryMetadata {
        EntryMetadata(createdAt: 1_000, expiresAt: .max, accessSequence: sequence)
    }

    /// Writes one byte at `offset` through a descriptor of its own, as another program would.
    private func overwrite(_ path: String, at offset: Int, with byte: UInt8) throws {
        let descriptor = open(path, O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var value = byte
        #expect(pwrite(descriptor, &value, 1, off_t(offset)) == 1)
    }
}
