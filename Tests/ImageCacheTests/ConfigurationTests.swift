import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// `CacheConfiguration`: its ranges, checked when a cache opens (`Spec/cache.md` §3.1), its
/// defaults, and the expiry rule every store follows (§4.2).
@Suite struct ConfigurationTests {
    @Test(arguments: [
        (Duration.zero, "timeToLive must be at least 1 millisecond, got 0.0 seconds"),
        (Duration.microseconds(999), "timeToLive must be at least 1 millisecond, got 0.000999 seconds"),
    ])
    func rejectsATimeToLiveUnderOneMillisecond(value: Duration, reason: String) {
        let directory = TemporaryDirectory()
        var settings = configuration(.log, directory, clock: ManualClock())
        settings.timeToLive = value
        #expect(throws: CacheError.invalidConfiguration(reason: reason)) {
            try ImageCache(configuration: settings)
        }
    }

    @Test func rejectsOutOfRangeLimits() {
        let directory = TemporaryDirectory()
        var settings = configuration(.dictionary, directory, clock: ManualClock())
        settings.maximumEntryCount = 0
        #expect(
            throws: CacheError.invalidConfiguration(reason: "maximumEntryCount must be at least 1, got 0")
        ) {
            try ImageCache(configuration: settings)
        }
        settings.maximumEntryCount = nil
        settings.maximumAge = .milliseconds(-5)
        #expect(
            throws: CacheError.invalidConfiguration(
                reason: "maximumAge must be at least 1 millisecond, got -0.005 seconds")
        ) {
            try ImageCache(configuration: settings)
        }
    }

    /// The rest of §3.1's ranges, each alone, with the reason the error gives.
    @Test(arguments: [
        ("memoryCostLimit", "memoryCostLimit must not be negative, got -1"),
        ("externalStorageThreshold", "externalStorageThreshold must be at least 1, got 0"),
        ("maximumPixelCount", "decodingLimits must be positive"),
        ("maximumDecompressedBytes", "decodingLimits must be positive"),
        ("directory", "directory must be a file URL"),
    ])
    func rejectsEachOtherSettingOutOfRange(setting: String, reason: String) throws {
        let directory = TemporaryDirectory()
        var settings = configuration(.hybrid, directory, clock: ManualClock())
        switch setting {
        case "memoryCostLimit": settings.memoryCostLimit = -1
        case "externalStorageThreshold": settings.externalStorageThreshold = 0
        case "maximumPixelCount": settings.decodingLimits.maximumPixelCount = 0
        case "maximumDecompressedBytes": settings.decodingLimits.maximumDecompressedBytes = 0
        default: settings.directory = try #require(URL(string: "https://example.com/cache"))
        }
        #expect(throws: CacheError.invalidConfiguration(reason: reason)) {
            try ImageCache(configuration: settings)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.cacheURL.path), "nothing made on disk")
    }

    /// `Spec/cache.md` §4.2: the earlier of now + timeToLive and now + maximumAge; never without
    /// them; a sum past `Int64` is never too.
    @Test func anEntryExpiresAtTheEarlierOfItsTimeToLiveAndMaximumAge() throws {
        func expiration(_ timeToLive: Duration?, _ maximumAge: Duration?, now: Int64 = 1_000) -> Int64 {
            CacheConfiguration.expiration(
                ofEntryStoredAt: now, timeToLive: timeToLive, maximumAge: maximumAge)
        }
        #expect(expiration(nil, nil) == .max)
        #expect(expiration(.seconds(2), nil) == 3_000)
        #expect(expiration(nil, .milliseconds(500)) == 1_500)
        #expect(expiration(.seconds(2), .milliseconds(500)) == 1_500)
        #expect(expiration(.seconds(2), .seconds(5)) == 3_000)
        #expect(expiration(.milliseconds(1_500_999) + .microseconds(999), nil) == 1_501_999)
        #expect(expiration(.seconds(2), nil, now: .max - 1_000) == .max)
        // The cache stamps its stores by the same rule.
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let cache = try ImageCache(
            configuration: configuration(.log, directory, clock: clock, timeToLive: 2_000, maximumAge: 500))
        try cache.store([1], forKey: "k")
        #expect(try cache.metadata(forKey: "k")?.expiresAt == expiration(.seconds(2), .milliseconds(500)))
    }

    @Test func theDefaultBackendIsTheLog() {
        #expect(CacheConfiguration(directory: URL(fileURLWithPath: "/tmp/x")).backend == .log)
        #expect(
            CacheConfiguration(directory: URL(fileURLWithPath: "/tmp/x")).externalStorageThreshold == 131_072)
    }

    #if !canImport(Darwin)
        @Test func theDefaultDirectoryFollowsXDG() {
            let xdg = CacheConfiguration.defaultDirectory(
                named: "imagecache", environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])
            #expect(xdg.path == "/var/cache/me/imagecache")
            let home = CacheConfiguration.defaultDirectory(
                named: "imagecache", environment: ["HOME": "/home/me"])
            #expect(home.path == "/home/me/.cache/imagecache")
            // A relative XDG_CACHE_HOME is invalid per the XDG specification and ignored.
            let relative = CacheConfiguration.defaultDirectory(
                named: "imagecache", environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"])
            #expect(relative.path == "/home/me/.cache/imagecache")
        }
    #endif
}
