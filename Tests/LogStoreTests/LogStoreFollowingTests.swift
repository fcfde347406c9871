import Foundation
import Platform
import TestSupport
import Testing

@testable import LogStoreKit

/// A read-only handle beside a writer that keeps no coordination file (`Spec/store.md` §12.5):
/// it takes up what the writer appended in chunks, checks every record and value, and stops at
/// the first record that is not whole yet.
@Suite struct LogStoreFollowingTests {
    /// Lets the reader's next operation look at the file again (at most once a millisecond).
    static func letTheReaderLook() { usleep(2_000) }

    /// The bytes of one put record for `key`, as a store writes it (in format 3 when it has user
    /// metadata, §13).
    static func recordBytes(
        key: String, value: [UInt8], userMetadata: [UInt8] = [], in directory: TemporaryDirectory
    ) throws -> [UInt8] {
        let path = directory.file("scratch-\(key).log")
        let scratch = try LogStore(path: path, options: .init(writeBufferSize: 0))
        try value.withUnsafeBytes { bytes in
            if userMetadata.isEmpty {
                try scratch.put(bytes, forKey: Array(key.utf8), metadata: metadata(7))
            } else {
                try scratch.put(
                    bytes, forKey: Array(key.utf8), metadata: metadata(7), userMetadata: userMetadata)
            }
        }
        try scratch.close()
        let start = RecordFormat.fileHeaderSize
        let length =
            RecordFormat.recordHeaderSize + key.utf8.count + value.count
            + (userMetadata.isEmpty ? 0 : Int(RecordFormat.userMetadataBlockLength(userMetadata.count)))
        return Array(fileBytes(path)[start..<start + length])
    }

    static func append(_ bytes: some Collection<UInt8>, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
    }

    @Test func aReaderTakesUpEverythingAWriterAppendedSinceItLooked() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        // User metadata first: it rewrites the log in format 3 (§13), which a reader that
        // opened before would reload whole rather than follow.
        try writer.put(
            UnsafeRawBufferPointer(start: nil, count: 0), forKey: Array("first".utf8), metadata: metadata(1),
            userMetadata: [9])
        try writer.synchronize()
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try reader.userMetadata(forKey: Array("first".utf8)) == [9])
        let identity = FileSystem.identity(ofPath: path)
        // Puts of many sizes, one longer than the 1 MiB chunk the reader reads at once,
        // touches, removals and user metadata, all appended before the reader looks again.
        for index in 0..<400 {
            let length = index == 200 ? 3 << 20 : index * 37 % 5_000
            try writer.put(
                expectedValue(for: index, length: length), forKey: "k\(index)", metadata: metadata(2))
        }
        for index in stride(from: 0, to: 400, by: 3) {
            try writer.updateMetadata(metadata(UInt64(10 + index)), forKey: "k\(index)")
        }
        for index in stride(from: 1, to: 400, by: 7) { try writer.removeValue(forKey: "k\(index)") }
        try writer.put(
            UnsafeRawBufferPointer(start: nil, count: 0), forKey: Array("tagged".utf8), metadata: metadata(3),
            userMetadata: [1, 2, 3])
        try writer.synchronize()
        Self.letTheReaderLook()
        for index in 0..<400 {
            let key = "k\(index)"
            #expect(try reader.value(forKey: key) == writer.value(forKey: key), "\(key)")
            #expect(reader.metadata(forKey: key) == writer.metadata(forKey: key), "\(key)")
        }
        #expect(try reader.userMetadata(forKey: Array("tagged".utf8)) == [1, 2, 3])
        #expect(FileSystem.identity(ofPath: path) == identity, "followed, not reloaded")
        #expect(reader.count == writer.count)
        try writer.close()
        try reader.close()
    }

    /// A record cut inside its value, and one longer than a chunk cut past the first chunk: the
    /// reader takes neither, nor anything after them, until their bytes are all there.
    @Test(arguments: [10_000, 3 << 20])
    func aReaderStopsAtARecordNotYetWhole(valueLength: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(writeBufferSize: 0))
        try writer.put([1], forKey: "a", metadata: metadata(1))
        try writer.close()
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        let value = expectedValue(for: 5, length: valueLength)
        let record = try Self.recordBytes(key: "b", value: value, in: directory)
        let cut = record.count - valueLength / 3
        try Self.append(record[..<cut], to: path)
        Self.letTheReaderLook()
        #expect(try reader.value(forKey: "a") == [1])
        #expect(try reader.value(forKey: "b") == nil)
        try Self.append(record[cut...], to: path)
        Self.letTheReaderLook()
        #expect(try reader.value(forKey: "b") == value)
        try reader.close()
    }

    /// A whole record whose value, or user metadata, does not match its checksum ends what the
    /// reader takes up: neither it nor the whole record after it is applied.
    @Test(arguments: [false, true])
    func aReaderStopsAtARecordThatFailsAChecksum(inUserMetadata: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(writeBufferSize: 0))
        // In format 3, as the damaged record is (§13).
        try [UInt8]([1]).withUnsafeBytes { bytes in
            try writer.put(bytes, forKey: Array("a".utf8), metadata: metadata(1), userMetadata: [9])
        }
        try writer.close()
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        var damaged =
            inUserMetadata
            ? try Self.recordBytes(key: "b", value: [1, 2, 3], userMetadata: [4, 5, 6, 7], in: directory)
            : try Self.recordBytes(key: "b", value: expectedValue(for: 6, length: 300), in: directory)
        damaged[damaged.count - 1] ^= 0x01
        try Self.append(damaged + Self.recordBytes(key: "c", value: [3], in: directory), to: path)
        Self.letTheReaderLook()
        #expect(try reader.value(forKey: "a") == [1])
        #expect(try reader.value(forKey: "b") == nil)
        #expect(try reader.value(forKey: "c") == nil)
        #expect(reader.count == 1)
        try reader.close()
    }

    /// Below the writer's sync mark the records are durable and whole (§12.5): one that fails a
    /// check there is damage, not a record being written. A reader that skips damage skips it as
    /// open does (§5.4), so the key reads as missing, not as its earlier value, and it reads on;
    /// one that does not skip damage stops there, as before.
    @Test func aReaderThatSkipsDamageSkipsAFailingRecordBelowTheSyncMark() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(compactionDeadRatio: nil, writeBufferSize: 0))
        try writer.put([1], forKey: "b", metadata: metadata(1))
        try writer.synchronize()
        let skipping = try LogStore(path: path, options: .init(readOnly: true, skipsDamagedRecords: true))
        let plain = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try skipping.value(forKey: "b") == [1])
        #expect(try plain.value(forKey: "b") == [1])
        let newer = [UInt8](repeating: 2, count: 40)
        try writer.put(newer, forKey: "b", metadata: metadata(2))
        try writer.put([3], forKey: "c", metadata: metadata(3))
        try writer.synchronize()
        _ = try LogStoreSharingTests.flipExpiryBit(ofRecordWithKey: "b", value: newer, in: path)
        // Past the mark, a whole record: taken up with its value checked, as before.
        try writer.put([6], forKey: "f", metadata: metadata(6))
        Self.letTheReaderLook()
        #expect(try skipping.value(forKey: "b") == nil, "not the earlier value")
        #expect(try skipping.value(forKey: "c") == [3])
        #expect(try skipping.value(forKey: "f") == [6])
        #expect(skipping.count == 2)
        #expect(try plain.value(forKey: "b") == [1])
        #expect(try plain.value(forKey: "c") == nil)
        // Past the mark a record that fails a check may be one being written: both wait.
        let unsynchronized = [UInt8](repeating: 4, count: 40)
        try writer.put(unsynchronized, forKey: "d", metadata: metadata(4))
        try writer.put([5], forKey: "e", metadata: metadata(5))
        _ = try LogStoreSharingTests.flipExpiryBit(ofRecordWithKey: "d", value: unsynchronized, in: path)
        Self.letTheReaderLook()
        #expect(try skipping.value(forKey: "e") == nil)
        try skipping.close()
        try plain.close()
        try writer.close()
    }

    /// Another handle's touch is a change of the entry's metadata, reported with the entry as it
    /// was and as it is, to a sharing handle and to a reader beside a lone writer alike.
    @Test(arguments: [true, false])
    func anotherHandlesTouchIsReportedAsAChange(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer =
            shared
            ? try LogStoreSharingTests.shared(path, first: true)
            : try LogStore(path: path, options: .init(writeBufferSize: 0))
        try writer.put([1], forKey: "k", metadata: metadata(1))
        try writer.put([2], forKey: "gone", metadata: metadata(2))
        let follower =
            shared
            ? try LogStoreSharingTests.shared(path, first: false)
            : try LogStore(path: path, options: .init(readOnly: true))
        #expect(try follower.value(forKey: "k") == [1])
        _ = follower.takeChanges()
        let touched = Array("k".utf8)
        let gone = Array("gone".utf8)
        let before = try #require(try writer.entryInfo(forKey: touched))
        let goneBefore = try #require(try writer.entryInfo(forKey: gone))
        try writer.updateMetadata(metadata(5), forKey: "k")
        try writer.removeValue(forKey: "gone")
        if !shared { Self.letTheReaderLook() }
        let after = try #require(try writer.entryInfo(forKey: touched))
        #expect(after.metadata == metadata(5))
        #expect(follower.metadata(forKey: "k") == metadata(5))
        #expect(
            follower.takeChanges() == [
                .entry(key: touched, before: before, after: after),
                .entry(key: gone, before: goneBefore, after: nil),
            ])
        try writer.close()
        try follower.close()
    }

    /// Past the bound (4,096 for a small index), a handle's pending changes become one
    /// `reloaded`, and records applied after it note nothing more until the owner takes them
    /// (§12.4); then noting starts again. A read-only cache that only reads never takes them.
    @Test(arguments: [true, false])
    func changesPastTheBoundBecomeOneReloadedThatLaterRecordsDoNotAddTo(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer =
            shared
            ? try LogStoreSharingTests.shared(path, first: true)
            : try LogStore(path: path, options: .init(writeBufferSize: 0))
        try writer.put([0], forKey: "first", metadata: metadata(1))
        let follower =
            shared
            ? try LogStoreSharingTests.shared(path, first: false)
            : try LogStore(path: path, options: .init(readOnly: true))
        #expect(try follower.value(forKey: "first") == [0])
        #expect(follower.takeChanges().isEmpty)
        for index in 0..<4_097 {
            try writer.put([UInt8(truncatingIfNeeded: index)], forKey: "k\(index)", metadata: metadata(2))
        }
        if !shared { Self.letTheReaderLook() }
        #expect(try follower.value(forKey: "k4096") == [0])
        // More of every kind after the collapse: a put, a touch, a removal.
        try writer.put([9], forKey: "late", metadata: metadata(3))
        try writer.updateMetadata(metadata(4), forKey: "k1")
        try writer.removeValue(forKey: "k2")
        if !shared { Self.letTheReaderLook() }
        #expect(try follower.value(forKey: "late") == [9])
        #expect(follower.metadata(forKey: "k1") == metadata(4))
        #expect(try follower.value(forKey: "k2") == nil)
        #expect(follower.takeChanges() == [.reloaded])
        // Taken: the next record is noted again.
        try writer.put([8], forKey: "after", metadata: metadata(5))
        if !shared { Self.letTheReaderLook() }
        let after = try #require(try writer.entryInfo(forKey: Array("after".utf8)))
        #expect(follower.takeChanges() == [.entry(key: Array("after".utf8), before: nil, after: after)])
        try writer.close()
        try follower.close()
    }

    /// A larger index keeps one change for every 16 entries before they become one `reloaded`:
    /// 70,000 entries keep 4,375.
    @Test func aLargerIndexKeepsMoreChanges() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        for index in 0..<70_000 {
            try writer.put([1], forKey: "k\(index)", metadata: metadata(1))
        }
        try writer.synchronize()
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        for index in 0..<4_375 { try writer.updateMetadata(metadata(2), forKey: "k\(index)") }
        try writer.synchronize()
        Self.letTheReaderLook()
        #expect(reader.takeChanges().count == 4_375)
        for index in 0..<4_376 { try writer.updateMetadata(metadata(3), forKey: "k\(index)") }
        try writer.synchronize()
        Self.letTheReaderLook()
        #expect(reader.takeChanges() == [.reloaded])
        try writer.close()
        try reader.close()
    }
}
