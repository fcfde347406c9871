import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

@Suite struct LogStoreConcurrencyTests {
    /// A value that names its key and version, so a reader can tell a torn or misplaced value.
    private static func value(key: Int, version: Int) -> [UInt8] {
        let length = 16 + (key * 37 + version * 11) % 3000
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: key &+ version), count: length)
        withUnsafeBytes(of: UInt32(key).littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: UInt32(version).littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    private static func isValid(_ bytes: [UInt8], key: Int) -> Bool {
        guard bytes.count >= 16 else { return false }
        let storedKey = Int(
            UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
        let version = Int(
            UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24)
        return storedKey == key && bytes == value(key: key, version: version)
    }

    /// Writers, readers and compactions at once (run under `--sanitize=thread`).
    @Test func manyThreadsReadAndWrite() throws {
        let directory = TemporaryDirectory()
        let store = try LogStore(
            path: directory.file(),
            options: .init(
                compactionDeadRatio: 0.4, compactionMinimumFileSize: 256 << 10, writeBufferSize: 64 << 10))
        let keysPerWriter = 50
        let writers = 3
        let readers = 3
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers + readers + 1) { worker in
            var generator = SeededGenerator(seed: UInt64(worker) + 1)
            do {
                if worker < writers {
                    for step in 0..<600 {
                        let key = worker * keysPerWriter + Int(generator.next() % UInt64(keysPerWriter))
                        switch generator.next() % 10 {
                        case 0: try store.removeValue(forKey: "k\(key)")
                        case 1: try store.updateMetadata(metadata(UInt64(step)), forKey: "k\(key)")
                        default:
                            try store.put(
                                Self.value(key: key, version: step), forKey: "k\(key)",
                                metadata: metadata(UInt64(step)))
                        }
                    }
                } else if worker < writers + readers {
                    for _ in 0..<2000 {
                        let key = Int(generator.next() % UInt64(writers * keysPerWriter))
                        if let bytes = try store.value(forKey: "k\(key)"), !Self.isValid(bytes, key: key) {
                            failures.add("wrong value for k\(key)")
                        }
                        _ = store.metadata(forKey: "k\(key)")
                    }
                    _ = store.statistics
                    _ = store.entries()
                } else {
                    for _ in 0..<5 {
                        _ = try store.compact(now: 0)
                        try store.synchronize()
                    }
                }
            } catch {
                failures.add("worker \(worker): \(error)")
            }
        }
        #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
        #expect(try store.verify().isValid)
        try store.close()
    }
}

/// Collects failure messages from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func add(_ message: String) {
        lock.lock()
        storage.append(message)
        lock.unlock()
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
