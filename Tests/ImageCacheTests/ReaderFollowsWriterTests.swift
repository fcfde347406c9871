import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// A read-only cache follows the writer beside it on every backend (`Spec/backends.md` §1.5):
/// it sees what the writer synchronized without reopening, and a value the writer replaced or
/// removed reads as the new value or a miss, never as `corruptEntry`.
@Suite struct ReaderFollowsWriterTests {
    /// Longer than the pause between two looks of a `dictionary` or `directory` reader.
    static func pause() { Thread.sleep(forTimeInterval: 0.003) }

    @Test(arguments: Backend.allCases)
    func aReaderSeesWhatTheWriterSynchronized(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let writer = try ImageCache(configuration: configuration(backend, directory, clock: clock))
        try writer.store([1], forKey: "a")
        try writer.synchronize()
        var settings = configuration(backend, directory, clock: clock)
        settings.readOnly = true
        let reader = try ImageCache(configuration: settings)
        #expect(try reader.bytes(forKey: "a") == [1])

        try writer.store([2, 2], forKey: "a")
        try writer.store([3], forKey: "b")
        try writer.synchronize()
        Self.pause()
        #expect(try reader.bytes(forKey: "a") == [2, 2])
        #expect(try reader.bytes(forKey: "b") == [3])
        #expect(reader.count == 2)
        #expect(reader.totalByteCount == 3)

        // Removed and not yet synchronized: the old value or a miss, never damage.
        #expect(try writer.removeValue(forKey: "a"))
        Self.pause()
        let meanwhile = try reader.bytes(forKey: "a")
        #expect(meanwhile == nil || meanwhile == [2, 2])
        try writer.synchronize()
        Self.pause()
        #expect(try reader.bytes(forKey: "a") == nil)
        #expect(reader.keys == ["b"])

        try writer.removeAll()
        try writer.synchronize()
        Self.pause()
        #expect(reader.count == 0)
        try writer.close()
        try reader.close()
    }

    /// The memory tier of a reader never serves the bitmap of a value the writer replaced.
    @Test(arguments: Backend.allCases)
    func aReadersMemoryTierDropsAReplacedBitmap(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 1_000)
        let writer = try ImageCache(configuration: configuration(backend, directory, clock: clock))
        let first = try Bitmap(width: 1, height: 1, format: .rgba8, pixels: [1, 2, 3, 4])
        let second = try Bitmap(width: 1, height: 1, format: .rgba8, pixels: [5, 6, 7, 8])
        try writer.store(first, forKey: "image")
        try writer.synchronize()
        var settings = configuration(backend, directory, clock: clock, memoryCostLimit: 1 << 20)
        settings.readOnly = true
        let reader = try ImageCache(configuration: settings)
        #expect(try reader.bitmap(forKey: "image") == first)
        try writer.store(second, forKey: "image")
        try writer.synchronize()
        Self.pause()
        #expect(try reader.bitmap(forKey: "image") == second)
        try writer.close()
        try reader.close()
    }
}
