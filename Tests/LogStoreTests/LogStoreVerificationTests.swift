import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// `verify()` and `LogStore.verify(path:)` (`Spec/store.md` §8.5): every record from offset 32
/// is read and both of its checksums checked; the report counts the valid records and names the
/// first bad or incomplete one.
@Suite struct LogStoreVerificationTests {
    /// A store of three puts, a touch and a remove, unbuffered, closed: five records. Returns
    /// the file's bytes and where each record starts.
    static func fiveRecords(at path: String) throws -> (bytes: [UInt8], starts: [UInt64]) {
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil, writeBufferSize: 0))
        var starts: [UInt64] = []
        for index in 0..<3 {
            starts.append(store.statistics.fileSize)
            try store.put(expectedValue(for: index, length: 100), forKey: "k\(index)", metadata: metadata(1))
        }
        starts.append(store.statistics.fileSize)
        try store.updateMetadata(metadata(2), forKey: "k1")
        starts.append(store.statistics.fileSize)
        try store.removeValue(forKey: "k0")
        try store.close()
        return (fileBytes(path), starts)
    }

    @Test func anIntactStoreVerifiesEveryRecordOnceOpenOrNot() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, _) = try Self.fiveRecords(at: path)
        let expected = LogStore.VerificationReport(
            validRecords: 5, checkedBytes: UInt64(bytes.count - 32), firstDamagedOffset: nil, failure: nil)
        #expect(try LogStore.verify(path: path) == expected)
        let store = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try store.verify() == expected)
        // Dead records (the replaced touch target, the removed key) are checked too.
        #expect(store.count == 2)
    }

    /// Records still in the write buffer are written first, so the report covers them.
    @Test func bufferedRecordsAreWrittenBeforeTheyAreChecked() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: .init(writeBufferSize: 1 << 20))
        try store.put([1, 2, 3], forKey: "a", metadata: metadata(1))
        try store.put([4, 5], forKey: "b", metadata: metadata(2))
        #expect(try store.verify().validRecords == 2)
        #expect(try LogStore.verify(path: path).validRecords == 2)
        try store.close()
        #expect(throws: LogStoreError.closed(path: path)) { try store.verify() }
    }

    /// A flipped value byte fails the value checksum at its record, a flipped key byte the
    /// header checksum; the records before it count as valid. The damage is in the third put
    /// (k2), whose 100-byte value ends where the touch starts, after its 2-byte key.
    @Test(arguments: [("value", 40), ("key", 101)])
    func damageIsNamedAtItsRecord(part: String, bytesBeforeTheRecordEnd: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, starts) = try Self.fiveRecords(at: path)
        var damaged = bytes
        damaged[Int(starts[3]) - bytesBeforeTheRecordEnd] ^= 0x01
        writeFile(path, damaged)
        let report = try LogStore.verify(path: path)
        #expect(report.validRecords == 2, "\(part)")
        #expect(report.firstDamagedOffset == starts[2], "\(part)")
        #expect(report.checkedBytes == starts[2] - 32, "\(part)")
        guard case .checksumMismatch(let offset, let declared, let computed)? = report.failure else {
            Issue.record("\(part): \(String(describing: report.failure)) is not a checksum mismatch")
            return
        }
        #expect(offset == starts[2] && declared != computed, "\(part)")
    }

    /// A file that ends inside a record reports that record as truncated.
    @Test func aCutRecordIsTruncated() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, starts) = try Self.fiveRecords(at: path)
        writeFile(path, Array(bytes[..<(Int(starts[3]) - 10)]))
        #expect(
            try LogStore.verify(path: path)
                == LogStore.VerificationReport(
                    validRecords: 2, checkedBytes: starts[2] - 32, firstDamagedOffset: starts[2],
                    failure: .truncatedRecord(offset: starts[2])))
    }

    /// `verify(path:)` needs no open: it reads a store that open refuses (damage in the middle),
    /// and refuses what is not a store of this format.
    @Test func verifyingAPathChecksWhatOpenRefusesAndRefusesWhatIsNoStore() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let (bytes, starts) = try Self.fiveRecords(at: path)
        var damaged = bytes
        damaged[Int(starts[1]) + 8] ^= 0xFF  // the type byte of the second record
        writeFile(path, damaged)
        #expect(throws: LogStoreError.corruptRecord(offset: starts[1])) {
            try LogStore(path: path, options: .init(readOnly: true, usesSnapshot: false))
        }
        #expect(try LogStore.verify(path: path).firstDamagedOffset == starts[1])
        let text = directory.file("text.log")
        writeFile(text, Array("not a store at all, just some text\n".utf8))
        #expect(throws: LogStoreError.notAStore(path: text)) { try LogStore.verify(path: text) }
    }
}
