import Foundation
import PNG
import TestSupport
import Testing

@testable import ImageCacheKit

extension CacheBehaviourTests {
    /// Images go in through the PNG encoder and come out through the decoder (`Spec/cache.md`
    /// §6.4); the memory tier serves decoded hits without the disk but with the same bookkeeping (§7).
    @Suite struct ImageTests {
        static func bitmap(seed: UInt64, width: Int = 7, height: Int = 5, format: PixelFormat = .rgba8) throws
            -> Bitmap
        {
            try Bitmap(
                width: width, height: height, format: format,
                pixels: bytes(seed: seed, count: width * height * format.bytesPerPixel))
        }

        @Test(arguments: Backend.allCases)
        func bitmapsRoundTripThroughPNG(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(backend, directory, clock: ManualClock())
            let formats: [PixelFormat] = [.rgba8, .gray16, .rgb8, .grayAlpha8]
            var stored: [String: Bitmap] = [:]
            do {
                let cache = try ImageCache(configuration: settings)
                for (index, format) in formats.enumerated() {
                    let image = try Self.bitmap(seed: UInt64(index), format: format)
                    stored["\(format)"] = image
                    try cache.store(image, forKey: "\(format)")
                }
                for (key, image) in stored {
                    #expect(try cache.bitmap(forKey: key) == image)
                    // The stored bytes are exactly the encoder's PNG.
                    #expect(try cache.bytes(forKey: key) == PNGEncoder.encode(image))
                }
                #expect(try cache.bitmap(forKey: "missing") == nil)
                try cache.close()
            }
            let reopened = try ImageCache(configuration: settings)
            for (key, image) in stored { #expect(try reopened.bitmap(forKey: key) == image) }
        }

        @Test(arguments: Backend.allCases)
        func theStoredSizeOfAnImageIsItsPNGLength(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let image = try Self.bitmap(seed: 3)
            let length = try PNGEncoder.encode(image).count
            let cache = try ImageCache(
                configuration: configuration(backend, directory, clock: ManualClock(), maximumBytes: length))
            try cache.store(image, forKey: "a")
            #expect(cache.totalByteCount == length)
            try cache.store(image, forKey: "b")
            #expect(cache.keys == ["b"])
        }

        @Test(arguments: Backend.allCases)
        func rawBytesReadAsABitmapAreADecodingErrorAndStay(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + bytes(seed: 4, count: 100)
            try cache.store(jpeg, forKey: "photo")
            #expect {
                try cache.bitmap(forKey: "photo")
            } throws: { error in
                if case .imageDecodingFailed(let key, _)? = error as? CacheError { return key == "photo" }
                return false
            }
            #expect(try cache.bytes(forKey: "photo") == jpeg)
        }

        @Test func anImageTheEncoderRejectsIsAnEncodingError() throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(configuration: configuration(.log, directory, clock: ManualClock()))
            var image = try Self.bitmap(seed: 1)
            image.pixels.removeLast()
            #expect {
                try cache.store(image, forKey: "bad")
            } throws: { error in
                if case .imageEncodingFailed(let key, _)? = error as? CacheError { return key == "bad" }
                return false
            }
            #expect(cache.count == 0)
        }

        // MARK: Memory tier (§7)

        @Test(arguments: [Backend.directory, .hybrid])
        func aMemoryHitDoesNotReadTheDisk(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let image = try Self.bitmap(seed: 5, width: 40, height: 40)
            let settings = configuration(
                backend, directory, clock: ManualClock(), memoryCostLimit: 1 << 20,
                externalStorageThreshold: 64)
            let cache = try ImageCache(configuration: settings)
            try cache.store(image, forKey: "k")
            // Remove the value's file behind the cache's back: only a memory hit can still answer.
            let folder = directory.cacheURL.appendingPathComponent(
                backend == .directory ? "entries" : "external")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
            #expect(try cache.bitmap(forKey: "k") == image)
            #expect { try cache.bytes(forKey: "k") } throws: { isCorruptEntry($0, key: "k") }
            #expect(try cache.bitmap(forKey: "k") == nil)
        }

        @Test(arguments: Backend.allCases)
        func memoryHitsSlideExpiryAndNeverReturnExpiredOrRemovedEntries(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let settings = configuration(
                backend, directory, clock: clock, timeToLive: 1_000, maximumAge: 5_000,
                memoryCostLimit: 1 << 20)
            let image = try Self.bitmap(seed: 6)
            do {
                let cache = try ImageCache(configuration: settings)
                try cache.store(image, forKey: "k")
                #expect(cache.memory?.count == 1)
                clock.set(milliseconds: 900)
                #expect(try cache.bitmap(forKey: "k") == image)
                #expect(
                    try cache.metadata(forKey: "k")
                        == CacheEntryMetadata(createdAt: 0, expiresAt: 1_900, accessSequence: 2))
                try cache.close()
            }
            // The memory hit's bookkeeping was persisted like a disk hit's.
            let cache = try ImageCache(configuration: settings)
            #expect(
                try cache.metadata(forKey: "k")
                    == CacheEntryMetadata(createdAt: 0, expiresAt: 1_900, accessSequence: 2))
            #expect(try cache.bitmap(forKey: "k") == image)
            #expect(cache.memory?.count == 1)
            clock.set(milliseconds: 1_900)
            #expect(try cache.bitmap(forKey: "k") == nil)
            #expect(cache.memory?.count == 0)
            try cache.store(image, forKey: "k")
            try cache.removeValue(forKey: "k")
            #expect(try cache.bitmap(forKey: "k") == nil)
            // Raw bytes stored over an image replace the decoded copy too.
            try cache.store(image, forKey: "k")
            try cache.store([1, 2, 3], forKey: "k")
            #expect(
                throws: CacheError.imageDecodingFailed(
                    key: "k", reason: PNGError.invalidSignature.description)
            ) {
                try cache.bitmap(forKey: "k")
            }
            try cache.store(image, forKey: "k")
            try cache.removeAll()
            #expect(cache.memory?.count == 0)
            #expect(try cache.bitmap(forKey: "k") == nil)
        }

        @Test func theMemoryTierIsBoundedByDecodedBytes() throws {
            let directory = TemporaryDirectory()
            let image = try Self.bitmap(seed: 7, width: 10, height: 10)  // 400 pixel bytes
            let cache = try ImageCache(
                configuration: configuration(.log, directory, clock: ManualClock(), memoryCostLimit: 1_000))
            for index in 0..<3 { try cache.store(image, forKey: "k\(index)") }
            #expect(cache.memory?.count == 2)
            #expect(cache.memory?.totalCost == 800)
            // Evicted from memory is not evicted from the cache.
            #expect(try cache.bitmap(forKey: "k0") == image)
            #expect(cache.count == 3)
        }

        @Test(arguments: Backend.allCases)
        func manyThreadsReadAndWriteImages(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let cache = try ImageCache(
                configuration: configuration(
                    backend, directory, clock: clock, timeToLive: 20, maximumEntryCount: 6,
                    memoryCostLimit: 2_000))
            let images = try (0..<8).map { try Self.bitmap(seed: UInt64($0), width: 6, height: 6) }
            let failures = FailureLog()
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                var generator = SplitMix64(state: UInt64(worker) + 100)
                for _ in 0..<80 {
                    let index = Int(generator.next() % 8)
                    do {
                        switch generator.next() % 4 {
                        case 0: try cache.store(images[index], forKey: "image \(index)")
                        case 1: clock.advance(by: 1)
                        default:
                            if let image = try cache.bitmap(forKey: "image \(index)"), image != images[index]
                            {
                                failures.record("image \(index) came back different")
                            }
                        }
                    } catch {
                        failures.record("\(error)")
                    }
                }
            }
            #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
            #expect(cache.count <= 6)
        }
    }
}
