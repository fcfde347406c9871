import Foundation
import LogStoreKit
import TestSupport
import Testing

/// The store commands on a bare log store file (`Spec/store.md` §10): `--store` names a
/// regular file; an empty file is an empty store.
@Suite struct StoreCommandTests {
    /// A new, empty log store file (a regular file of length 0, `Spec/store.md` §2.1 rule 5).
    static func emptyStore(in scratch: TemporaryDirectory) -> String {
        let path = scratch.path + "/s.log"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        return path
    }

    @Test func putGetListStatVerifyCompactRemove() throws {
        let scratch = TemporaryDirectory()
        let store = Self.emptyStore(in: scratch)
        let value: [UInt8] = Array("hello\u{0}world".utf8)
        let now = ["--now", "1000"]
        #expect(try imagecache(["put", "--store", store, "a key", "-"] + now, input: value).status == 0)
        let file = scratch.path + "/in.bin"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        #expect(
            try imagecache(["put", "--store", store, "b", file, "--now", "2000", "--ttl", "1s"]).status == 0)
        #expect(try imagecache(["get", "--store", store, "a key"]).output == value)
        let out = scratch.path + "/out.bin"
        #expect(try imagecache(["get", "--store", store, "b", out, "--now", "2999"]).status == 0)
        #expect(FileManager.default.contents(atPath: out) == Data([1, 2, 3]))
        let missing = try imagecache(["get", "--store", store, "nope"])
        #expect(missing.status == 1)
        #expect(missing.errorLines == ["imagecache get: no entry for key 'nope' (absent or expired)"])
        let listing = try imagecache(["ls", "--store", store, "--now", "2500"]).text
        #expect(
            listing == "a key\t11 B\t1970-01-01T00:00:01.000Z\tnever\t1\n"
                + "b\t3 B\t1970-01-01T00:00:02.000Z\t1970-01-01T00:00:03.000Z\t2\n")
        // At 3000 "b" has expired: it is neither listed nor counted as live.
        #expect(try imagecache(["ls", "--store", store, "--now", "3000"]).text.hasPrefix("a key\t") == true)
        let statistics = try imagecache(["stat", "--store", store, "--now", "3000"]).text
        #expect(statistics.hasPrefix("store: \(store)\nkind: log store file\nentries: 1\nbytes: 11 (11 B)\n"))
        #expect(statistics.contains("\nexpired entries: 1\n"))
        #expect(statistics.contains("\nindex bytes: "))
        #expect(try imagecache(["verify", "--store", store]).text.hasPrefix("ok: 2 entries, 14 bytes ("))
        #expect(try imagecache(["rm", "--store", store, "a key"]).status == 0)
        let compacted = try imagecache(["compact", "--store", store, "--now", "3000"])
        #expect(compacted.text.hasPrefix("compacted: kept 0 entries, dropped 1 expired\nfile: "))
        #expect(try imagecache(["get", "--store", store, "a key"]).status == 1)
    }

    @Test func purgeAndClearWorkOnALogStoreFile() throws {
        let scratch = TemporaryDirectory()
        let store = Self.emptyStore(in: scratch)
        for (key, ttl) in [("short", "1s"), ("long", "1h")] {
            #expect(
                try imagecache(["put", "--store", store, "--now", "0", "--ttl", ttl, key, "-"]).status == 0)
        }
        #expect(try imagecache(["put", "--store", store, "--now", "0", "forever", "-"]).status == 0)
        #expect(
            try imagecache(["purge", "--store", store, "--now", "999"]).text == "purged 0 expired entries\n")
        #expect(
            try imagecache(["purge", "--store", store, "--now", "1000"]).text == "purged 1 expired entries\n")
        #expect(try imagecache(["clear", "--store", store]).text == "cleared 2 entries\n")
        #expect(try imagecache(["ls", "--store", store, "--now", "0"]).text == "")
    }

    @Test func cacheOnlyOptionsAreUsageErrorsOnALogStoreFile() throws {
        let scratch = TemporaryDirectory()
        let store = Self.emptyStore(in: scratch)
        let cases: [([String], String)] = [
            (
                ["put", "--store", store, "--max-bytes", "1K", "k", "-"],
                "--max-bytes applies to a cache folder"
            ),
            (
                ["put", "--store", store, "--max-entries", "3", "k", "-"],
                "--max-entries applies to a cache folder"
            ),
            (["get", "--store", store, "--ttl", "1h", "k"], "--ttl applies to a cache folder"),
            (["ls", "--store", store, "--backend", "log"], "--backend log applies to a cache folder"),
        ]
        for (arguments, message) in cases {
            let outcome = try imagecache(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.errorLines.count == 1 && outcome.error.contains(message), "\(outcome.error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)).isEmpty)
    }

    @Test func verifyNamesTheOffsetOfTheFirstBadRecordAndExitsThree() throws {
        let scratch = TemporaryDirectory()
        let store = Self.emptyStore(in: scratch)
        #expect(
            try imagecache(["put", "--store", store, "first", "-"], input: [UInt8](repeating: 7, count: 100))
                .status
                == 0)
        #expect(
            try imagecache(
                ["put", "--store", store, "second", "-"], input: [UInt8](repeating: 8, count: 100)
            ).status
                == 0)
        // The second record starts after the 32-byte file header and the first record.
        let secondOffset = 32 + 56 + 5 + 100
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64(secondOffset + 56 + 6 + 50))
        handle.write(Data([0xFF]))
        try handle.close()
        let outcome = try imagecache(["verify", "--store", store])
        #expect(outcome.status == 3)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.error.contains("damaged at offset \(secondOffset) after 1 intact records"))
        #expect(outcome.error.contains("1 of 2 entries are damaged, first 'second'"))
        let lines = outcome.text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("damaged: record at offset \(secondOffset): ") == true)
        #expect(
            lines.last?.hasPrefix("damaged: second: the record at offset \(secondOffset) is damaged") == true)
        // get tells damage (3) from absence (1).
        #expect(try imagecache(["get", "--store", store, "second"]).status == 3)
        #expect(
            try imagecache(["get", "--store", store, "first"]).output == [UInt8](repeating: 7, count: 100))
    }

    @Test func secondWriterProcessIsRefusedButMayRead() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.path + "/s.log"
        let store = try LogStore(path: path)
        try store.put([42], forKey: "k", metadata: EntryMetadata(createdAt: 0))
        try store.synchronize()
        let writer = try imagecache(["put", "--store", path, "other", "-"], input: [1])
        #expect(writer.status == 4)
        #expect(writer.error.contains("open for writing by another process"))
        // Every reading command works beside the writer.
        #expect(try imagecache(["get", "--store", path, "k"]).output == [42])
        #expect(try imagecache(["ls", "--store", path, "--now", "0"]).text.hasPrefix("k\t1 B\t"))
        #expect(try imagecache(["stat", "--store", path]).status == 0)
        #expect(try imagecache(["verify", "--store", path]).status == 0)
        try store.close()
        #expect(try imagecache(["put", "--store", path, "other", "-"], input: [1]).status == 0)
    }
}
