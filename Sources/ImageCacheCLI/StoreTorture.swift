import Foundation
import LogStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child process of the store's crash tests (`Tests/CLITests/StoreCommandTests.swift`).
///
/// `store-torture write PATH FIRST SEED`: puts keys `k<FIRST>`, `k<FIRST+1>`, … forever with
/// values derived from the number alone, synchronizes every few puts and then prints
/// `synced N` (every key up to N is durable). The parent kills it with SIGKILL.
///
/// `store-torture file-limit PATH LIMIT`: sets RLIMIT_FSIZE to LIMIT bytes, ignores SIGXFSZ,
/// puts and synchronizes until a write fails, prints `synced N` after each success, then
/// `error NAME`, and `readable` if every synced key still reads back.
enum StoreTorture {
    /// The value stored under `k<number>`: 64–2,111 bytes that only `number` determines.
    static func value(for number: Int) -> [UInt8] {
        var state = UInt64(number) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        let length = 64 + Int(state % 2048)
        return (0..<length).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    @Sendable static func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 4 || (arguments.count == 3 && arguments[0] == "file-limit") else {
            throw CommandLineError.usage("store-torture write PATH FIRST SEED | file-limit PATH LIMIT")
        }
        switch arguments[0] {
        case "write":
            return try write(
                path: arguments[1], first: Int(arguments[2]) ?? 0, seed: UInt64(arguments[3]) ?? 1)
        case "file-limit":
            return try fileLimit(path: arguments[1], limit: UInt64(arguments[2]) ?? 1 << 20)
        default:
            throw CommandLineError.usage("store-torture write PATH FIRST SEED | file-limit PATH LIMIT")
        }
    }

    private static func write(path: String, first: Int, seed: UInt64) throws -> Int32 {
        // A small dead-bytes threshold so the children also get killed inside compactions.
        let store = try LogStore(
            path: path, options: .init(compactionDeadRatio: 0.3, compactionMinimumFileSize: 256 << 10))
        var random = seed | 1
        var number = first
        while true {
            random ^= random << 13
            random ^= random >> 7
            random ^= random << 17
            let batch = 1 + Int(random % 8)
            for _ in 0..<batch {
                try store.put(
                    value(for: number), forKey: "k\(number)",
                    metadata: EntryMetadata(
                        createdAt: Int64(number), expiresAt: .max, accessSequence: UInt64(number)))
                if number % 3 == 0 && number > 0 {
                    // Rewrites and touches make dead bytes, so automatic compaction runs too.
                    try store.put(
                        value(for: number - 1), forKey: "k\(number - 1)",
                        metadata: EntryMetadata(
                            createdAt: Int64(number), expiresAt: .max, accessSequence: UInt64(number)))
                    try store.updateMetadata(
                        EntryMetadata(
                            createdAt: Int64(number), expiresAt: .max, accessSequence: UInt64(number) + 1),
                        forKey: "k\(number - 2)")
                }
                number += 1
            }
            try store.synchronize()
            try StandardOutput.write("synced \(number - 1)\n")
        }
    }

    private static func fileLimit(path: String, limit: UInt64) throws -> Int32 {
        var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else {
            throw CommandLineError("store-torture: setrlimit failed", status: .failure)
        }
        signal(SIGXFSZ, SIG_IGN)
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        var number = 0
        while true {
            do {
                try store.put(
                    value(for: number), forKey: "k\(number)",
                    metadata: EntryMetadata(createdAt: 0, expiresAt: .max, accessSequence: UInt64(number)))
                try store.synchronize()
            } catch {
                if case .fileSizeLimitExceeded = error {
                    try StandardOutput.write("error fileSizeLimitExceeded\n")
                } else {
                    try StandardOutput.write("error \(error)\n")
                }
                break
            }
            try StandardOutput.write("synced \(number)\n")
            number += 1
        }
        for earlier in 0..<number where try store.value(forKey: "k\(earlier)") != value(for: earlier) {
            try StandardOutput.write("unreadable k\(earlier)\n")
            return 1
        }
        try StandardOutput.write("readable\n")
        return 0
    }
}
