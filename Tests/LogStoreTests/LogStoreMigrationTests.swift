import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// A store of format 1 (`Spec/store.md` §11): a writer migrates it to format 2, keeping every
/// live entry and its current metadata and every detectable damage; a reader refuses it.
@Suite struct LogStoreMigrationTests {
    static func formatOneStore() -> (bytes: [UInt8], damagedOffset: Int) {
        var writer = FormatOneWriter()
        writer.append(type: 1, key: "kept", value: [1, 2, 3], metadata: metadata(1))
        writer.append(type: 1, key: "removed", value: [4], metadata: metadata(2))
        writer.append(
            type: 1, key: "touched", value: expectedValue(for: 7, length: 5_000), metadata: metadata(3))
        writer.append(type: 2, key: "removed")
        writer.append(type: 3, key: "touched", metadata: metadata(9, expiresAt: 123_456))
        let damaged = writer.append(type: 1, key: "damaged", value: [9, 9, 9, 9], metadata: metadata(4))
        writer.append(type: 1, key: "empty", value: [], metadata: metadata(5))
        return (writer.bytes, damaged)
    }

    @Test func aWriterMigratesFormatOneToFormatTwo() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        var (bytes, damagedOffset) = Self.formatOneStore()
        bytes[damagedOffset + 48 + "damaged".utf8.count + 1] ^= 0x40  // inside the value
        writeFile(path, bytes + [0x01, 0x00, 0x7F])  // and a torn tail
        let store = try LogStore(path: path)
        #expect(Array(fileBytes(path)[8..<10]) == [2, 0])
        #expect(try store.value(forKey: "kept") == [1, 2, 3])
        #expect(try store.value(forKey: "removed") == nil)
        #expect(try store.value(forKey: "touched") == expectedValue(for: 7, length: 5_000))
        #expect(store.metadata(forKey: "touched") == metadata(9, expiresAt: 123_456))
        #expect(try store.value(forKey: "empty") == [])
        #expect(store.count == 4)
        // Damage found in format 1 stays damage in format 2.
        #expect {
            try store.value(forKey: "damaged")
        } throws: { error in
            if case .checksumMismatch? = error as? LogStoreError { return true }
            return false
        }
        try store.close()
        let reopened = try LogStore(path: path)
        #expect(try reopened.value(forKey: "touched") == expectedValue(for: 7, length: 5_000))
        #expect(try reopened.verify().firstDamagedOffset != nil)
    }

    @Test func aReaderRefusesFormatOneAndLeavesItUntouched() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let bytes = Self.formatOneStore().bytes
        writeFile(path, bytes)
        #expect(throws: LogStoreError.migrationRequired(path: path)) {
            try LogStore(path: path, options: .init(readOnly: true))
        }
        #expect(throws: LogStoreError.migrationRequired(path: path)) { try LogStore.verify(path: path) }
        #expect(fileBytes(path) == bytes)
    }

    @Test func aDamagedFormatOneHeaderIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        var bytes = Self.formatOneStore().bytes
        bytes[20] ^= 1
        writeFile(path, bytes)
        #expect(throws: LogStoreError.corruptFileHeader(path: path)) { try LogStore(path: path) }
        #expect(fileBytes(path) == bytes)
    }
}
