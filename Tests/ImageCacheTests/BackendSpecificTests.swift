import Checksums
import Foundation
import LogStoreKit
import TestSupport
import Testing

@testable import ImageCacheKit

/// Behaviour that only one backend's files can show (`Spec/backends.md`).
@Suite struct BackendSpecificTests {
    // MARK: directory (§3)

    @Test func directoryAdoptsEntryFilesWrittenAfterTheLastIndex() throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(.directory, directory, clock: clock, timeToLive: 5_000)
        let writer = try ImageCache(configuration: settings)
        try writer.store([1], forKey: "indexed")
        try writer.synchronize()
        try writer.store([2, 2], forKey: "only a file")
        // The process "crashes": no synchronize, no close. A temporary file is left behind too.
        writer.abandon()
        let entries = directory.cacheURL.appendingPathComponent(DirectoryStorage.entriesName)
        try Data([9]).write(to: entries.appendingPathComponent(".tmp-leftover"))
        try Data([9]).write(to: entries.appendingPathComponent(String(repeating: "a", count: 64)))
        let reader = try ImageCache(configuration: settings)
        #expect(reader.keys == ["indexed", "only a file"])
        #expect(try reader.bytes(forKey: "only a file") == [2, 2])
        #expect(
            try reader.metadata(forKey: "indexed")
                == CacheEntryMetadata(createdAt: 0, expiresAt: 5_000, accessSequence: 1))
        let names = try FileManager.default.contentsOfDirectory(atPath: entries.path).sorted()
        #expect(
            names
                == [
                    DirectoryStorage.fileName(forKey: "indexed"),
                    DirectoryStorage.fileName(forKey: "only a file"),
                ].sorted())
    }

    // MARK: log (§4)

    @Test func logKeysAreTheKeysOwnBytes() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(.log, directory, clock: ManualClock()))
        try cache.store([1], forKey: "caf\u{E9}")
        try cache.store([2], forKey: "cafe\u{301}")
        try cache.close()
        let store = try LogStore(
            path: directory.cacheURL.appendingPathComponent(LogStorage.fileName).path,
            options: .init(readOnly: true))
        let keys = store.entries().map { Array($0.key.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(
            keys
                == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)].sorted {
                    $0.lexicographicallyPrecedes($1)
                })
        #expect(try store.value(forKey: "caf\u{E9}") == [1])
    }

    @Test(arguments: [Backend.log, .hybrid])
    func theLongestNonASCIIKeyWorks(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        let longest = String(repeating: "\u{E9}", count: 32_767) + "a"
        #expect(longest.utf8.count == 65_535)
        try cache.store([1], forKey: longest)
        #expect(try cache.bytes(forKey: longest) == [1])
        #expect(throws: CacheError.invalidKey(byteCount: 65_536)) {
            try cache.store([1], forKey: longest + "b")
        }
    }

    // MARK: hybrid (§5)

    static func externalFiles(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(
            atPath: directory.cacheURL.appendingPathComponent(HybridStorage.externalName).path
        ).sorted()
    }

    @Test func hybridKeepsLargeValuesInFilesAndDeletesThemWhenReplaced() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(
                .hybrid, directory, clock: ManualClock(), externalStorageThreshold: 100))
        try cache.store(bytes(seed: 1, count: 99), forKey: "small")
        try cache.store(bytes(seed: 2, count: 100), forKey: "large")
        let first = HybridStorage.externalFileName(forKey: "large", accessSequence: 2)
        #expect(try Self.externalFiles(directory) == [first])
        #expect(first == SHA256.hexDigest("large".utf8) + "-0000000000000002")
        let file = directory.cacheURL.appendingPathComponent("external/" + first)
        #expect(try [UInt8](Data(contentsOf: file)) == bytes(seed: 2, count: 100))
        try cache.store(bytes(seed: 3, count: 200), forKey: "large")
        // The replaced file stays until the record replacing it is durable (§5.3)…
        let second = HybridStorage.externalFileName(forKey: "large", accessSequence: 3)
        #expect(try Self.externalFiles(directory) == [first, second].sorted())
        try cache.synchronize()
        // …and goes then.
        #expect(try Self.externalFiles(directory) == [second])
        try cache.store([1], forKey: "large")
        try cache.synchronize()
        #expect(try Self.externalFiles(directory).isEmpty)
        try cache.store(bytes(seed: 4, count: 300), forKey: "large")
        try cache.removeValue(forKey: "large")
        #expect(try Self.externalFiles(directory).count == 1)
        try cache.synchronize()
        #expect(try Self.externalFiles(directory).isEmpty)
        #expect(cache.keys == ["small"])
    }

    @Test func hybridPurgeAndOpenDeleteUnreferencedExternalFiles() throws {
        let directory = TemporaryDirectory()
        let settings = configuration(.hybrid, directory, clock: ManualClock(), externalStorageThreshold: 100)
        let cache = try ImageCache(configuration: settings)
        try cache.store(bytes(seed: 1, count: 500), forKey: "kept")
        // As a crash between writing a file and its record would leave it.
        let orphan = HybridStorage.externalFileName(forKey: "never recorded", accessSequence: 99)
        let external = directory.cacheURL.appendingPathComponent(HybridStorage.externalName)
        try Data([1, 2, 3]).write(to: external.appendingPathComponent(orphan))
        try Data([4]).write(to: external.appendingPathComponent(".tmp-something"))
        #expect(try cache.purgeExpired() == 0)
        #expect(
            try Self.externalFiles(directory) == [
                HybridStorage.externalFileName(forKey: "kept", accessSequence: 1)
            ])
        try cache.close()
        try Data([1, 2, 3]).write(to: external.appendingPathComponent(orphan))
        let reopened = try ImageCache(configuration: settings)
        #expect(
            try Self.externalFiles(directory) == [
                HybridStorage.externalFileName(forKey: "kept", accessSequence: 1)
            ])
        #expect(try reopened.bytes(forKey: "kept") == bytes(seed: 1, count: 500))
        #expect(reopened.totalByteCount == 500)
    }

    @Test func aHybridReferenceIsNinetyEightBytes() {
        let reference = HybridStorage.Reference(
            length: 0x0102, checksum: 0x1122_3344_AABB_CCDD,
            name: HybridStorage.externalFileName(forKey: "k", accessSequence: 0x10))
        let encoded = reference.encoded
        #expect(encoded.count == 98)
        #expect(
            Array(encoded[0..<17]) == [
                0x02, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0xDD, 0xCC, 0xBB, 0xAA, 0x44, 0x33, 0x22, 0x11,
            ])
        #expect(String(decoding: encoded[17...], as: UTF8.self).hasSuffix("-0000000000000010"))
        #expect(HybridStorage.Reference(encoded) == reference)
        #expect(HybridStorage.Reference([0x00] + encoded[1...]) == nil)
    }
}
