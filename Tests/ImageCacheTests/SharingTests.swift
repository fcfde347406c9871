import Foundation
import Platform
import TestSupport
import Testing

@testable import ImageCacheKit

/// Caches that share one folder (`Spec/backends.md` §9), here two instances in one process (the
/// locks they take are the ones separate processes take; `Tests/SharingTests` runs processes).
@Suite struct SharingTests {
    static let sharable: [Backend] = [.log, .hybrid]

    static func shared(
        _ backend: Backend, _ directory: TemporaryDirectory, clock: ManualClock, maximumBytes: Int? = nil,
        memoryCostLimit: Int? = nil, readOnly: Bool = false
    ) throws -> ImageCache {
        var settings = configuration(
            backend, directory, clock: clock, maximumBytes: maximumBytes, memoryCostLimit: memoryCostLimit,
            externalStorageThreshold: 1_000)
        settings.sharedAcrossProcesses = !readOnly
        settings.readOnly = readOnly
        return try ImageCache(configuration: settings)
    }

    @Test(arguments: sharable)
    func storesRemovalsAndClearsAreSeenAtTheNextOperation(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock)
        let b = try Self.shared(backend, directory, clock: clock)
        try a.store(bytes(seed: 1, count: 500), forKey: "small")
        try a.store(bytes(seed: 2, count: 5_000), forKey: "large")
        #expect(try b.bytes(forKey: "small") == bytes(seed: 1, count: 500))
        #expect(try b.bytes(forKey: "large") == bytes(seed: 2, count: 5_000))
        #expect(b.count == 2)
        #expect(b.totalByteCount == 5_500)
        try b.store(bytes(seed: 3, count: 6_000), forKey: "large")
        #expect(try a.bytes(forKey: "large") == bytes(seed: 3, count: 6_000))
        #expect(try b.removeValue(forKey: "small"))
        #expect(try a.bytes(forKey: "small") == nil)
        #expect(a.keys == ["large"])
        try a.removeAll()
        #expect(b.count == 0)
        #expect(b.totalByteCount == 0)
        try a.close()
        try b.close()
    }

    @Test(arguments: sharable)
    func limitsHoldForWhatTheCachesHoldTogether(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock, maximumBytes: 10_000)
        let b = try Self.shared(backend, directory, clock: clock, maximumBytes: 10_000)
        for index in 0..<4 { try a.store(bytes(seed: UInt64(index), count: 2_000), forKey: "a\(index)") }
        // A hit in b counts for the order a evicts in.
        #expect(try b.bytes(forKey: "a0") != nil)
        try b.synchronize()
        for index in 0..<2 { try b.store(bytes(seed: 10 + UInt64(index), count: 2_000), forKey: "b\(index)") }
        #expect(a.totalByteCount <= 10_000)
        #expect(b.totalByteCount <= 10_000)
        #expect(Set(a.keys) == ["a0", "a2", "a3", "b0", "b1"], "a1 was the least recently used")
        try a.close()
        try b.close()
    }

    /// Two caches sharing one folder with a time-to-live of 1,000 ms, and `k` stored by the
    /// first at 1,000 (so it expires at 2,000 unless a hit slides it).
    static func twoSharingAKeyStoredAt1000(
        _ backend: Backend, _ directory: TemporaryDirectory, clock: ManualClock
    ) throws -> (ImageCache, ImageCache) {
        var settings = configuration(backend, directory, clock: clock, timeToLive: 1_000)
        settings.sharedAcrossProcesses = true
        let a = try ImageCache(configuration: settings)
        let b = try ImageCache(configuration: settings)
        try a.store([1], forKey: "k")
        return (a, b)
    }

    /// A hit in one process slides the expiry for every process (§9.4, once that process's
    /// next section applied it).
    @Test(arguments: sharable)
    func aHitInOneExtendsTheExpiryForAll(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let (a, b) = try Self.twoSharingAKeyStoredAt1000(backend, directory, clock: clock)
        clock.advance(by: 800)
        #expect(try b.bytes(forKey: "k") == [1])
        try b.synchronize()
        clock.advance(by: 400)
        #expect(try a.bytes(forKey: "k") == [1], "b's hit at 1800 keeps it until 2800")
        clock.advance(by: 1_100)
        #expect(try a.bytes(forKey: "k") == nil)
        try a.close()
        try b.close()
    }

    /// A process that only reads applies its hits itself once 1,024 have piled up (§9.4), so
    /// the others see them without that process ever writing.
    @Test(arguments: sharable)
    func aReaderAppliesItsOwnHitsOnceManyPileUp(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let (a, b) = try Self.twoSharingAKeyStoredAt1000(backend, directory, clock: clock)
        clock.advance(by: 800)
        for _ in 0..<1_023 { #expect(try b.bytes(forKey: "k") == [1]) }
        #expect(try a.metadata(forKey: "k")?.expiresAt == 2_000, "1,023 hits wait in b")
        #expect(try b.bytes(forKey: "k") == [1])
        #expect(try a.metadata(forKey: "k")?.expiresAt == 2_800, "the 1,024th applied them all")
        try a.close()
        try b.close()
    }

    /// Access sequences keep rising across processes, also past entries removed since (§9.4).
    @Test(arguments: sharable)
    func sequencesKeepRisingPastEntriesRemovedElsewhere(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock)
        let b = try Self.shared(backend, directory, clock: clock)
        try a.store([1], forKey: "first")
        for index in 0..<5 { try b.store([2], forKey: "b\(index)") }
        let highest = try #require(try b.metadata(forKey: "b4")).accessSequence
        for index in 0..<5 { #expect(try b.removeValue(forKey: "b\(index)")) }
        // After a compaction a derives its state from the live entries alone: only the shared
        // counter remembers the removed entries' sequences.
        try b.compact()
        try a.store([3], forKey: "later")
        #expect(try #require(try a.metadata(forKey: "later")).accessSequence > highest)
        try a.close()
        try b.close()
    }

    /// Reads never wait for another process: while it holds the lock of changes (a long
    /// compaction, say), the hits a reader records are applied later, not waited for.
    @Test(arguments: sharable)
    func readsDoNotWaitForTheLockOfAnotherProcess(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let cache = try Self.shared(backend, directory, clock: clock)
        try cache.store([1], forKey: "k")
        let logName = backend == .log ? LogStorage.fileName : HybridStorage.logName
        let coordinationPath = directory.cacheURL.appendingPathComponent(logName).path + ".shared"
        let other = try FileSystem.open(coordinationPath, .readWrite)
        defer { FileSystem.close(other) }
        try FileLock.lockExclusively(other, path: coordinationPath)
        let done = DispatchSemaphore(value: 0)
        let hits = SendableBox(0)
        DispatchQueue.global().async {
            for _ in 0..<2_000 where (try? cache.bytes(forKey: "k")) == [1] { hits.value += 1 }
            done.signal()
        }
        let finishedWhileHeld = done.wait(timeout: .now() + 20) == .success
        FileLock.unlock(other)
        if !finishedWhileHeld { done.wait() }
        #expect(finishedWhileHeld, "2,000 reads (hits applied from 1,024 on) waited for the other lock")
        #expect(hits.value == 2_000)
        try cache.close()
    }

    final class SendableBox: @unchecked Sendable {
        var value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test(arguments: sharable)
    func aCompactionOrPurgeInOneDisturbsNoOther(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock)
        let b = try Self.shared(backend, directory, clock: clock)
        for round in 0..<30 { try a.store(bytes(seed: UInt64(round), count: 3_000), forKey: "k\(round % 3)") }
        #expect(try b.bytes(forKey: "k2") == bytes(seed: 29, count: 3_000))
        try a.compact()
        #expect(try b.bytes(forKey: "k0") == bytes(seed: 27, count: 3_000))
        try b.store([1, 2, 3], forKey: "after")
        #expect(try a.bytes(forKey: "after") == [1, 2, 3])
        _ = try b.purgeExpired()
        try b.compact()
        #expect(a.count == 4)
        try a.close()
        try b.close()
        let reopened = try ImageCache(
            configuration: configuration(backend, directory, clock: clock, externalStorageThreshold: 1_000))
        #expect(reopened.count == 4)
        try reopened.close()
    }

    @Test(arguments: sharable)
    func theMemoryTierNeverServesAReplacedBitmap(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock, memoryCostLimit: 1 << 20)
        let b = try Self.shared(backend, directory, clock: clock)
        let first = try Bitmap(width: 4, height: 4, format: .rgba8, pixels: bytes(seed: 1, count: 64))
        let second = try Bitmap(width: 4, height: 4, format: .rgba8, pixels: bytes(seed: 2, count: 64))
        try a.store(first, forKey: "image")
        #expect(try a.bitmap(forKey: "image") == first)
        try b.store(second, forKey: "image")
        #expect(try a.bitmap(forKey: "image") == second)
        _ = try b.removeValue(forKey: "image")
        #expect(try a.bitmap(forKey: "image") == nil)
        try a.close()
        try b.close()
    }

    @Test(arguments: sharable)
    func aRemovedOriginalTakesItsVariantsForEveryone(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let a = try Self.shared(backend, directory, clock: clock)
        let b = try Self.shared(backend, directory, clock: clock)
        let image = try Bitmap(width: 40, height: 40, format: .rgba8, pixels: bytes(seed: 5, count: 6_400))
        try a.store(image, forKey: "image")
        #expect(try a.variant(forKey: "image", maximumPixelSize: 8) == image.downsampled(toFit: 8))
        #expect(try b.variant(forKey: "image", maximumPixelSize: 8) == image.downsampled(toFit: 8))
        #expect(b.statistics.variants == 1)
        #expect(try b.removeValue(forKey: "image"))
        #expect(a.statistics.variants == 0)
        #expect(try a.variant(forKey: "image", maximumPixelSize: 8) == nil)
        try a.close()
        try b.close()
    }

    @Test(arguments: sharable)
    func aReaderFollowsTheSharingWriters(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let writer = try Self.shared(backend, directory, clock: clock)
        try writer.store([1], forKey: "before")
        let reader = try Self.shared(backend, directory, clock: clock, readOnly: true)
        try writer.store(bytes(seed: 9, count: 4_000), forKey: "after")
        #expect(try reader.bytes(forKey: "after") == bytes(seed: 9, count: 4_000))
        try writer.store(bytes(seed: 10, count: 4_000), forKey: "after")
        try writer.compact()
        #expect(try reader.bytes(forKey: "after") == bytes(seed: 10, count: 4_000))
        #expect(reader.count == 2)
        try writer.close()
        try reader.close()
    }

    /// A reader that only reads never takes its log's changes; past their bound they become one
    /// `reloaded` and later records note nothing (`Spec/store.md` §12.4). Its next inspection
    /// derives everything from the index again, and must count what the writer holds.
    @Test(arguments: sharable)
    func aReaderPastTheBoundOfChangesCountsWhatTheWriterHolds(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let writer = try Self.shared(backend, directory, clock: clock)
        try writer.store([1], forKey: "before")
        let reader = try Self.shared(backend, directory, clock: clock, readOnly: true)
        #expect(reader.count == 1)
        for index in 0..<4_200 { try writer.store([UInt8(truncatingIfNeeded: index)], forKey: "k\(index)") }
        #expect(try reader.bytes(forKey: "k4199") == [UInt8(truncatingIfNeeded: 4_199)])
        // After the collapse: a large value (an external file in hybrid), a replacement, a removal.
        try writer.store(bytes(seed: 4, count: 3_000), forKey: "large")
        try writer.store([7, 7], forKey: "k1")
        #expect(try writer.removeValue(forKey: "k2"))
        #expect(try reader.bytes(forKey: "large") == bytes(seed: 4, count: 3_000))
        #expect(reader.count == writer.count)
        #expect(reader.count == 4_201)
        #expect(reader.totalByteCount == writer.totalByteCount)
        #expect(try reader.bytes(forKey: "k1") == [7, 7])
        #expect(try reader.bytes(forKey: "k2") == nil)
        try writer.close()
        try reader.close()
    }

    @Test(arguments: sharable)
    func aWriterThatDoesNotShareExcludesTheSharersAndTheyIt(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let sharer = try Self.shared(backend, directory, clock: clock)
        #expect(throws: CacheError.locked(path: directory.cacheURL.path, byThisProcess: false)) {
            try ImageCache(configuration: configuration(backend, directory, clock: clock))
        }
        try sharer.close()
        let alone = try ImageCache(configuration: configuration(backend, directory, clock: clock))
        #expect(throws: CacheError.locked(path: directory.cacheURL.path, byThisProcess: false)) {
            try Self.shared(backend, directory, clock: clock)
        }
        try alone.close()
    }

    @Test(arguments: [Backend.dictionary, .directory])
    func theOtherBackendsRefuseToShare(backend: Backend) throws {
        let directory = TemporaryDirectory()
        var settings = configuration(backend, directory, clock: ManualClock())
        settings.sharedAcrossProcesses = true
        #expect(throws: CacheError.sharingUnsupported(backend: backend)) {
            try ImageCache(configuration: settings)
        }
        #expect(
            !FileManager.default.fileExists(atPath: directory.cacheURL.path), "a refused open creates nothing"
        )
    }
}
