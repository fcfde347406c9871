import Foundation
import PNG
import TestSupport
import Testing

@testable import ImageCacheKit

/// The memory tier under pressure (`Spec/cache.md` §7.5): trimming and emptying drop bitmaps
/// from memory, least recently used first, and never an entry. Linux has no memory-pressure
/// source, so the trimming a warning does is tested through the tier's own call.
@Suite struct MemoryTrimTests {
    /// A 10 × 10 RGBA image: its cost in the tier is 400 bytes.
    static func image(_ seed: UInt64) throws -> Bitmap {
        try Bitmap(width: 10, height: 10, format: .rgba8, pixels: bytes(seed: seed, count: 400))
    }

    /// A cache with a tier of `limit` bytes holding k0 … k3 (1,600 bytes), k0 the most recently
    /// used.
    static func filledCache(_ backend: Backend, _ directory: TemporaryDirectory, limit: Int = 2_000) throws
        -> (ImageCache, [Bitmap])
    {
        let cache = try ImageCache(
            configuration: configuration(backend, directory, clock: ManualClock(), memoryCostLimit: limit))
        let images = try (0..<4).map { try image(UInt64($0)) }
        for (index, image) in images.enumerated() { try cache.store(image, forKey: "k\(index)") }
        #expect(try cache.bitmap(forKey: "k0") == images[0])
        return (cache, images)
    }

    @Test(arguments: Backend.allCases)
    func trimmingDropsTheLeastRecentlyUsedBitmapsAndNoEntry(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let (cache, images) = try Self.filledCache(backend, directory)
        #expect(cache.memoryCost == 1_600)
        cache.trimMemory(toCost: 900)
        // k1 and k2 were the least recently used; k3 and k0 stay.
        #expect(cache.memoryCost == 800)
        #expect(try cache.bitmap(forKey: "k0") == images[0])
        #expect(try cache.bitmap(forKey: "k3") == images[3])
        #expect(cache.memoryCost == 800, "k0 and k3 came from memory, nothing was added")
        // A dropped bitmap is still an entry: it is read, decoded and kept again.
        #expect(cache.count == 4)
        #expect(try cache.bitmap(forKey: "k1") == images[1])
        #expect(cache.memoryCost == 1_200)
        // A cost the tier is already within drops nothing.
        cache.trimMemory(toCost: 1_200)
        #expect(cache.memoryCost == 1_200)
    }

    @Test(arguments: Backend.allCases)
    func emptyingTheTierKeepsEveryEntry(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let (cache, images) = try Self.filledCache(backend, directory)
        let metadata = try cache.metadata(forKey: "k2")
        cache.removeAllFromMemory()
        #expect(cache.memoryCost == 0)
        #expect(cache.memory?.count == 0)
        #expect(cache.count == 4)
        #expect(cache.totalByteCount == images.map { try! PNGEncoder.encode($0).count }.reduce(0, +))
        // Not a hit: the entry's metadata did not move.
        #expect(try cache.metadata(forKey: "k2") == metadata)
        #expect(try cache.bitmap(forKey: "k2") == images[2])
        #expect(cache.memoryCost == 400)
    }

    @Test func aCostOfZeroOrLessEmptiesTheTier() throws {
        for cost in [0, -1, Int.min] {
            let directory = TemporaryDirectory()
            let (cache, _) = try Self.filledCache(.log, directory)
            cache.trimMemory(toCost: cost)
            #expect(cache.memoryCost == 0, "trimMemory(toCost: \(cost))")
            #expect(cache.memory?.count == 0)
        }
    }

    @Test func aMemoryWarningTrimsToHalfTheLimit() throws {
        let directory = TemporaryDirectory()
        let (cache, images) = try Self.filledCache(.log, directory, limit: 2_000)
        cache.memory?.trimForMemoryWarning()
        // 1,000 bytes allowed: the two most recently used (k0, then k3) stay.
        #expect(cache.memoryCost == 800)
        #expect(try cache.bitmap(forKey: "k0") == images[0])
        #expect(try cache.bitmap(forKey: "k3") == images[3])
        #expect(cache.memoryCost == 800)
    }

    @Test func withoutATierTheCallsDoNothing() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(.log, directory, clock: ManualClock()))
        try cache.store(try Self.image(1), forKey: "k")
        #expect(try cache.bitmap(forKey: "k") != nil)
        #expect(cache.memoryCost == 0)
        cache.trimMemory(toCost: 0)
        cache.removeAllFromMemory()
        #expect(cache.count == 1)
    }

    @Test func aClosedCacheHoldsNothingInMemory() throws {
        let directory = TemporaryDirectory()
        let (cache, _) = try Self.filledCache(.log, directory)
        try cache.close()
        #expect(cache.memoryCost == 0)
        cache.trimMemory(toCost: 100)
        cache.removeAllFromMemory()
        #expect(cache.memoryCost == 0)
    }

    @Test func trimmingRunsBesideReadersAndWriters() throws {
        let directory = TemporaryDirectory()
        let (cache, images) = try Self.filledCache(.log, directory, limit: 1_200)
        let failures = FailureLog()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var generator = SplitMix64(state: UInt64(worker) + 7)
            for _ in 0..<200 {
                let index = Int(generator.next() % 4)
                do {
                    switch worker {
                    case 0: cache.trimMemory(toCost: Int(generator.next() % 1_300))
                    case 1: try cache.store(images[index], forKey: "k\(index)")
                    default:
                        if try cache.bitmap(forKey: "k\(index)") != images[index] {
                            failures.record("k\(index) came back different")
                        }
                    }
                } catch {
                    failures.record("\(error)")
                }
                if cache.memoryCost > 1_200 { failures.record("cost \(cache.memoryCost) over the limit") }
            }
        }
        #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
        #expect(cache.count == 4)
    }
}
