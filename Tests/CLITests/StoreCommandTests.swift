import Foundation
import LogStoreKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `store-torture` stores under `k<number>` (the same derivation as the child).
private func tortureValue(_ number: Int) -> [UInt8] {
    var state = UInt64(number) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    let length = 64 + Int(state % 2048)
    var value = [UInt8](repeating: 0, count: length)
    for position in 0..<length {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        value[position] = UInt8(truncatingIfNeeded: state)
    }
    return value
}

@Suite struct StoreCommandTests {
    @Test func putGetListStatVerifyCompactRemove() throws {
        let scratch = Scratch()
        let store = scratch.path + "/s.log"
        let value: [UInt8] = Array("hello\u{0}world".utf8)
        #expect(try imagecache(["put", "--store", store, "a key", "-"], input: value).status == 0)
        let file = scratch.path + "/in.bin"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
        #expect(try imagecache(["put", "--store", store, "b", file]).status == 0)
        #expect(try imagecache(["get", "--store", store, "a key"]).output == value)
        let out = scratch.path + "/out.bin"
        #expect(try imagecache(["get", "--store", store, "b", out]).status == 0)
        #expect(FileManager.default.contents(atPath: out) == Data([1, 2, 3]))
        let missing = try imagecache(["get", "--store", store, "nope"])
        #expect(missing.status == 1)
        #expect(missing.error.split(separator: "\n").count == 1)
        let listing = String(decoding: try imagecache(["ls", "--store", store]).output, as: UTF8.self)
        #expect(listing.hasPrefix("a key\t11\t"))
        #expect(listing.contains("\nb\t3\t"))
        let statistics = String(decoding: try imagecache(["stat", "--store", store]).output, as: UTF8.self)
        #expect(statistics.contains("entries: 2"))
        #expect(statistics.contains("index bytes: "))
        #expect(try imagecache(["verify", "--store", store]).status == 0)
        #expect(try imagecache(["rm", "--store", store, "a key"]).status == 0)
        #expect(try imagecache(["compact", "--store", store]).status == 0)
        #expect(try imagecache(["get", "--store", store, "a key"]).status == 1)
    }

    @Test func verifyNamesTheOffsetOfTheFirstBadRecord() throws {
        let scratch = Scratch()
        let store = scratch.path + "/s.log"
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
        let secondOffset = 32 + 48 + 5 + 100
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64(secondOffset + 48 + 6 + 50))
        handle.write(Data([0xFF]))
        try handle.close()
        let outcome = try imagecache(["verify", "--store", store])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("offset \(secondOffset)"))
    }

    @Test func secondWriterProcessIsRefusedButMayRead() throws {
        let scratch = Scratch()
        let path = scratch.path + "/s.log"
        let store = try LogStore(path: path)
        try store.put([42], forKey: "k", metadata: EntryMetadata(createdAt: 0))
        try store.synchronize()
        let writer = try imagecache(["put", "--store", path, "other", "-"], input: [1])
        #expect(writer.status == 1)
        #expect(writer.error.contains("open for writing in another process"))
        #expect(try imagecache(["get", "--store", path, "k"]).output == [42])
        try store.close()
        #expect(try imagecache(["put", "--store", path, "other", "-"], input: [1]).status == 0)
    }

    /// A child writes and synchronizes continuously and is killed with SIGKILL at a random
    /// moment, 100 times (fixed seed). Every key it reported synchronized must read back intact.
    @Test func everySynchronizedEntrySurvivesSIGKILL() throws {
        let scratch = Scratch()
        let path = scratch.path + "/torture.log"
        var random: UInt64 = 0x5EED_1234
        func nextRandom() -> UInt64 {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return random
        }
        var durable = -1  // every key up to this number was reported synchronized
        for round in 0..<100 {
            let process = Process()
            process.executableURL = try imagecacheBinary()
            process.arguments = ["store-torture", "write", path, String(durable + 1), String(nextRandom())]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let wanted = 1 + Int(nextRandom() % 12)
            var text = ""
            var seen = 0
            while seen < wanted {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                seen = text.split(separator: "\n").count
            }
            usleep(UInt32(nextRandom() % 4000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // Only whole lines count: the last one may have been cut by the kill.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for line in lines where line.hasPrefix("synced ") {
                durable = max(durable, Int(line.dropFirst(7)) ?? durable)
            }
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the child exited early")
            let reader = try LogStore(
                path: path, options: .init(readOnly: true, usesSnapshot: round % 2 == 0))
            // The newest keys every round, all of them every tenth round.
            let checkFrom = round % 10 == 9 ? 0 : max(0, durable - 300)
            if durable >= checkFrom {
                for number in checkFrom...durable
                where try reader.value(forKey: "k\(number)") != tortureValue(number) {
                    Issue.record("round \(round): k\(number) was synchronized but is lost or wrong")
                    return
                }
            }
        }
        #expect(durable > 100)
        let final = try LogStore(path: path)
        #expect(try final.verify().isValid)
    }

    /// RLIMIT_FSIZE makes writes fail with EFBIG without filling the disk: the error reaches the
    /// caller, earlier entries stay readable, and the file holds only whole records.
    @Test func fileSizeLimitReachesTheCallerAndLeavesTheStoreConsistent() throws {
        let scratch = Scratch()
        let path = scratch.path + "/limited.log"
        let limit = 200_000
        let outcome = try imagecache(["store-torture", "file-limit", path, String(limit)])
        let lines = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n")
        #expect(outcome.status == 0)
        #expect(lines.contains("error fileSizeLimitExceeded"))
        #expect(lines.last == "readable")
        let synced = lines.filter { $0.hasPrefix("synced ") }.count
        #expect(synced > 10)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.size] as? Int ?? .max) <= limit)
        #expect(try LogStore.verify(path: path).isValid)
        let store = try LogStore(path: path)
        #expect(store.recovery.tailOffset == nil)
        for number in 0..<synced {
            #expect(try store.value(forKey: "k\(number)") == tortureValue(number))
        }
    }
}
