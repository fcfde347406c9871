import Foundation
import Testing

/// The `imagecache` binary built next to the test bundle.
private func imagecacheBinary() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("imagecache")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    let fallback = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("imagecache")
    try #require(
        FileManager.default.isExecutableFile(atPath: fallback.path), "build the imagecache product first")
    return fallback
}

private final class CacheScratch {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.path + "/cachecli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

private struct CommandOutcome {
    var status: Int32
    var output: [UInt8]
    var error: String

    var text: String { String(decoding: output, as: UTF8.self) }
}

private func imagecache(_ arguments: [String], input: [UInt8] = []) throws -> CommandOutcome {
    let process = Process()
    process.executableURL = try imagecacheBinary()
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input))
    try standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandOutcome(
        status: process.terminationStatus, output: [UInt8](outputData),
        error: String(decoding: errorData, as: UTF8.self))
}

/// `put`, `get`, `rm`, `ls`, `stat`, `compact`, `purge` and `clear` on a cache (`--backend`).
@Suite struct CacheCommandTests {
    static let backends = ["dictionary", "directory", "log", "hybrid"]

    @Test(arguments: backends)
    func putGetListRemoveOnEveryBackend(backend: String) throws {
        let scratch = CacheScratch()
        let cache = ["--backend", backend, "--store", scratch.path + "/cache"]
        let value = Array("hello\u{0}cache".utf8)
        #expect(try imagecache(["put"] + cache + ["a key", "-"], input: value).status == 0)
        #expect(try imagecache(["put"] + cache + ["../../b", "-"], input: [1, 2, 3]).status == 0)
        let got = try imagecache(["get"] + cache + ["a key"])
        #expect(got.status == 0)
        #expect(got.output == value)
        let listing = try imagecache(["ls"] + cache).text
        #expect(listing.hasPrefix("../../b\tcreated "))
        #expect(listing.contains("\na key\tcreated "))
        #expect(try imagecache(["stat"] + cache).text == "backend: \(backend)\nentries: 2\nbytes: 14\n")
        #expect(try imagecache(["rm"] + cache + ["a key"]).status == 0)
        let miss = try imagecache(["get"] + cache + ["a key"])
        #expect(miss.status == 1)
        #expect(miss.error.split(separator: "\n").count == 1)
        #expect(try imagecache(["compact"] + cache).text == "compacted: 1 entries\n")
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/b") == false)
    }

    @Test(arguments: backends)
    func getOfAnExpiredKeyIsAMiss(backend: String) throws {
        let scratch = CacheScratch()
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

    @Test func purgeCountsAndClearEmpties() throws {
        let scratch = CacheScratch()
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
        #expect(try imagecache(["clear"] + cache).status == 0)
        #expect(try imagecache(["ls"] + cache).text == "")
    }

    @Test func maximumBytesEvictsTheLeastRecentlyUsed() throws {
        let scratch = CacheScratch()
        let cache = ["--backend", "directory", "--store", scratch.path + "/cache", "--max-bytes", "100"]
        for (index, key) in ["a", "b", "c"].enumerated() {
            let now = ["--now", String(index)]
            #expect(
                try imagecache(["put"] + cache + now + [key, "-"], input: [UInt8](repeating: 1, count: 40))
                    .status == 0)
        }
        let keys = try imagecache(["ls"] + cache).text.split(separator: "\n").map {
            $0.prefix(while: { $0 != "\t" })
        }
        #expect(keys == ["b", "c"])
        let tooLarge = try imagecache(["put"] + cache + ["d", "-"], input: [UInt8](repeating: 1, count: 101))
        #expect(tooLarge.status == 1)
        #expect(tooLarge.error.contains("maximumBytes of 100"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let scratch = CacheScratch()
        #expect(try imagecache(["get", "--backend", "sqlite", "--store", scratch.path, "k"]).status == 2)
        #expect(
            try imagecache(["put", "--backend", "log", "--ttl", "0", "--store", scratch.path, "k", "-"])
                .status == 2)
        #expect(try imagecache(["purge", "--store", scratch.path, "extra"]).status == 2)
    }
}
