import Foundation
import Platform
import TestSupport
import Testing

@testable import ImageCacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `st_blocks` × 512 of `path` itself, without following a link.
func allocation(of path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return Int(info.st_blocks) * 512
}

/// The folder and everything under it, added up the plain way, for comparison.
func allocationOfTree(_ url: URL) -> Int {
    var total = allocation(of: url.path)
    let walker = FileManager.default.enumerator(atPath: url.path)
    while let relative = walker?.nextObject() as? String {
        total += allocation(of: url.path + "/" + relative)
    }
    return total
}

/// `CacheStatistics.diskBytes`: what the cache folder takes on disk, beside the value bytes.
@Suite struct DiskUsageTests {
    @Test(arguments: Backend.allCases)
    func diskBytesIsTheAllocationOfEveryFileOfTheFolder(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        for index in 0..<20 {
            try cache.store(bytes(seed: UInt64(index), count: 1_000 * index), forKey: "k\(index)")
        }
        try cache.synchronize()
        let statistics = cache.statistics
        #expect(statistics.bytes == (0..<20).reduce(0) { $0 + 1_000 * $1 })
        #expect(statistics.diskBytes == allocationOfTree(directory.cacheURL))
        #expect(statistics.diskBytes >= statistics.bytes)
        try cache.close()
        #expect(cache.statistics.diskBytes == 0, "a closed cache reports an empty one")
    }

    @Test func deadRecordsCountOnDiskUntilCompaction() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(configuration: configuration(.log, directory, clock: ManualClock()))
        let value = bytes(seed: 1, count: 64 * 1024)
        try cache.store(value, forKey: "k")
        try cache.synchronize()
        let once = cache.statistics
        for _ in 0..<15 { try cache.store(value, forKey: "k") }
        try cache.synchronize()
        let rewritten = cache.statistics
        #expect(rewritten.bytes == once.bytes)
        #expect(rewritten.diskBytes >= once.diskBytes + 15 * value.count)
        try cache.compact()
        try cache.synchronize()
        #expect(cache.statistics.diskBytes < rewritten.diskBytes)
        #expect(cache.statistics.bytes == value.count)
    }

    @Test func aReadOnlyCacheOfAMissingFolderTakesNoSpace() throws {
        let directory = TemporaryDirectory()
        let cache = try ImageCache(
            configuration: CacheConfiguration(directory: directory.cacheURL, readOnly: true))
        #expect(cache.statistics.diskBytes == 0)
        #expect(FileManager.default.fileExists(atPath: directory.cacheURL.path) == false)
    }

    @Test func aReadOnlyCacheMeasuresTheWritersFolder() throws {
        let directory = TemporaryDirectory()
        let writer = try ImageCache(configuration: configuration(.directory, directory, clock: ManualClock()))
        try writer.store(bytes(seed: 2, count: 10_000), forKey: "k")
        try writer.synchronize()
        let reader = try ImageCache(
            configuration: CacheConfiguration(
                directory: directory.cacheURL, backend: .directory, readOnly: true))
        #expect(reader.statistics.diskBytes == writer.statistics.diskBytes)
        #expect(reader.statistics.diskBytes == allocationOfTree(directory.cacheURL))
    }
}

/// `FileSystem.allocatedBytes(under:)`, which `diskBytes` is made of.
@Suite struct AllocatedBytesTests {
    func write(_ count: Int, to path: String) throws {
        try Data(bytes(seed: UInt64(count), count: count)).write(to: URL(fileURLWithPath: path))
    }

    @Test func aFileAndAFolderAreTheirBlocks() throws {
        let directory = TemporaryDirectory()
        let root = directory.url.path
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try write(10_000, to: root + "/one")
        try write(100_000, to: root + "/a/b/two")
        #expect(try FileSystem.allocatedBytes(under: root + "/one") == UInt64(allocation(of: root + "/one")))
        #expect(try FileSystem.allocatedBytes(under: root + "/one") >= 10_000)
        let expected =
            [root, root + "/a", root + "/a/b", root + "/one", root + "/a/b/two"].map(allocation(of:)).reduce(
                0, +)
        #expect(try FileSystem.allocatedBytes(under: root) == UInt64(expected))
    }

    @Test func nothingThereIsZero() throws {
        let directory = TemporaryDirectory()
        #expect(try FileSystem.allocatedBytes(under: directory.url.path + "/missing") == 0)
        #expect(try FileSystem.allocatedBytes(under: directory.url.path + "/missing/deeper") == 0)
    }

    @Test func linksInsideAreNotFollowedAndASecondNameCountsOnce() throws {
        let directory = TemporaryDirectory()
        let root = directory.url.path
        let outside = root + "/outside"
        let inside = root + "/inside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        try write(200_000, to: outside + "/big")
        try write(50_000, to: inside + "/file")
        let alone = try FileSystem.allocatedBytes(under: inside)
        try FileManager.default.createSymbolicLink(
            atPath: inside + "/link-to-file", withDestinationPath: outside + "/big")
        try FileManager.default.createSymbolicLink(
            atPath: inside + "/link-to-folder", withDestinationPath: outside)
        #expect(link(inside + "/file", inside + "/second-name") == 0)
        let withLinks = try FileSystem.allocatedBytes(under: inside)
        // Only the links' own blocks (none, or one for a long target) and the folder's growth.
        #expect(withLinks < alone + 200_000)
        #expect(
            withLinks
                == UInt64(
                    [inside, inside + "/file", inside + "/link-to-file", inside + "/link-to-folder"]
                        .map(allocation(of:)).reduce(0, +)))
    }

    @Test func aFolderReachedThroughALinkIsMeasured() throws {
        let directory = TemporaryDirectory()
        let root = directory.url.path
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try write(30_000, to: root + "/real/file")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/chosen", withDestinationPath: root + "/real")
        #expect(
            try FileSystem.allocatedBytes(under: root + "/chosen")
                == FileSystem.allocatedBytes(under: root + "/real"))
    }

    @Test func aSparseFileCountsOnlyItsBlocks() throws {
        let directory = TemporaryDirectory()
        let path = directory.url.path + "/sparse"
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 64 << 20) == 0)
        close(fd)
        #expect(try FileSystem.allocatedBytes(under: path) == UInt64(allocation(of: path)))
        #expect(try FileSystem.allocatedBytes(under: path) < 64 << 20)
    }

    // Root reads every folder, so only another user sees the failure.
    @Test(.enabled(if: getuid() != 0)) func anUnreadableFolderThrowsWithItsPath() throws {
        let directory = TemporaryDirectory()
        let locked = directory.url.path + "/locked"
        try FileManager.default.createDirectory(atPath: locked + "/inner", withIntermediateDirectories: true)
        #expect(chmod(locked, 0) == 0)
        defer { chmod(locked, 0o755) }
        #expect(throws: SystemCallError(operation: "open", path: locked, errno: .permissionDenied)) {
            try FileSystem.allocatedBytes(under: directory.url.path)
        }
    }
}
