import Foundation
import TestSupport
import Testing

/// `put`, `get`, `rm`, `ls`, `stat`, `verify`, `compact`, `purge` and `clear` on a cache folder
/// of every backend (`Spec/cache.md` §12).
@Suite struct CacheCommandTests {
    static let backends = ["dictionary", "directory", "log", "hybrid"]

    @Test(arguments: backends)
    func putGetListRemoveOnEveryBackend(backend: String) throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", backend, "--store", scratch.path + "/cache"]
        let value = Array("hello\u{0}cache".utf8)
        #expect(try imagecache(["put"] + cache + ["a key", "-"], input: value).status == 0)
        #expect(try imagecache(["put"] + cache + ["../../b", "-"], input: [1, 2, 3]).status == 0)
        let got = try imagecache(["get"] + cache + ["a key"])
        #expect(got.status == 0)
        #expect(got.output == value)
        let listing = try imagecache(["ls"] + cache).text
        #expect(listing.hasPrefix("../../b\t3 B\t"))
        #expect(listing.contains("\na key\t11 B\t"))
        let statistics = try imagecache(["stat"] + cache).text
        #expect(
            statistics.hasPrefix(
                "store: \(scratch.path)/cache\nkind: cache folder\nbackend: \(backend)\nentries: 2\nbytes: 14 (14 B)\n"
            ))
        // Once made, the folder's backend is detected: --backend may be left out.
        #expect(try imagecache(["ls", "--store", scratch.path + "/cache"]).text == listing)
        #expect(try imagecache(["rm"] + cache + ["a key"]).status == 0)
        let miss = try imagecache(["get"] + cache + ["a key"])
        #expect(miss.status == 1)
        #expect(miss.errorLines.count == 1)
        #expect(try imagecache(["rm"] + cache + ["a key"]).status == 1)
        #expect(try imagecache(["compact"] + cache).text == "compacted: kept 1 entries, dropped 0 expired\n")
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/b") == false)
    }

    @Test(arguments: backends)
    func getOfAnExpiredKeyIsAMiss(backend: String) throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", backend, "--store", scratch.path + "/cache"]
        #expect(
            try imagecache(["put"] + cache + ["--ttl", "10", "--now", "1000", "k", "-"], input: [7]).status
                == 0)
        // Within the time-to-live: a hit, which slides the expiry to 5,000 + 10,000 ms.
        #expect(try imagecache(["get"] + cache + ["--ttl", "10", "--now", "5000", "k"]).output == [7])
        #expect(try imagecache(["get"] + cache + ["--ttl", "10", "--now", "14999", "k"]).output == [7])
        let expired = try imagecache(["get"] + cache + ["--now", "24999", "k"])
        #expect(expired.status == 1)
        #expect(expired.error.contains("no entry for key 'k'"))
    }

    @Test func verifyNamesTheDamagedEntryAndExitsThree() throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", "directory", "--store", scratch.path + "/cache"]
        let damaged = Array("the value that a failing disk will damage".utf8)
        #expect(try imagecache(["put"] + cache + ["bad", "-"], input: damaged).status == 0)
        #expect(try imagecache(["put"] + cache + ["good", "-"], input: [1, 2, 3]).status == 0)
        #expect(try imagecache(["verify"] + cache).text == "ok: 2 entries, \(damaged.count + 3) bytes\n")
        // Flip one bit of the damaged value inside whichever entry file holds it.
        let entries = scratch.path + "/cache/entries"
        for name in try FileManager.default.contentsOfDirectory(atPath: entries) {
            let url = URL(fileURLWithPath: entries + "/" + name)
            var bytes = [UInt8](try Data(contentsOf: url))
            guard let start = bytes.firstRange(of: damaged)?.lowerBound else { continue }
            bytes[start + 5] ^= 0x10
            try Data(bytes).write(to: url)
        }
        let outcome = try imagecache(["verify"] + cache)
        #expect(outcome.status == 3)
        #expect(outcome.text.hasPrefix("damaged: bad: "))
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.error.contains("1 of 2 entries are damaged, first 'bad'"))
    }

    @Test func purgeCountsAndClearEmpties() throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", "hybrid", "--store", scratch.path + "/cache"]
        for key in ["a", "b"] {
            #expect(
                try imagecache(["put"] + cache + ["--ttl", "1", "--now", "0", key, "-"], input: [1]).status
                    == 0)
        }
        #expect(try imagecache(["put"] + cache + ["--now", "0", "keep", "-"], input: [2]).status == 0)
        #expect(try imagecache(["purge"] + cache + ["--now", "500"]).text == "purged 0 expired entries\n")
        #expect(try imagecache(["purge"] + cache + ["--now", "1000"]).text == "purged 2 expired entries\n")
        #expect(try imagecache(["ls"] + cache).text.hasPrefix("keep\t"))
        #expect(try imagecache(["clear"] + cache).text == "cleared 1 entries\n")
        #expect(try imagecache(["ls"] + cache).text == "")
    }

    @Test func maximumBytesEvictsTheLeastRecentlyUsed() throws {
        let scratch = TemporaryDirectory()
        let cache = ["--backend", "directory", "--store", scratch.path + "/cache", "--max-bytes", "100"]
        for (index, key) in ["a", "b", "c"].enumerated() {
            let now = ["--now", String(index)]
            #expect(
                try imagecache(["put"] + cache + now + [key, "-"], input: [UInt8](repeating: 1, count: 40))
                    .status == 0)
        }
        // ls takes no limits (they only act on a store); --max-bytes there is a usage error.
        #expect(try imagecache(["ls"] + cache).status == 2)
        let keys = try imagecache(["ls"] + cache.dropLast(2)).text.split(separator: "\n").map {
            $0.prefix(while: { $0 != "\t" })
        }
        #expect(keys == ["b", "c"])
        let tooLarge = try imagecache(["put"] + cache + ["d", "-"], input: [UInt8](repeating: 1, count: 101))
        #expect(tooLarge.status == 4)
        #expect(tooLarge.error.contains("maximumBytes of 100"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let scratch = TemporaryDirectory()
        #expect(try imagecache(["get", "--backend", "sqlite", "--store", scratch.path, "k"]).status == 2)
        #expect(
            try imagecache(["put", "--backend", "log", "--ttl", "0", "--store", scratch.path, "k", "-"])
                .status == 2)
        #expect(try imagecache(["purge", "--store", scratch.path, "extra"]).status == 2)
    }

    @Test func theBackendOfAFolderIsDetectedAndAMismatchIsAUsageError() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        #expect(
            try imagecache(["put", "--store", folder, "--backend", "directory", "k", "-"], input: [1]).status
                == 0)
        #expect(try imagecache(["stat", "--store", folder]).text.contains("\nbackend: directory\n"))
        let mismatch = try imagecache(["get", "--store", folder, "--backend", "hybrid", "k"])
        #expect(mismatch.status == 2)
        #expect(
            mismatch.errorLines == [
                "imagecache get: --backend hybrid does not match \(folder), which holds a directory cache; "
                    + "leave out --backend or name another folder"
            ])
        // Two caches in one folder: the user has to choose.
        #expect(
            try imagecache(["put", "--store", scratch.path + "/other", "--backend", "log", "k", "-"]).status
                == 0)
        try FileManager.default.copyItem(
            atPath: scratch.path + "/other/cache.log", toPath: folder + "/cache.log")
        let ambiguous = try imagecache(["ls", "--store", folder])
        #expect(ambiguous.status == 2)
        #expect(
            ambiguous.error.contains(
                "holds the caches of several backends (directory and log); choose one with --backend"))
        #expect(
            try imagecache(["ls", "--store", folder, "--backend", "directory"]).text.hasPrefix("k\t1 B\t"))
    }
}
