import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

extension CacheBehaviourTests {
    /// `Spec/cache.md` §8: a damaged entry is reported once, removed, and harms nothing else.
    @Suite struct CorruptionTests {
        /// Settings for `backend` in `directory` whose cache holds `count` entries of 600 bytes,
        /// "entry 0" …, closed; then one bit of entry `damaged`'s value is flipped on disk.
        static func cacheWithADamagedEntry(
            _ backend: Backend, _ directory: TemporaryDirectory, count: Int, damaged: Int
        ) throws -> CacheConfiguration {
            // A low threshold puts the hybrid backend's 600-byte values in external files.
            let settings = configuration(
                backend, directory, clock: ManualClock(), externalStorageThreshold: 500)
            let cache = try ImageCache(configuration: settings)
            for index in 0..<count {
                try cache.store(bytes(seed: UInt64(index), count: 600), forKey: "entry \(index)")
            }
            try cache.close()
            try corrupt(Array(bytes(seed: UInt64(damaged), count: 600)[100..<164]), under: directory.cacheURL)
            return settings
        }

        @Test(arguments: Backend.allCases)
        func aDamagedValueIsReportedRemovedAndTheRestSurvive(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = try Self.cacheWithADamagedEntry(backend, directory, count: 5, damaged: 2)
            let cache = try ImageCache(configuration: settings)
            #expect(cache.count == 5)
            #expect { try cache.bytes(forKey: "entry 2") } throws: { isCorruptEntry($0, key: "entry 2") }
            #expect(try cache.bytes(forKey: "entry 2") == nil)
            #expect(cache.keys == ["entry 0", "entry 1", "entry 3", "entry 4"])
            for index in [0, 1, 3, 4] {
                #expect(try cache.bytes(forKey: "entry \(index)") == bytes(seed: UInt64(index), count: 600))
            }
            // The cache stays usable for the damaged key.
            try cache.store([1, 2], forKey: "entry 2")
            #expect(try cache.bytes(forKey: "entry 2") == [1, 2])
            try cache.close()
            let reopened = try ImageCache(configuration: settings)
            #expect(reopened.count == 5)
            #expect(try reopened.bytes(forKey: "entry 2") == [1, 2])
        }

        /// `withValue(forKey:_:)` checks what it lends as a read does (§8.2): a damaged value is
        /// `corruptEntry`, its body never sees the bytes, and the entry is gone after it. The log
        /// lends from its file mapping, a path of its own.
        @Test(arguments: Backend.allCases)
        func withValueLendsNoDamagedBytes(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = try Self.cacheWithADamagedEntry(backend, directory, count: 3, damaged: 1)
            let cache = try ImageCache(configuration: settings)
            var lent = 0
            #expect {
                try cache.withValue(forKey: "entry 1") { _ in lent += 1 }
            } throws: {
                isCorruptEntry($0, key: "entry 1")
            }
            #expect(lent == 0)
            #expect(try cache.withValue(forKey: "entry 1") { _ in lent += 1 } == nil)
            #expect(cache.keys == ["entry 0", "entry 2"])
            #expect(try cache.withValue(forKey: "entry 2") { Array($0) } == bytes(seed: 2, count: 600))
            #expect(lent == 0)
        }

        /// §4.3 decides expiry before any value is read: a damaged entry that has expired is a
        /// plain miss, not `corruptEntry`, even though reading its value would fail.
        @Test(arguments: Backend.allCases)
        func aDamagedEntryThatHasExpiredIsAMiss(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            var settings = configuration(backend, directory, clock: clock, externalStorageThreshold: 500)
            settings.timeToLive = .seconds(1)
            do {
                let cache = try ImageCache(configuration: settings)
                try cache.store(bytes(seed: 7, count: 600), forKey: "damaged")
                try cache.close()
            }
            try corrupt(Array(bytes(seed: 7, count: 600)[100..<164]), under: directory.cacheURL)
            let cache = try ImageCache(configuration: settings)
            clock.advance(by: 1_000)
            #expect(try cache.bytes(forKey: "damaged") == nil)
            #expect(cache.count == 0)
        }

        /// §8.4: verify reports damage without removing anything or counting as a hit.
        @Test(arguments: Backend.allCases)
        func verifyReportsADamagedEntryAndChangesNothing(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let settings = configuration(backend, directory, clock: clock, externalStorageThreshold: 500)
            do {
                let cache = try ImageCache(configuration: settings)
                for index in 0..<4 {
                    try cache.store(bytes(seed: UInt64(index), count: 600), forKey: "entry \(index)")
                }
                let intact = try cache.verify()
                #expect(
                    intact
                        == CacheVerificationReport(checkedEntries: 4, intactBytes: 2_400, damagedEntries: []))
                try cache.close()
            }
            try corrupt(Array(bytes(seed: 1, count: 600)[100..<164]), under: directory.cacheURL)
            let cache = try ImageCache(configuration: settings)
            let before = try (0..<4).map { try cache.metadata(forKey: "entry \($0)") }
            let report = try cache.verify()
            #expect(report.checkedEntries == 4)
            #expect(report.intactBytes == 1_800)
            #expect(report.damagedEntries.map(\.key) == ["entry 1"])
            #expect(!report.isIntact)
            // Nothing moved: the damaged entry is still held and no metadata changed.
            #expect(cache.count == 4)
            #expect(try (0..<4).map { try cache.metadata(forKey: "entry \($0)") } == before)
            #expect { try cache.bytes(forKey: "entry 1") } throws: { isCorruptEntry($0, key: "entry 1") }
            #expect(try cache.verify().isIntact)
        }

        @Test(arguments: [Backend.log, .hybrid])
        func aDamagedSmallLogValueIsACorruptEntry(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(backend, directory, clock: ManualClock())
            do {
                let cache = try ImageCache(configuration: settings)
                try cache.store(bytes(seed: 7, count: 200), forKey: "a")
                try cache.store(bytes(seed: 8, count: 200), forKey: "b")
                try cache.close()
            }
            try corrupt(Array(bytes(seed: 7, count: 200)[50..<100]), under: directory.cacheURL)
            let cache = try ImageCache(configuration: settings)
            #expect { try cache.bytes(forKey: "a") } throws: { isCorruptEntry($0, key: "a") }
            #expect(try cache.bytes(forKey: "a") == nil)
            #expect(try cache.bytes(forKey: "b") == bytes(seed: 8, count: 200))
        }

        @Test func aDamagedDictionaryHeaderMakesOpeningFail() throws {
            let directory = TemporaryDirectory()
            let settings = configuration(.dictionary, directory, clock: ManualClock())
            do {
                let cache = try ImageCache(configuration: settings)
                try cache.store([1, 2, 3], forKey: "a")
                try cache.close()
            }
            let path = directory.cacheURL.appendingPathComponent(DictionaryStorage.fileName).path
            var file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            file[16] ^= 0xFF  // the first record's key length
            try Data(file).write(to: URL(fileURLWithPath: path))
            #expect {
                try ImageCache(configuration: settings)
            } throws: { error in
                if case .corruptFile(let damaged, _)? = error as? CacheError { return damaged == path }
                return false
            }
        }

        @Test(arguments: [Backend.log, .hybrid])
        func aLogThatIsNotALogStoreMakesOpeningFail(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(backend, directory, clock: ManualClock())
            try FileManager.default.createDirectory(at: directory.cacheURL, withIntermediateDirectories: true)
            let name = backend == .log ? LogStorage.fileName : HybridStorage.logName
            let path = directory.cacheURL.appendingPathComponent(name).path
            try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: path))
            #expect {
                try ImageCache(configuration: settings)
            } throws: { error in
                if case .corruptFile(let damaged, _)? = error as? CacheError { return damaged == path }
                return false
            }
        }

        @Test func aDictionaryFileOfANewerVersionIsRefused() throws {
            let directory = TemporaryDirectory()
            let settings = configuration(.dictionary, directory, clock: ManualClock())
            try FileManager.default.createDirectory(at: directory.cacheURL, withIntermediateDirectories: true)
            let path = directory.cacheURL.appendingPathComponent(DictionaryStorage.fileName).path
            try Data(Array("ICDICT01".utf8) + [4, 0, 0, 0, 0, 0, 0, 0]).write(to: URL(fileURLWithPath: path))
            #expect(throws: CacheError.unsupportedFormatVersion(path: path, version: 4)) {
                try ImageCache(configuration: settings)
            }
        }

        @Test func aDamagedDirectoryIndexIsRebuiltFromTheEntryFiles() throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let settings = configuration(.directory, directory, clock: clock, timeToLive: 10_000)
            do {
                let cache = try ImageCache(configuration: settings)
                try cache.store([1], forKey: "a")
                try cache.store([2, 2], forKey: "b")
                try cache.close()
            }
            let index = directory.cacheURL.appendingPathComponent(DirectoryStorage.indexName)
            var file = try [UInt8](Data(contentsOf: index))
            file[file.count / 2] ^= 0x01
            try Data(file).write(to: index)
            let cache = try ImageCache(configuration: settings)
            #expect(cache.keys == ["a", "b"])
            #expect(try cache.bytes(forKey: "b") == [2, 2])
            #expect(
                try cache.metadata(forKey: "a")
                    == CacheEntryMetadata(createdAt: 0, expiresAt: 10_000, accessSequence: 1))
        }

        @Test func aDirectoryEntryFileDeletedBehindTheCacheIsACorruptEntry() throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(
                configuration: configuration(.directory, directory, clock: ManualClock()))
            try cache.store([1], forKey: "a")
            try cache.store([2], forKey: "b")
            let path = directory.cacheURL.appendingPathComponent(
                "entries/" + DirectoryStorage.fileName(forKey: "a")
            ).path
            try FileManager.default.removeItem(atPath: path)
            #expect { try cache.bytes(forKey: "a") } throws: { isCorruptEntry($0, key: "a") }
            #expect(cache.keys == ["b"])
        }

        @Test func aDirectoryEntryFileHoldingAnotherKeyIsACorruptEntry() throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(
                configuration: configuration(.directory, directory, clock: ManualClock()))
            try cache.store([1], forKey: "a")
            try cache.store([2], forKey: "b")
            let entries = directory.cacheURL.appendingPathComponent("entries")
            let a = entries.appendingPathComponent(DirectoryStorage.fileName(forKey: "a")).path
            let b = entries.appendingPathComponent(DirectoryStorage.fileName(forKey: "b")).path
            try FileManager.default.removeItem(atPath: a)
            try FileManager.default.copyItem(atPath: b, toPath: a)
            #expect { try cache.bytes(forKey: "a") } throws: { isCorruptEntry($0, key: "a") }
            #expect(try cache.bytes(forKey: "b") == [2])
        }
    }
}
