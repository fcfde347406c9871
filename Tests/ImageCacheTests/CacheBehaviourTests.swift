import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// The shared rules of `Spec/cache.md`, held against every backend: the same calls must give
/// the same results whichever backend sits underneath. The nested suites (corruption,
/// hostile keys, threads, images and the memory tier, the spec's worked example) live in
/// their own files as extensions, so `--filter CacheBehaviourTests` runs all of it.
@Suite struct CacheBehaviourTests {
    // MARK: Storing and reading (§4, §6)

    @Test(arguments: Backend.allCases)
    func storesAndReadsRawBytes(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        let jpeg = bytes(seed: 1, count: 1_000)
        try cache.store(jpeg, forKey: "photo.jpg")
        try cache.store([], forKey: "empty")
        #expect(try cache.bytes(forKey: "photo.jpg") == jpeg)
        #expect(try cache.bytes(forKey: "empty") == [])
        #expect(try cache.bytes(forKey: "absent") == nil)
        #expect(cache.count == 2)
        #expect(cache.contains("photo.jpg"))
        #expect(!cache.contains("absent"))
        #expect(cache.keys == ["empty", "photo.jpg"])
        #expect(cache.totalByteCount == 1_000)
    }

    @Test(arguments: Backend.allCases)
    func replacingAValueKeepsOneEntry(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        try cache.store(bytes(seed: 1, count: 300), forKey: "k")
        try cache.store(bytes(seed: 2, count: 200), forKey: "k")
        #expect(try cache.bytes(forKey: "k") == bytes(seed: 2, count: 200))
        #expect(cache.count == 1)
        #expect(cache.totalByteCount == 200)
    }

    @Test(arguments: Backend.allCases)
    func rejectsInvalidKeys(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        #expect(throws: CacheError.invalidKey(byteCount: 0)) { try cache.store([1], forKey: "") }
        let long = String(repeating: "x", count: 65_536)
        #expect(throws: CacheError.invalidKey(byteCount: 65_536)) { try cache.store([1], forKey: long) }
        #expect(throws: CacheError.invalidKey(byteCount: 0)) { try cache.bytes(forKey: "") }
        let longest = String(repeating: "y", count: 65_535)
        try cache.store([7], forKey: longest)
        #expect(try cache.bytes(forKey: longest) == [7])
    }

    @Test(arguments: Backend.allCases)
    func everyStoreAndHitTakesANewAccessSequence(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        try cache.store([1], forKey: "a")
        try cache.store([2], forKey: "b")
        #expect(try cache.metadata(forKey: "a")?.accessSequence == 1)
        #expect(try cache.metadata(forKey: "b")?.accessSequence == 2)
        _ = try cache.bytes(forKey: "a")
        #expect(try cache.metadata(forKey: "a")?.accessSequence == 3)
        // Inspecting is not a hit.
        _ = cache.contains("b")
        _ = cache.keys
        #expect(try cache.metadata(forKey: "b")?.accessSequence == 2)
        // A miss takes no sequence number.
        _ = try cache.bytes(forKey: "nothing")
        try cache.store([3], forKey: "c")
        #expect(try cache.metadata(forKey: "c")?.accessSequence == 4)
    }

    // MARK: Expiration (§4)

    @Test(arguments: Backend.allCases)
    func aHitSlidesTheExpiryByTheTimeToLive(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 10_000)
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
        try cache.store([1, 2, 3], forKey: "k")
        #expect(
            try cache.metadata(forKey: "k")
                == CacheEntryMetadata(createdAt: 10_000, expiresAt: 11_000, accessSequence: 1))
        clock.set(milliseconds: 10_999)
        #expect(try cache.bytes(forKey: "k") == [1, 2, 3])
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 11_999)
        clock.set(milliseconds: 11_998)
        #expect(try cache.bytes(forKey: "k") == [1, 2, 3])
        #expect(
            try cache.metadata(forKey: "k")
                == CacheEntryMetadata(createdAt: 10_000, expiresAt: 12_998, accessSequence: 3))
        // Expired exactly at expiresAt: a miss, and the entry is gone.
        clock.set(milliseconds: 12_998)
        #expect(cache.count == 0)
        #expect(!cache.contains("k"))
        #expect(try cache.bytes(forKey: "k") == nil)
        clock.set(milliseconds: 12_000)
        #expect(try cache.bytes(forKey: "k") == nil)
    }

    @Test(arguments: Backend.allCases)
    func inspectingDoesNotExtendTheExpiry(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
        try cache.store([1], forKey: "k")
        clock.set(milliseconds: 999)
        #expect(cache.contains("k"))
        #expect(cache.keys == ["k"])
        #expect(cache.count == 1)
        clock.set(milliseconds: 1_000)
        #expect(!cache.contains("k"))
        #expect(cache.keys.isEmpty)
        #expect(try cache.bytes(forKey: "k") == nil)
    }

    @Test(arguments: Backend.allCases)
    func theMaximumAgeIsNeverExtended(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(
                backend, directory, clock: clock, timeToLive: 1_000, maximumAge: 2_500))
        try cache.store([9], forKey: "k")
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 1_000)
        clock.set(milliseconds: 900)
        #expect(try cache.bytes(forKey: "k") == [9])
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 1_900)
        clock.set(milliseconds: 1_800)
        #expect(try cache.bytes(forKey: "k") == [9])
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 2_500)
        clock.set(milliseconds: 2_499)
        #expect(try cache.bytes(forKey: "k") == [9])
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 2_500)
        clock.set(milliseconds: 2_500)
        #expect(try cache.bytes(forKey: "k") == nil)
    }

    @Test(arguments: Backend.allCases)
    func aMaximumAgeAloneExpiresWithoutSliding(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, maximumAge: 500))
        try cache.store([1], forKey: "k")
        try cache.store([2], forKey: "forever-not")
        clock.set(milliseconds: 499)
        #expect(try cache.bytes(forKey: "k") == [1])
        #expect(try cache.metadata(forKey: "k")?.expiresAt == 500)
        clock.set(milliseconds: 500)
        #expect(try cache.bytes(forKey: "k") == nil)
    }

    @Test(arguments: Backend.allCases)
    func withoutLimitsEntriesNeverExpire(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: clock))
        try cache.store([1], forKey: "k")
        #expect(try cache.metadata(forKey: "k")?.expiresAt == Int64.max)
        clock.set(milliseconds: Int64.max - 1)
        #expect(try cache.bytes(forKey: "k") == [1])
        #expect(try cache.purgeExpired() == 0)
    }

    @Test(arguments: Backend.allCases)
    func purgeRemovesExactlyTheExpiredEntries(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
        try cache.store([1], forKey: "a")
        clock.set(milliseconds: 400)
        try cache.store([2], forKey: "b")
        clock.set(milliseconds: 800)
        try cache.store([3], forKey: "c")
        clock.set(milliseconds: 1_400)
        #expect(try cache.purgeExpired() == 2)
        #expect(cache.keys == ["c"])
        #expect(try cache.purgeExpired() == 0)
        clock.set(milliseconds: 1_800)
        #expect(try cache.purgeExpired() == 1)
        #expect(cache.count == 0)
        #expect(cache.totalByteCount == 0)
    }

    @Test(arguments: Backend.allCases)
    func openingPurgesExpiredEntries(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(backend, directory, clock: clock, timeToLive: 1_000)
        do {
            let cache = try ImageCache(configuration: settings)
            try cache.store(bytes(seed: 1, count: 500), forKey: "old")
            clock.set(milliseconds: 600)
            try cache.store(bytes(seed: 2, count: 500), forKey: "new")
            try cache.close()
        }
        clock.set(milliseconds: 1_000)
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.keys == ["new"])
        #expect(try reopened.purgeExpired() == 0)
        try reopened.close()
        // The removal was persisted: the expired entry does not come back.
        clock.set(milliseconds: 0)
        let again = try ImageCache(configuration: settings)
        #expect(again.keys == ["new"])
        #expect(try again.bytes(forKey: "old") == nil)
    }

    // MARK: Limits and eviction (§6)

    @Test(arguments: Backend.allCases)
    func theEntryCountLimitEvictsTheLeastRecentlyUsed(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: ManualClock(), maximumEntryCount: 3))
        try cache.store([1], forKey: "a")
        try cache.store([2], forKey: "b")
        try cache.store([3], forKey: "c")
        _ = try cache.bytes(forKey: "a")
        try cache.store([4], forKey: "d")
        #expect(cache.keys == ["a", "c", "d"])
        _ = try cache.bytes(forKey: "c")
        try cache.store([5], forKey: "e")
        #expect(cache.keys == ["c", "d", "e"])
        // Replacing a key does not grow the count, so nothing is evicted.
        try cache.store([6], forKey: "c")
        #expect(cache.keys == ["c", "d", "e"])
    }

    /// With more entries than one batch of eviction candidates holds (64 here), eviction still
    /// takes exactly the least recently used: the batch is the smallest sequences of a full scan,
    /// candidates hit since that scan are skipped, and a spent batch is refilled by scanning again.
    @Test(arguments: Backend.allCases)
    func evictionIsExactlyLeastRecentlyUsedBeyondOneBatchOfCandidates(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let limit = 300
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: ManualClock(), maximumEntryCount: limit))
        // The keys from least to most recently used, as the cache should order them.
        var recency: [String] = []
        var stored = 0
        func storeNext() throws -> String? {
            let key = "k\(stored)"
            try cache.store([UInt8(truncatingIfNeeded: stored)], forKey: key)
            stored += 1
            recency.append(key)
            return recency.count > limit ? recency.removeFirst() : nil
        }
        for _ in 0..<limit { #expect(try storeNext() == nil) }
        var generator = SplitMix64(state: 20_261_129)
        var evictions = 0
        for step in 0..<1_500 {
            if generator.next() % 5 < 3 {
                let key = recency[Int(generator.next() % UInt64(recency.count))]
                #expect(try cache.bytes(forKey: key) != nil, "step \(step): \(key) missed")
                recency.removeAll { $0 == key }
                recency.append(key)
            } else if let evicted = try storeNext() {
                evictions += 1
                #expect(!cache.contains(evicted), "step \(step): \(evicted) was not the one evicted")
            }
        }
        #expect(evictions > 4 * 64)
        #expect(cache.count == limit)
        #expect(Set(cache.keys) == Set(recency))
    }

    @Test(arguments: Backend.allCases)
    func theByteLimitEvictsInLeastRecentlyUsedOrder(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: ManualClock(), maximumBytes: 100))
        try cache.store(bytes(seed: 1, count: 30), forKey: "a")
        try cache.store(bytes(seed: 2, count: 30), forKey: "b")
        try cache.store(bytes(seed: 3, count: 30), forKey: "c")
        _ = try cache.bytes(forKey: "a")
        // 90 + 25 > 100: the least recently used, b, goes; 85 remain.
        try cache.store(bytes(seed: 4, count: 25), forKey: "d")
        #expect(cache.keys == ["a", "c", "d"])
        #expect(cache.totalByteCount == 85)
        // Exactly at the limit is allowed.
        try cache.store(bytes(seed: 5, count: 15), forKey: "e")
        #expect(cache.keys == ["a", "c", "d", "e"])
        #expect(cache.totalByteCount == 100)
        // One value of the full limit pushes out everything else, in LRU order.
        try cache.store(bytes(seed: 6, count: 100), forKey: "f")
        #expect(cache.keys == ["f"])
        #expect(try cache.bytes(forKey: "f") == bytes(seed: 6, count: 100))
    }

    @Test(arguments: Backend.allCases)
    func aValueLargerThanTheLimitIsRejectedAndEvictsNothing(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: ManualClock(), maximumBytes: 10))
        try cache.store([1, 2, 3, 4, 5], forKey: "a")
        try cache.store([6, 7, 8], forKey: "big")
        #expect(throws: CacheError.valueTooLarge(key: "big", byteCount: 11, limit: 10)) {
            try cache.store(bytes(seed: 1, count: 11), forKey: "big")
        }
        #expect(cache.keys == ["a", "big"])
        #expect(try cache.bytes(forKey: "big") == [6, 7, 8])
        #expect(try cache.metadata(forKey: "a")?.accessSequence == 1)
    }

    @Test(arguments: Backend.allCases)
    func expiredEntriesAreEvictedBeforeLiveOnes(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(
                backend, directory, clock: clock, timeToLive: 10_000, maximumAge: 1_000, maximumEntryCount: 2)
        )
        try cache.store([1], forKey: "a")  // expires at 1,000 (maximum age)
        clock.set(milliseconds: 500)
        try cache.store([2], forKey: "b")  // expires at 1,500
        clock.set(milliseconds: 900)
        _ = try cache.bytes(forKey: "a")  // a is now the most recently used, still expiring at 1,000
        clock.set(milliseconds: 1_000)
        try cache.store([3], forKey: "c")
        // Over the count: the expired a goes first, so the least recently used b survives.
        #expect(cache.keys == ["b", "c"])
    }

    @Test(arguments: Backend.allCases)
    func evictionFollowsTheAccessSequenceAcrossReopening(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(backend, directory, clock: clock, maximumEntryCount: 3)
        do {
            let cache = try ImageCache(configuration: settings)
            try cache.store([1], forKey: "a")
            try cache.store([2], forKey: "b")
            try cache.store([3], forKey: "c")
            _ = try cache.bytes(forKey: "a")
            try cache.close()
        }
        let cache = try ImageCache(configuration: settings)
        #expect(try cache.metadata(forKey: "a")?.accessSequence == 4)
        try cache.store([4], forKey: "d")
        #expect(try cache.metadata(forKey: "d")?.accessSequence == 5)
        #expect(cache.keys == ["a", "c", "d"])
    }

    // MARK: Persistence, clear, compaction (§5)

    @Test(arguments: Backend.allCases)
    func entriesAndMetadataSurviveReopening(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 5_000)
        let settings = configuration(
            backend, directory, clock: clock, timeToLive: 60_000, externalStorageThreshold: 1_000)
        var expected: [String: [UInt8]] = [:]
        var metadata: [String: CacheEntryMetadata] = [:]
        do {
            let cache = try ImageCache(configuration: settings)
            for index in 0..<20 {
                let value = bytes(seed: UInt64(index), count: index * 150)
                expected["key-\(index)"] = value
                try cache.store(value, forKey: "key-\(index)")
                clock.advance(by: 10)
            }
            _ = try cache.bytes(forKey: "key-3")
            try cache.removeValue(forKey: "key-4")
            expected["key-4"] = nil
            for key in expected.keys { metadata[key] = try cache.metadata(forKey: key) }
            try cache.synchronize()
            try cache.close()
        }
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.keys == expected.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for (key, value) in expected {
            #expect(try reopened.metadata(forKey: key) == metadata[key])
            #expect(try reopened.bytes(forKey: key) == value)
        }
        #expect(reopened.totalByteCount == expected.values.reduce(0) { $0 + $1.count })
    }

    @Test(arguments: Backend.allCases)
    func removeAllEmptiesTheCacheDurably(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(backend, directory, clock: clock, externalStorageThreshold: 100)
        do {
            let cache = try ImageCache(configuration: settings)
            try cache.store(bytes(seed: 1, count: 50), forKey: "small")
            try cache.store(bytes(seed: 2, count: 500), forKey: "large")
            try cache.removeAll()
            #expect(cache.count == 0)
            #expect(try cache.bytes(forKey: "small") == nil)
            try cache.store([1], forKey: "after")
            try cache.close()
        }
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.keys == ["after"])
        #expect(try reopened.metadata(forKey: "after")?.accessSequence == 3)
    }

    @Test(arguments: Backend.allCases)
    func removeValueReportsWhetherALiveEntryWentAway(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, timeToLive: 100))
        try cache.store([1], forKey: "a")
        try cache.store([2], forKey: "b")
        #expect(try cache.removeValue(forKey: "a"))
        #expect(try !cache.removeValue(forKey: "a"))
        clock.set(milliseconds: 100)
        #expect(try !cache.removeValue(forKey: "b"))
        #expect(try cache.purgeExpired() == 0)
    }

    @Test(arguments: Backend.allCases)
    func compactionKeepsLiveEntriesAndDropsExpiredOnes(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(
            backend, directory, clock: clock, timeToLive: 1_000, externalStorageThreshold: 256)
        let cache = try ImageCache(configuration: settings)
        for round in 0..<5 {
            for index in 0..<10 {
                try cache.store(
                    bytes(seed: UInt64(round * 10 + index), count: 100 + index * 40), forKey: "k\(index)")
            }
        }
        try cache.store([1], forKey: "short-lived")
        clock.set(milliseconds: 500)
        for index in 0..<10 { _ = try cache.bytes(forKey: "k\(index)") }
        clock.set(milliseconds: 1_000)
        try cache.compact()
        #expect(cache.count == 10)
        for index in 0..<10 {
            #expect(
                try cache.bytes(forKey: "k\(index)")
                    == bytes(seed: UInt64(40 + index), count: 100 + index * 40))
        }
        try cache.close()
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.count == 10)
        #expect(try reopened.bytes(forKey: "k9") == bytes(seed: 49, count: 460))
    }

    @Test(arguments: Backend.allCases)
    func aClosedCacheRefusesWork(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        try cache.store([1], forKey: "a")
        try cache.close()
        #expect(throws: CacheError.cacheClosed) { try cache.bytes(forKey: "a") }
        #expect(throws: CacheError.cacheClosed) { try cache.store([1], forKey: "a") }
        #expect(cache.count == 0)
        #expect(!cache.contains("a"))
    }
}
