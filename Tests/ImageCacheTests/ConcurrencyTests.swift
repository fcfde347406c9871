import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

extension CacheBehaviourTests {
    /// Every operation from many threads at once (run under `swift test --sanitize=thread`).
    @Suite struct ConcurrencyTests {
        /// A value that names its key, so a read can prove it got the right entry.
        static func value(forKey key: String, round: Int) -> [UInt8] {
            Array("\(key)#\(round)#".utf8)
                + [UInt8](repeating: UInt8(truncatingIfNeeded: round), count: round % 300)
        }

        /// `withValue` lends the bytes (the log's from its file mapping, without a copy): while
        /// the closure holds them, another thread replaces that value, removes and stores
        /// others and compacts the cache, and the lent bytes stay the value that was read; the
        /// next read sees the new one. A read-only cache lends the same way.
        @Test(arguments: Backend.allCases)
        func aLentValueStaysIntactWhileAnotherThreadStoresAndCompacts(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(backend, directory, clock: ManualClock(milliseconds: 1_000))
            let cache = try ImageCache(configuration: settings)
            let first = bytes(seed: 1, count: 100_000)
            let second = bytes(seed: 2, count: 100_000)
            try cache.store(first, forKey: "lent")
            for index in 0..<50 { try cache.store(bytes(seed: 10 + UInt64(index), count: 5_000), forKey: "o\(index)") }
            try cache.synchronize()
            let reader = try ImageCache(configuration: CacheConfiguration(
                directory: directory.cacheURL, backend: backend, clock: ManualClock(milliseconds: 1_000),
                readOnly: true))
            // A read-only cache follows the log (and hybrid's log); the others see the files as
            // they were at open (`Spec/cache.md` §5.6).
            for lender in backend == .log || backend == .hybrid ? [cache, reader] : [cache] {
                let failures = FailureLog()
                let lent = try lender.withValue(forKey: "lent") { value -> Bool in
                    let done = DispatchSemaphore(value: 0)
                    Thread {
                        do {
                            try cache.store(second, forKey: "lent")
                            for index in 0..<50 where index % 2 == 0 { try cache.removeValue(forKey: "o\(index)") }
                            try cache.store(bytes(seed: 99, count: 300_000), forKey: "big")
                            try cache.synchronize()
                            try cache.compact()
                        } catch {
                            failures.record("\(error)")
                        }
                        done.signal()
                    }.start()
                    done.wait()
                    return value.elementsEqual(first)
                }
                #expect(failures.messages.isEmpty, "\(failures.messages)")
                #expect(lent == true)
                if lender === cache { #expect(try cache.bytes(forKey: "lent") == second) }
                // Put the first value back for the read-only cache's turn.
                try cache.store(first, forKey: "lent")
                try cache.removeValue(forKey: "big")
                try cache.synchronize()
            }
            try reader.close()
            try cache.close()
        }

        @Test(arguments: Backend.allCases)
        func manyThreadsStoreReadRemoveAndPurge(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let clock = ManualClock()
            let settings = configuration(
                backend, directory, clock: clock, timeToLive: 50, maximumBytes: 6_000, maximumEntryCount: 40,
                externalStorageThreshold: 200)
            let cache = try ImageCache(configuration: settings)
            let failures = FailureLog()
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                var generator = SplitMix64(state: UInt64(worker))
                for round in 0..<150 {
                    let key = "key-\(generator.next() % 60)"
                    do {
                        switch generator.next() % 10 {
                        case 0...3:
                            try cache.store(Self.value(forKey: key, round: round), forKey: key)
                        case 4...6:
                            if let value = try cache.bytes(forKey: key),
                                !value.starts(with: Array("\(key)#".utf8))
                            {
                                failures.record("\(key) returned another key's value")
                            }
                        case 7:
                            try cache.removeValue(forKey: key)
                        case 8:
                            clock.advance(by: 1)
                            _ = cache.count
                            _ = cache.keys
                        default:
                            if round % 50 == 0 { try cache.purgeExpired() } else { _ = cache.contains(key) }
                        }
                    } catch {
                        failures.record("\(error)")
                    }
                }
            }
            #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
            #expect(cache.count <= 40)
            #expect(cache.totalByteCount <= 6_000)
            let keys = cache.keys
            try cache.close()
            let reopened = try ImageCache(configuration: settings)
            #expect(reopened.keys == keys)
            for key in keys {
                let value = try reopened.bytes(forKey: key)
                #expect(value?.starts(with: Array("\(key)#".utf8)) == true)
            }
        }

        /// Reads do not take the writer lock (`Spec/cache.md` §10.2): a read of a live entry
        /// completes while another thread holds the lock, as a writer doing slow I/O would.
        @Test(arguments: Backend.allCases)
        func readsDoNotWaitForTheWriter(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
            try cache.store([1, 2, 3], forKey: "k")
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                cache.writerLock.withLock {
                    holding.signal()
                    release.wait()
                }
            }
            holding.wait()
            let read = DispatchSemaphore(value: 0)
            let result = FailureLog()
            DispatchQueue.global().async {
                do {
                    if try cache.bytes(forKey: "k") != [1, 2, 3] { result.record("wrong value") }
                } catch {
                    result.record("\(error)")
                }
                read.signal()
            }
            let finished = read.wait(timeout: .now() + 10) == .success
            release.signal()
            #expect(finished, "the read waited for the writer lock")
            if !finished { read.wait() }
            #expect(result.messages.isEmpty)
            // The hit the read recorded is applied by the next writer operation.
            #expect(try cache.metadata(forKey: "k")?.accessSequence == 2)
        }

        /// Many readers and writers on every backend, every value checked byte for byte
        /// against the writes that could have produced it, with hits, evictions and
        /// compaction in between (run under `swift test --sanitize=thread`).
        @Test(arguments: Backend.allCases)
        func readersAndWritersNeverSeeAWrongValue(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(
                backend, directory, clock: ManualClock(), maximumBytes: 400_000,
                externalStorageThreshold: 4_096)
            let cache = try ImageCache(configuration: settings)
            let failures = FailureLog()
            // Values name their key and version; every version of a key is a pure function of both.
            @Sendable func value(_ key: Int, _ version: Int) -> [UInt8] {
                let head = Array("\(key):\(version):".utf8)
                return head + bytes(seed: UInt64(key * 100_000 + version), count: (version * 977) % 9_000)
            }
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                var generator = SplitMix64(state: UInt64(worker) &+ 77)
                for round in 0..<300 {
                    let key = Int(generator.next() % 24)
                    do {
                        if worker < 2 {
                            // Writers.
                            switch generator.next() % 10 {
                            case 0: try cache.removeValue(forKey: "k\(key)")
                            case 1 where round % 100 == 0: try cache.compact()
                            default: try cache.store(value(key, round * 10 + worker), forKey: "k\(key)")
                            }
                        } else if let read = try cache.bytes(forKey: "k\(key)") {
                            // Readers: whatever version came back must be exactly that version.
                            // Split the bytes, not the text: a colon followed by random bytes
                            // that decode to a combining mark is one Character, not ":".
                            let fields = read.prefix(24).split(separator: UInt8(ascii: ":"), maxSplits: 2)
                                .map { String(decoding: $0, as: UTF8.self) }
                            guard fields.count >= 2, Int(fields[0]) == key, let version = Int(fields[1]),
                                read == value(key, version)
                            else {
                                failures.record("k\(key): a value that no write produced")
                                continue
                            }
                        }
                    } catch {
                        failures.record("\(error)")
                    }
                }
            }
            #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
            #expect(cache.totalByteCount <= 400_000)
            let total = try cache.keys.reduce(0) { $0 + (try cache.bytes(forKey: $1)?.count ?? 0) }
            #expect(total == cache.totalByteCount)
        }
    }
}

/// Collects failures from worker threads.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func record(_ message: String) {
        lock.lock()
        stored.append(message)
        lock.unlock()
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
