import Checksums
import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit
@testable import Platform

/// Cache folders of format 1 (`Spec/backends.md` §6): a writable open discards them and starts
/// empty; a read-only open sees an empty cache and changes nothing.
@Suite struct FormatOneTests {
    static func little<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The files a format-1 cache of `backend` leaves, by path relative to the folder.
    static func formatOneFiles(_ backend: Backend) -> [String: [UInt8]] {
        var logHeader: [UInt8] =
            [0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A] + little(UInt16(1)) + little(UInt16(0))
        logHeader += little(UInt32(0)) + little(UInt64(42)) + little(UInt32(0))
        logHeader += little(CRC32.checksum(of: logHeader))
        let someRecord = [UInt8](repeating: 0xAB, count: 64)
        switch backend {
        case .log:
            return ["cache.log": logHeader + someRecord, "cache.log.hint": [1, 2, 3]]
        case .hybrid:
            return [
                "hybrid.log": logHeader + someRecord,
                "external/" + String(repeating: "a", count: 64) + "-0000000000000001": [7],
            ]
        case .dictionary:
            return [
                "cache.dictionary": Array("ICDICT01".utf8) + little(UInt32(1)) + little(UInt32(1))
                    + someRecord
            ]
        case .directory:
            var index = Array("ICINDX01".utf8) + little(UInt32(1)) + little(UInt32(0))
            index += little(CRC32.checksum(of: index))
            return [
                "index": index,
                "entries/" + String(repeating: "b", count: 64): Array("ICENTR01".utf8) + someRecord,
            ]
        }
    }

    static func plant(_ files: [String: [UInt8]], in folder: URL) throws {
        for (name, bytes) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    @Test(arguments: Backend.allCases)
    func aWriterDiscardsAFormatOneCache(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let files = Self.formatOneFiles(backend)
        try Self.plant(files, in: directory.cacheURL)
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        #expect(cache.count == 0)
        for name in files.keys {
            let path = directory.cacheURL.appendingPathComponent(name).path
            if name.hasSuffix(".log") {
                // The log is made anew, in format 2.
                #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))[8] == 2, "\(name)")
            } else {
                #expect(!FileManager.default.fileExists(atPath: path), "\(name)")
            }
        }
        try cache.store([1, 2], forKey: "new")
        try cache.close()
        #expect(
            try ImageCache(configuration: configuration(backend, directory, clock: ManualClock())).bytes(
                forKey: "new") == [1, 2])
    }

    /// The log that names the format is deleted last (`Spec/backends.md` §6): when the removal
    /// of a companion (its snapshot) fails, the log is still there, so the next open finds format 1 again and
    /// finishes the discard.
    @Test(arguments: [Backend.log, .hybrid])
    func aDiscardCutShortLeavesTheFileThatNamesTheFormat(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let files = Self.formatOneFiles(backend)
        try Self.plant(files, in: directory.cacheURL)
        let log = directory.cacheURL.appendingPathComponent(backend == .log ? "cache.log" : "hybrid.log").path
        let fault = FaultInjection.arm(
            .init(
                operations: [.remove], countdown: 1, code: EIO, persistent: true,
                folder: directory.cacheURL.path, pathContaining: log + ".hint"))
        #expect(throws: CacheError.self) {
            try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        }
        #expect(fault.disarm() > 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))[8] == 1)
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        #expect(cache.count == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))[8] == 2)
        try cache.close()
    }

    @Test(arguments: Backend.allCases)
    func aReaderSeesAFormatOneCacheAsEmptyAndLeavesIt(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let files = Self.formatOneFiles(backend)
        try Self.plant(files, in: directory.cacheURL)
        var settings = configuration(backend, directory, clock: ManualClock())
        settings.readOnly = true
        let reader = try ImageCache(configuration: settings)
        #expect(reader.count == 0)
        for (name, bytes) in files {
            #expect(try [UInt8](Data(contentsOf: directory.cacheURL.appendingPathComponent(name))) == bytes)
        }
    }
}
