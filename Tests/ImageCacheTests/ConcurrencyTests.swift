import Dispatch
import Foundation
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
