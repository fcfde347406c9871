import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

/// `Backend.detect(inDirectory:)` (`Spec/backends.md` §7) and `ImageCache.entries()`
/// (`Spec/cache.md` §4.4).
@Suite struct BackendDetectionTests {
    @Test(arguments: Backend.allCases)
    func aCacheFolderIsDetectedAsItsBackend(backend: Backend) throws {
        let folder = TemporaryDirectory()
        #expect(try Backend.detect(inDirectory: folder.url) == [])
        let cache = try ImageCache(configuration: CacheConfiguration(directory: folder.url, backend: backend))
        try cache.store([1, 2, 3], forKey: "k")
        try cache.close()
        #expect(try Backend.detect(inDirectory: folder.url) == [backend])
    }

    @Test func eachMarkerNameCountsAndSeveralBackendsAreAllReported() throws {
        let folder = TemporaryDirectory()
        #expect(try Backend.detect(inDirectory: folder.url.appendingPathComponent("missing")) == [])
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("entries"), withIntermediateDirectories: false)
        #expect(try Backend.detect(inDirectory: folder.url) == [.directory])
        for name in ["hybrid.log", "cache.dictionary"] {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.url.appendingPathComponent(name).path, contents: nil))
        }
        #expect(try Backend.detect(inDirectory: folder.url) == [.dictionary, .directory, .hybrid])
        // Other names mean nothing.
        let other = TemporaryDirectory()
        #expect(
            FileManager.default.createFile(
                atPath: other.url.appendingPathComponent("store.log").path, contents: nil))
        #expect(try Backend.detect(inDirectory: other.url) == [])
    }

    @Test func aRegularFileIsNotAFolder() throws {
        let folder = TemporaryDirectory()
        let file = folder.url.appendingPathComponent("file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data([1])))
        #expect(
            throws: CacheError.ioFailure(
                operation: "look up", path: file.path + "/cache.dictionary", errno: ENOTDIR)
        ) {
            try Backend.detect(inDirectory: file)
        }
    }

    @Test(arguments: Backend.allCases)
    func entriesListsTheLiveEntriesWithTheirSizesInKeyOrder(backend: Backend) throws {
        let folder = TemporaryDirectory()
        let clock = ManualClock(milliseconds: 100)
        let cache = try ImageCache(
            configuration: CacheConfiguration(
                directory: folder.url, backend: backend, timeToLive: .milliseconds(1000), clock: clock))
        defer { try? cache.close() }
        try cache.store([1, 2, 3], forKey: "b")
        try cache.store([], forKey: "a")
        try cache.store([9], forKey: "caf\u{E9}")
        try cache.store([8, 8], forKey: "cafe\u{301}")
        clock.advance(by: 500)
        _ = try cache.data(forKey: "b")  // a hit at 600: b now expires at 1600
        clock.set(milliseconds: 1100)
        #expect(
            cache.entries() == [
                CacheEntry(
                    key: "b", byteCount: 3,
                    metadata: CacheEntryMetadata(createdAt: 100, expiresAt: 1600, accessSequence: 5))
            ])
        clock.set(milliseconds: 1099)
        #expect(
            cache.entries().map(\.key).map { Array($0.utf8) } == [
                Array("a".utf8), Array("b".utf8), Array("cafe\u{301}".utf8), Array("caf\u{E9}".utf8),
            ])
        #expect(cache.entries().map(\.byteCount) == [0, 3, 2, 1])
        // Inspecting is not a hit: the sequence numbers are unchanged.
        #expect(cache.entries().map(\.metadata.accessSequence) == [2, 5, 4, 3])
        try cache.close()
        #expect(cache.entries() == [])
    }
}
