import TestSupport
import Testing

@testable import ImageCacheKit

extension CacheBehaviourTests {
    /// `Spec/cache.md` §11, step by step, against every backend.
    @Suite struct SpecExampleTests {
        @Test(arguments: Backend.allCases)
        func theWorkedExample(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let cache = try ImageCache(
                configuration: configuration(
                    backend, directory, clock: clock, timeToLive: 1_000, maximumAge: 2_500,
                    maximumEntryCount: 2))
            func held() throws -> [String: CacheEntryMetadata] {
                var result: [String: CacheEntryMetadata] = [:]
                for key in cache.keys { result[key] = try cache.metadata(forKey: key) }
                return result
            }
            try cache.store([1], forKey: "a")
            #expect(try held() == ["a": .init(createdAt: 0, expiresAt: 1_000, accessSequence: 1)])
            clock.set(milliseconds: 100)
            try cache.store([2], forKey: "b")
            clock.set(milliseconds: 900)
            #expect(try cache.bytes(forKey: "a") == [1])
            #expect(
                try held() == [
                    "a": .init(createdAt: 0, expiresAt: 1_900, accessSequence: 3),
                    "b": .init(createdAt: 100, expiresAt: 1_100, accessSequence: 2),
                ])
            clock.set(milliseconds: 1_000)
            try cache.store([3], forKey: "c")
            #expect(
                try held() == [
                    "a": .init(createdAt: 0, expiresAt: 1_900, accessSequence: 3),
                    "c": .init(createdAt: 1_000, expiresAt: 2_000, accessSequence: 4),
                ])
            clock.set(milliseconds: 1_800)
            #expect(try cache.bytes(forKey: "a") == [1])
            #expect(
                try cache.metadata(forKey: "a") == .init(createdAt: 0, expiresAt: 2_500, accessSequence: 5))
            clock.set(milliseconds: 2_000)
            #expect(cache.count == 1)
            try cache.store([4], forKey: "d")
            #expect(
                try held() == [
                    "a": .init(createdAt: 0, expiresAt: 2_500, accessSequence: 5),
                    "d": .init(createdAt: 2_000, expiresAt: 3_000, accessSequence: 6),
                ])
            clock.set(milliseconds: 2_500)
            #expect(try cache.bytes(forKey: "a") == nil)
            #expect(try held() == ["d": .init(createdAt: 2_000, expiresAt: 3_000, accessSequence: 6)])
            clock.set(milliseconds: 3_000)
            #expect(try cache.purgeExpired() == 1)
            #expect(cache.count == 0)
        }
    }
}
