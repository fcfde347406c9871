import Foundation
import LogStoreKit
import TestSupport
import Testing
import TortureWorkload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare log store's writes survive the death of its process (`Spec/store.md` §5): a child,
/// `store-torture-child`, writes, and the test kills it or lets a file-size limit stop it.
@Suite struct StoreCrashTests {
    /// A child writes and synchronizes continuously and is killed with SIGKILL at a random
    /// moment, 100 times (fixed seed). Every key it reported synchronized must read back intact.
    @Test func everySynchronizedEntrySurvivesSIGKILL() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.url.path + "/torture.log"
        var random: UInt64 = 0x5EED_1234
        func nextRandom() -> UInt64 {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            return random
        }
        var durable = -1  // every key up to this number was reported synchronized
        for round in 0..<100 {
            let child = try Child(
                ["write", path, String(durable + 1), String(nextRandom())], binary: "store-torture-child")
            child.waitForLines(1 + Int(nextRandom() % 12))
            usleep(UInt32(nextRandom() % 4000))
            // Only whole lines count: the last one may have been cut by the kill.
            child.kill()
            for line in child.lines where line.hasPrefix("synced ") {
                durable = max(durable, Int(line.dropFirst(7)) ?? durable)
            }
            #expect(
                child.process.terminationReason == .uncaughtSignal, "round \(round): the child exited early")
            let reader = try LogStore(
                path: path, options: .init(readOnly: true, usesSnapshot: round % 2 == 0))
            // The newest keys every round, all of them every tenth round.
            let checkFrom = round % 10 == 9 ? 0 : max(0, durable - 300)
            if durable >= checkFrom {
                for number in checkFrom...durable
                where try reader.value(forKey: "k\(number)") != StoreTortureWorkload.value(for: number) {
                    Issue.record("round \(round): k\(number) was synchronized but is lost or wrong")
                    return
                }
            }
        }
        #expect(durable > 100)
        let final = try LogStore(path: path)
        #expect(try final.verify().isValid)
    }

    /// A read-only handle follows a writer in another process that never stops appending,
    /// rewriting, touching and compacting (`Spec/store.md` §12.5), for 3 seconds: every read
    /// returns the key's value or, for a key the reader has not taken up yet, nothing, and never
    /// fails. Once the writer is killed, every key it reported synchronized reads back.
    @Test func aReaderFollowingALiveWriterNeverReadsWrongBytes() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.url.path + "/followed.log"
        let child = try Child(["write", path, "0", "77"], binary: "store-torture-child")
        child.waitForLines(1)
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        var random: UInt64 = 0xF011_0E5
        var reads = 0
        var hits = 0
        var durable = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            child.waitForLines(child.lines.count + 1)
            if let last = child.lines.last, last.hasPrefix("synced ") {
                durable = Int(last.dropFirst(7)) ?? durable
            }
            for _ in 0..<50 {
                random ^= random << 13
                random ^= random >> 7
                random ^= random << 17
                let number = Int(random % UInt64(durable + 1))
                reads += 1
                guard let value = try reader.value(forKey: "k\(number)") else { continue }
                hits += 1
                guard value == StoreTortureWorkload.value(for: number) else {
                    Issue.record("k\(number) read back bytes that were never stored under it")
                    return
                }
            }
        }
        child.kill()
        #expect(hits > reads / 2, "the reader took up \(hits) of \(reads) keys already synchronized")
        usleep(2_000)
        for number in 0...durable
        where try reader.value(forKey: "k\(number)") != StoreTortureWorkload.value(for: number) {
            Issue.record("k\(number) was synchronized but the reader does not read it back")
            return
        }
        try reader.close()
    }

    /// RLIMIT_FSIZE makes writes fail with EFBIG without filling the disk: the error reaches the
    /// caller, earlier entries stay readable, and the file holds only whole records.
    @Test func fileSizeLimitReachesTheCallerAndLeavesTheStoreConsistent() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.url.path + "/limited.log"
        let limit = 200_000
        let child = try Child(["file-limit", path, String(limit)], binary: "store-torture-child")
        try child.finish()
        let lines = child.lines
        #expect(child.process.terminationStatus == 0)
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
            #expect(try store.value(forKey: "k\(number)") == StoreTortureWorkload.value(for: number))
        }
    }
}
