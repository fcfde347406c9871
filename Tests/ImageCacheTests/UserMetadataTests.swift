import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// User metadata (`Spec/cache.md` §13), held against every backend: stored with the value,
/// read and replaced without it, kept through hits, compaction and reopening, never a hit.
extension CacheBehaviourTests {
    @Suite struct UserMetadata {
        let etag = Array(#"W/"5e1-abc""#.utf8)

        @Test(arguments: Backend.allCases)
        func storedWithTheValueAndReadWithoutIt(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
            try cache.store(bytes(seed: 1, count: 500), forKey: "a", userMetadata: etag)
            try cache.store(bytes(seed: 2, count: 10), forKey: "plain")
            #expect(try cache.userMetadata(forKey: "a") == etag)
            #expect(try cache.userMetadata(forKey: "plain") == [])
            #expect(try cache.userMetadata(forKey: "absent") == nil)
            #expect(try cache.bytes(forKey: "a") == bytes(seed: 1, count: 500))
            // A store without user metadata replaces the entry whole: none is left.
            try cache.store([9], forKey: "a")
            #expect(try cache.userMetadata(forKey: "a") == [])
        }

        @Test(arguments: Backend.allCases)
        func readingItIsNotAHit(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
            try cache.store([1], forKey: "a", userMetadata: etag)
            let before = try cache.metadata(forKey: "a")
            clock.advance(by: 500)
            #expect(try cache.userMetadata(forKey: "a") == etag)
            #expect(try cache.metadata(forKey: "a") == before)
            clock.advance(by: 500)
            #expect(try cache.userMetadata(forKey: "a") == nil)  // expired: not live
        }

        @Test(arguments: Backend.allCases)
        func replacedWithoutTheValueAndNotAHit(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
            let value = bytes(seed: 3, count: 200_000)  // external on hybrid
            try cache.store(value, forKey: "a")
            let before = try cache.metadata(forKey: "a")
            #expect(try cache.setUserMetadata(etag, forKey: "a"))
            #expect(try cache.metadata(forKey: "a") == before)
            #expect(try cache.userMetadata(forKey: "a") == etag)
            #expect(try cache.setUserMetadata([1, 2, 3], forKey: "a"))
            #expect(try cache.userMetadata(forKey: "a") == [1, 2, 3])
            #expect(try cache.setUserMetadata([], forKey: "a"))
            #expect(try cache.userMetadata(forKey: "a") == [])
            #expect(try !cache.setUserMetadata(etag, forKey: "absent"))
            #expect(try cache.userMetadata(forKey: "absent") == nil)
            clock.advance(by: 1_000)
            #expect(try !cache.setUserMetadata(etag, forKey: "a"))  // expired
            clock.advance(by: -1_000)
            #expect(try cache.bytes(forKey: "a") == value)
        }

        @Test(arguments: Backend.allCases)
        func survivesHitsCompactionAndReopening(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            do {
                let cache = try ImageCache(
                    configuration: configuration(backend, directory, clock: clock, timeToLive: 10_000))
                try cache.store(bytes(seed: 4, count: 300), forKey: "a", userMetadata: etag)
                try cache.store(bytes(seed: 5, count: 300), forKey: "b")
                try cache.store(bytes(seed: 6, count: 200_000), forKey: "c", userMetadata: [7])
                #expect(try cache.setUserMetadata([8, 8], forKey: "b"))
                clock.advance(by: 100)
                _ = try cache.bytes(forKey: "a")  // a hit: a touch record on the logs
                try cache.synchronize()
                try cache.compact()
                #expect(try cache.userMetadata(forKey: "a") == etag)
                #expect(try cache.userMetadata(forKey: "b") == [8, 8])
                try cache.close()
            }
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: clock, timeToLive: 10_000))
            #expect(try cache.userMetadata(forKey: "a") == etag)
            #expect(try cache.userMetadata(forKey: "b") == [8, 8])
            #expect(try cache.userMetadata(forKey: "c") == [7])
            #expect(try cache.bytes(forKey: "a") == bytes(seed: 4, count: 300))
            #expect(try cache.bytes(forKey: "c") == bytes(seed: 6, count: 200_000))
            #expect(try cache.metadata(forKey: "a")?.expiresAt == 10_100)
            try cache.close()
            // A read-only open sees the same.
            var readOnly = configuration(backend, directory, clock: clock, timeToLive: 10_000)
            readOnly.readOnly = true
            let reader = try ImageCache(configuration: readOnly)
            #expect(try reader.userMetadata(forKey: "b") == [8, 8])
            #expect(throws: CacheError.readOnly(path: directory.cacheURL.path)) {
                try reader.setUserMetadata([1], forKey: "b")
            }
        }

        @Test(arguments: Backend.allCases)
        func replacedUserMetadataSurvivesReopeningWithoutCompaction(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            do {
                let cache = try ImageCache(configuration: configuration(backend, directory, clock: clock))
                try cache.store([1, 2], forKey: "a", userMetadata: [1])
                try cache.synchronize()
                #expect(try cache.setUserMetadata([2], forKey: "a"))
                try cache.close()
            }
            let cache = try ImageCache(configuration: configuration(backend, directory, clock: clock))
            #expect(try cache.userMetadata(forKey: "a") == [2])
            #expect(try cache.bytes(forKey: "a") == [1, 2])
        }

        @Test(arguments: Backend.allCases)
        func refusesMoreThan4KiBBeforeAnythingChanges(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: ManualClock(), maximumBytes: 100))
            let limit = ImageCache.maximumUserMetadataByteCount
            #expect(limit == 4096)
            let largest = [UInt8](repeating: 0xAB, count: limit)
            try cache.store([1], forKey: "a", userMetadata: largest)
            #expect(try cache.userMetadata(forKey: "a") == largest)
            let tooLong = [UInt8](repeating: 1, count: limit + 1)
            #expect(throws: CacheError.userMetadataTooLarge(key: "a", byteCount: limit + 1, limit: limit)) {
                try cache.store([2], forKey: "a", userMetadata: tooLong)
            }
            #expect(throws: CacheError.userMetadataTooLarge(key: "a", byteCount: limit + 1, limit: limit)) {
                try cache.setUserMetadata(tooLong, forKey: "a")
            }
            // The value's size is checked first (§13.2).
            #expect(throws: CacheError.valueTooLarge(key: "a", byteCount: 101, limit: 100)) {
                try cache.store([UInt8](repeating: 0, count: 101), forKey: "a", userMetadata: tooLong)
            }
            #expect(throws: CacheError.invalidKey(byteCount: 0)) { try cache.userMetadata(forKey: "") }
            #expect(try cache.bytes(forKey: "a") == [1])
            #expect(try cache.userMetadata(forKey: "a") == largest)
            try cache.close()
            #expect(throws: CacheError.cacheClosed) { try cache.userMetadata(forKey: "a") }
            #expect(throws: CacheError.cacheClosed) { try cache.setUserMetadata([1], forKey: "a") }
        }

        @Test(arguments: Backend.allCases)
        func removalAndEvictionTakeItWithTheValue(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: ManualClock(), maximumEntryCount: 1))
            try cache.store([1], forKey: "a", userMetadata: etag)
            try cache.store([2], forKey: "b", userMetadata: [5])
            #expect(try cache.userMetadata(forKey: "a") == nil)
            #expect(try cache.removeValue(forKey: "b"))
            #expect(try cache.userMetadata(forKey: "b") == nil)
            try cache.store([3], forKey: "b")
            #expect(try cache.userMetadata(forKey: "b") == [])
        }
    }
}
