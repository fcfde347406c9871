import Foundation
import TestSupport
import Testing

/// `put --user-metadata TEXT` and `get --user-metadata` (`Spec/cache.md` §12.4, §12.5, §13) on
/// every backend and on a log store file.
@Suite struct UserMetadataCommandTests {
    @Test(arguments: CacheCommandTests.backends)
    func putStoresItAndGetShowsItWithoutAHit(backend: String) throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", backend, "--store", scratch.path + "/cache"]
        let put = try imagecache(
            ["put"] + cache + ["--ttl", "10", "--now", "0", "--user-metadata", "\"v1\"", "k", "-"],
            input: [1, 2])
        #expect(put.status == 0)
        #expect(try imagecache(["put"] + cache + ["--now", "0", "plain", "-"], input: [3]).status == 0)
        let shown = try imagecache(
            ["get"] + cache + ["--ttl", "10", "--now", "9000", "--user-metadata", "k"])
        #expect(shown.status == 0)
        #expect(shown.output == Array("\"v1\"".utf8))
        // Not a hit: the entry still expires at 10 s.
        #expect(try imagecache(["get"] + cache + ["--now", "10000", "--user-metadata", "k"]).status == 1)
        #expect(try imagecache(["get"] + cache + ["--user-metadata", "plain"]).output == [])
        #expect(try imagecache(["get"] + cache + ["--user-metadata", "absent"]).status == 1)
        #expect(try imagecache(["get"] + cache + ["plain"]).output == [3])
    }

    @Test func worksOnALogStoreFileAndRefusesMoreThan4KiB() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.path + "/store.log"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let store = ["--store", path]
        #expect(
            try imagecache(["put"] + store + ["--user-metadata", "etag", "k", "-"], input: [9]).status == 0)
        #expect(try imagecache(["get"] + store + ["--user-metadata", "k"]).output == Array("etag".utf8))
        #expect(try imagecache(["get"] + store + ["k"]).output == [9])
        let tooLong = String(repeating: "x", count: 4097)
        let refused = try imagecache(["put"] + store + ["--user-metadata", tooLong, "k", "-"], input: [1])
        #expect(refused.status == 4)
        #expect(try imagecache(["get"] + store + ["k"]).output == [9])
    }
}
