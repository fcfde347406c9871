// The child process of the log store's crash tests (`Tests/CrashTests/StoreCrashTests.swift`).
// Not part of the product.
//
//   store-torture-child write PATH FIRST SEED
//       Puts keys k<FIRST>, k<FIRST+1>, … forever with StoreTortureWorkload's values,
//       synchronizes every few puts and then prints "synced N" (every key up to N is durable).
//       The parent kills it with SIGKILL.
//   store-torture-child file-limit PATH LIMIT
//       Sets RLIMIT_FSIZE to LIMIT bytes, ignores SIGXFSZ, puts and synchronizes until a write
//       fails, printing "synced N" after each success, then "error NAME", and "readable" if
//       every synced key still reads back ("unreadable kN" and exit 1 otherwise).
import Foundation
import LogStoreKit
import TortureWorkload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line straight to the file descriptor, so a kill right after cannot lose it.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

func value(for number: Int) -> [UInt8] { StoreTortureWorkload.value(for: number) }

func writeUntilKilled(path: String, first: Int, seed: UInt64) throws -> Never {
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
        say("synced \(number - 1)")
    }
}

func fileLimit(path: String, limit: UInt64) throws -> Int32 {
    var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else {
        say("setrlimit failed")
        return 2
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
                say("error fileSizeLimitExceeded")
            } else {
                say("error \(error)")
            }
            break
        }
        say("synced \(number)")
        number += 1
    }
    for earlier in 0..<number where try store.value(forKey: "k\(earlier)") != value(for: earlier) {
        say("unreadable k\(earlier)")
        return 1
    }
    say("readable")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.count) {
    case ("write", 4):
        try writeUntilKilled(
            path: arguments[1], first: Int(arguments[2]) ?? 0, seed: UInt64(arguments[3]) ?? 1)
    case ("file-limit", 3):
        exit(try fileLimit(path: arguments[1], limit: UInt64(arguments[2]) ?? 1 << 20))
    default:
        FileHandle.standardError.write(
            Data("usage: store-torture-child write PATH FIRST SEED | file-limit PATH LIMIT\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("store-torture-child: \(error)\n".utf8))
    exit(1)
}
