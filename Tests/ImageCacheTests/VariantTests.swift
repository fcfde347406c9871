import Foundation
import PNG
import TestSupport
import Testing

@testable import ImageCacheKit

/// Variants (thumbnails) in the cache, on every backend (`Spec/thumbnail.md` §5).
@Suite struct VariantTests {
    static func image(width: Int, height: Int, seed: UInt64) throws -> Bitmap {
        try Bitmap(
            width: width, height: height, format: .rgba8, pixels: bytes(seed: seed, count: width * height * 4)
        )
    }

    static func variantKey(_ key: String, _ size: UInt32) -> [UInt8] {
        VariantKey(original: Array(key.utf8), maximumPixelSize: size).bytes
    }

    /// Messages name a variant by its size and original, not by the raw bytes of its key.
    @Test func aVariantKeyIsShownByItsSizeAndOriginal() throws {
        #expect(displayKey(Self.variantKey("photo", 128)) == "variant 128 of photo")
        #expect(displayKey(Array("photo".utf8)) == "photo")
        // A damaged variant entry is reported under that name by the backend that found it.
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(.directory, directory, clock: ManualClock()))
        try cache.store(try Self.image(width: 40, height: 30, seed: 1), forKey: "photo")
        _ = try cache.variant(forKey: "photo", maximumPixelSize: 10)
        let file = directory.cacheURL.appendingPathComponent(DirectoryStorage.entriesName)
            .appendingPathComponent(DirectoryStorage.fileName(forKey: Self.variantKey("photo", 10)))
        try FileManager.default.removeItem(at: file)
        #expect {
            try cache.storage.read(Self.variantKey("photo", 10))
        } throws: {
            isCorruptEntry($0, key: "variant 10 of photo")
        }
    }

    @Test(arguments: Backend.allCases)
    func aVariantIsMadeOnceStoredAndReadBack(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let cache = try ImageCache(configuration: settings)
        let original = try Self.image(width: 40, height: 30, seed: 1)
        try cache.store(original, forKey: "photo")
        let expected = try original.downsampled(toFit: 10)
        #expect(expected.width == 10 && expected.height == 8)
        #expect(try cache.variant(forKey: "photo", maximumPixelSize: 10) == expected)
        // Stored as an entry of its own, the canonical PNG of the variant.
        let stored = try cache.storage.read(Self.variantKey("photo", 10))
        #expect(stored?.bytes == (try PNGEncoder.encode(expected)))
        #expect(try cache.variant(forKey: "photo", maximumPixelSize: 10) == expected)
        // Variants are not entries a user sees, but their bytes count.
        #expect(cache.count == 1)
        #expect(cache.keys == ["photo"])
        #expect(cache.totalByteCount == (try PNGEncoder.encode(original)).count + stored!.bytes.count)
        // An original that already fits is its own variant, and nothing is stored.
        #expect(try cache.variant(forKey: "photo", maximumPixelSize: 40) == original)
        #expect(try cache.storage.state(forKey: Self.variantKey("photo", 40)) == nil)
        #expect(try cache.variant(forKey: "absent", maximumPixelSize: 10) == nil)
        #expect(throws: CacheError.invalidMaximumPixelSize(0)) {
            try cache.variant(forKey: "photo", maximumPixelSize: 0)
        }
        try cache.close()
        let reopened = try ImageCache(configuration: settings)
        #expect(try reopened.storage.read(Self.variantKey("photo", 10))?.bytes == stored?.bytes)
        #expect(try reopened.variant(forKey: "photo", maximumPixelSize: 10) == expected)
    }

    @Test(arguments: Backend.allCases)
    func aVariantRequestIsOneHitOnTheOriginal(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, timeToLive: 1_000))
        try cache.store(try Self.image(width: 20, height: 20, seed: 2), forKey: "p")
        clock.advance(by: 900)
        _ = try cache.variant(forKey: "p", maximumPixelSize: 5)
        #expect(
            try cache.metadata(forKey: "p")
                == CacheEntryMetadata(createdAt: 0, expiresAt: 1_900, accessSequence: 2))
        clock.advance(by: 900)
        _ = try cache.variant(forKey: "p", maximumPixelSize: 5)
        #expect(
            try cache.metadata(forKey: "p")
                == CacheEntryMetadata(createdAt: 0, expiresAt: 2_800, accessSequence: 3))
    }

    @Test(arguments: Backend.allCases)
    func thumbnailsAreStoredWithTheOriginal(backend: Backend) throws {
        let directory = TemporaryDirectory()
        var settings = configuration(backend, directory, clock: ManualClock())
        settings.thumbnailMaximumPixelSize = 8
        let cache = try ImageCache(configuration: settings)
        let original = try Self.image(width: 33, height: 17, seed: 3)
        try cache.store(original, forKey: "a")
        let thumbnail = try cache.storage.read(Self.variantKey("a", 8))
        #expect(thumbnail?.bytes == (try PNGEncoder.encode(try original.downsampled(toFit: 8))))
        // A bitmap that already fits has no thumbnail.
        try cache.store(try Self.image(width: 4, height: 4, seed: 4), forKey: "small")
        #expect(try cache.storage.state(forKey: Self.variantKey("small", 8)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func variantsGoWithTheirOriginal(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let cache = try ImageCache(
            configuration: configuration(
                backend, directory, clock: clock, timeToLive: 1_000, maximumEntryCount: 2))
        let first = try Self.image(width: 30, height: 30, seed: 5)
        try cache.store(first, forKey: "k")
        _ = try cache.variant(forKey: "k", maximumPixelSize: 10)
        _ = try cache.variant(forKey: "k", maximumPixelSize: 12)
        // Replaced: the old variants go, and a new request makes one from the new value.
        let second = try Self.image(width: 30, height: 30, seed: 6)
        try cache.store(second, forKey: "k")
        #expect(try cache.storage.state(forKey: Self.variantKey("k", 10)) == nil)
        #expect(try cache.storage.state(forKey: Self.variantKey("k", 12)) == nil)
        #expect(try cache.variant(forKey: "k", maximumPixelSize: 10) == (try second.downsampled(toFit: 10)))
        // Removed.
        #expect(try cache.removeValue(forKey: "k"))
        #expect(try cache.storage.state(forKey: Self.variantKey("k", 10)) == nil)
        // Evicted: the least recently used original takes its variant with it.
        try cache.store(first, forKey: "x")
        _ = try cache.variant(forKey: "x", maximumPixelSize: 10)
        try cache.store(first, forKey: "y")
        try cache.store(first, forKey: "z")
        #expect(cache.keys == ["y", "z"])
        #expect(try cache.storage.state(forKey: Self.variantKey("x", 10)) == nil)
        // Expired: purged with the original.
        _ = try cache.variant(forKey: "z", maximumPixelSize: 10)
        clock.advance(by: 5_000)
        #expect(try cache.purgeExpired() == 2)
        #expect(try cache.storage.state(forKey: Self.variantKey("z", 10)) == nil)
        #expect(cache.totalByteCount == 0)
        #expect(cache.storage.entryCount == 0)
    }

    @Test(arguments: Backend.allCases)
    func aVariantWithoutItsOriginalIsRemovedOnOpen(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let cache = try ImageCache(configuration: settings)
        try cache.store(try Self.image(width: 30, height: 30, seed: 7), forKey: "kept")
        _ = try cache.variant(forKey: "kept", maximumPixelSize: 10)
        // As a crash between removing an original and its variants would leave it.
        let orphan = Self.variantKey("gone", 10)
        try withBytes(of: [1, 2, 3]) { (bytes) throws(CacheError) in
            try cache.storage.write(
                bytes, forKey: orphan, metadata: .init(createdAt: 0, expiresAt: .max, accessSequence: 0),
                userMetadata: [])
        }
        try cache.close()
        let reopened = try ImageCache(configuration: settings)
        #expect(try reopened.storage.state(forKey: orphan) == nil)
        #expect(try reopened.storage.state(forKey: Self.variantKey("kept", 10)) != nil)
        #expect(
            reopened.totalByteCount
                == (try reopened.keys.reduce(0) { $0 + (try reopened.bytes(forKey: $1)?.count ?? 0) })
                + (try reopened.storage.state(forKey: Self.variantKey("kept", 10))?.byteCount ?? 0))
    }

    @Test(arguments: Backend.allCases)
    func aDamagedVariantIsMadeAgain(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let cache = try ImageCache(configuration: settings)
        let original = try Self.image(width: 30, height: 30, seed: 8)
        try cache.store(original, forKey: "k")
        let expected = try original.downsampled(toFit: 10)
        _ = try cache.variant(forKey: "k", maximumPixelSize: 10)
        try cache.close()
        try corrupt(try PNGEncoder.encode(expected), under: directory.cacheURL)
        let reopened = try ImageCache(configuration: settings)
        #expect(try reopened.verify().damagedEntries.map(\.key) == ["k"])
        #expect(try reopened.variant(forKey: "k", maximumPixelSize: 10) == expected)
        #expect(try reopened.verify().isIntact)
    }

    @Test(arguments: Backend.allCases)
    func aReadOnlyCacheDoesNotCountOrphanedVariants(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let cache = try ImageCache(configuration: settings)
        let kept = try Self.image(width: 30, height: 30, seed: 9)
        try cache.store(kept, forKey: "kept")
        let orphan = Self.variantKey("gone", 10)
        try withBytes(of: [1, 2, 3]) { (bytes) throws(CacheError) in
            try cache.storage.write(
                bytes, forKey: orphan, metadata: .init(createdAt: 0, expiresAt: .max, accessSequence: 0),
                userMetadata: [])
        }
        try cache.close()
        var readOnly = settings
        readOnly.readOnly = true
        let reader = try ImageCache(configuration: readOnly)
        // Kept on disk (a reader changes nothing) but not counted: its original is not held.
        #expect(try reader.storage.state(forKey: orphan) != nil)
        #expect(reader.count == 1)
        #expect(reader.totalByteCount == (try PNGEncoder.encode(kept)).count)
    }

    /// Every variant is stored with accessSequence 0, so a hybrid variant of 128 KiB or more
    /// gets the same external file name each time it is made (`Spec/backends.md` §5.3).
    @Test func aLargeHybridVariantMadeAgainKeepsItsFile() throws {
        let directory = TemporaryDirectory()
        var settings = configuration(.hybrid, directory, clock: ManualClock())
        settings.thumbnailMaximumPixelSize = 200
        let cache = try ImageCache(configuration: settings)
        let first = try Self.image(width: 220, height: 220, seed: 10)
        let second = try Self.image(width: 220, height: 220, seed: 11)
        try cache.store(first, forKey: "big")
        // The new thumbnail replaces the old one under the same name; the synchronize that
        // deletes the superseded file must not delete it.
        try cache.store(second, forKey: "big")
        try cache.synchronize()
        let expected = try second.downsampled(toFit: 200)
        #expect((try PNGEncoder.encode(expected)).count >= 128 * 1024)
        #expect(try cache.verify().isIntact)
        #expect(try cache.variant(forKey: "big", maximumPixelSize: 200) == expected)
        try cache.close()
        // Damaged, then made again: the same again.
        try corrupt(try PNGEncoder.encode(expected), under: directory.cacheURL)
        let reopened = try ImageCache(configuration: settings)
        #expect(try reopened.variant(forKey: "big", maximumPixelSize: 200) == expected)
        try reopened.close()
        let again = try ImageCache(configuration: settings)
        #expect(try again.verify().isIntact)
        #expect(try again.variant(forKey: "big", maximumPixelSize: 200) == expected)
    }
}
