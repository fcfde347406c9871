import Foundation
import ImageCacheKit
import Inflate
import LogStoreKit
import PNG
import TestSupport
import Testing

/// The API as a client package writes it: every public type can be written with its module's
/// name, time settings are `Duration`s, and `Data`, `URL` and `async` callers are served
/// directly (asked for in issue 10).
@Suite struct ClientAPITests {
    /// Compiles only if no module declares a type of its own name.
    @Test func everyPublicTypeCanBeQualifiedWithItsModule() {
        let backend: ImageCacheKit.Backend = .log
        let error: ImageCacheKit.CacheError = .cacheClosed
        let metadata = LogStoreKit.EntryMetadata(createdAt: 0)
        let format: PNG.PixelFormat = .rgba8
        let inflateError: Inflate.InflateError = .truncatedInput
        let limits = PNG.PNGLimits.default
        #expect(backend.rawValue == "log")
        #expect(error == .cacheClosed)
        #expect(metadata.expiresAt == .max)
        #expect(format.bytesPerPixel == 4)
        #expect(inflateError == .truncatedInput)
        #expect(limits.maximumPixelCount > 0)
        #expect(ImageCacheKit.ImageCache.self == ImageCache.self)
        #expect(LogStoreKit.LogStore.self == LogStore.self)
    }

    @Test func timeSettingsAreDurations() throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: CacheConfiguration(
                directory: directory.cacheURL, timeToLive: .seconds(3_600), maximumAge: .seconds(7 * 86_400),
                clock: clock))
        try cache.store([1], forKey: "k")
        // An hour is an hour, not 3.6 seconds.
        clock.advance(by: .seconds(3_599))
        #expect(cache.contains("k"))
        clock.advance(by: .seconds(1))
        #expect(!cache.contains("k"))
        let metadata = CacheEntryMetadata(createdAt: 1_000, expiresAt: .max, accessSequence: 1)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1))
        #expect(metadata.expirationDate == nil)
    }

    @Test func dataValuesAndURLKeys() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: CacheConfiguration(directory: directory.cacheURL))
        let url = URL(string: "https://example.com/photos/1.png?size=large")!
        try cache.store(Data([1, 2, 3]), forKey: url)
        #expect(try cache.data(forKey: url) == Data([1, 2, 3]))
        #expect(try cache.bytes(forKey: url.absoluteString) == [1, 2, 3])
        #expect(cache.contains(url))
        #expect(try cache.withValue(forKey: url.absoluteString) { Array($0) } == [1, 2, 3])
        #expect(try cache.removeValue(forKey: url))
        #expect(try cache.data(forKey: url) == nil)
    }

    @Test func asyncCallersGetTheSameCache() async throws {
        let directory = TemporaryDirectory()
        let cache = try await ImageCache.open(
            configuration: CacheConfiguration(directory: directory.cacheURL))
        let bitmap = try Bitmap(width: 2, height: 1, format: .rgba8, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        try await cache.store(bitmap, forKey: "image")
        try await cache.store(Data([9]), forKey: "data")
        async let image = cache.bitmap(forKey: "image")
        async let data = cache.data(forKey: "data")
        #expect(try await image == bitmap)
        #expect(try await data == Data([9]))
        try await cache.synchronize()
        #expect(try await cache.purgeExpired() == 0)
        try await cache.close()
        await #expect(throws: CacheError.cacheClosed) { try await cache.data(forKey: "data") }
    }
}
