import Foundation
import LogStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `imagecache put|get|rm|ls|stat|verify|compact` on a log store (`Spec/store.md` §10), and
/// with `--backend` on a cache (`CacheCommands`, `Spec/cache.md`), plus `purge` and `clear`.
/// The commands only parse arguments and print; the store or the cache does the work.
extension CommandRegistry {
    static var storeCommands: [Command] {
        [
            Command(
                name: "put",
                usage: [
                    "put [--store PATH] KEY FILE   store FILE (- = stdin) under KEY",
                    "put \(CacheCommands.optionsUsage) KEY FILE   the same in a cache",
                ], run: runPut),
            Command(
                name: "get",
                usage: [
                    "get [--store PATH] KEY [OUT]   write KEY's value to OUT (- or none = stdout); exit 1 if absent",
                    "get \(CacheCommands.optionsUsage) KEY [OUT]   the same in a cache; exit 1 if absent or expired",
                ], run: runGet),
            Command(name: "rm", usage: ["rm [--backend B] [--store PATH] KEY   remove KEY"], run: runRemove),
            Command(
                name: "ls", usage: ["ls [--backend B] [--store PATH]   list keys, sizes and timestamps"],
                run: runList),
            Command(
                name: "stat",
                usage: [
                    "stat [--backend B] [--store PATH]   entries, live/dead bytes, file size, index bytes"
                ], run: runStatistics),
            Command(
                name: "verify",
                usage: [
                    "verify [--backend B] [--store PATH]   check every record's CRC; exit 1 naming the first bad one"
                ], run: runVerify),
            Command(
                name: "compact",
                usage: [
                    "compact [--backend B] [--store PATH]   rewrite live, unexpired records into a fresh file"
                ], run: runCompact),
            Command(
                name: "purge",
                usage: ["purge \(CacheCommands.optionsUsage)   remove a cache's expired entries"],
                run: CacheCommands.purge),
            Command(
                name: "clear", usage: ["clear \(CacheCommands.optionsUsage)   remove every entry of a cache"],
                run: CacheCommands.clear),
            // Hidden: the child process of the crash and file-size-limit tests.
            Command(name: "store-torture", usage: [], run: StoreTorture.run),
        ]
    }

    /// Splits `--store PATH` from the other arguments; the default store lives in the platform
    /// cache directory (`$XDG_CACHE_HOME` or `~/.cache`, then `imagecache/store.log`).
    static func storeArguments(_ arguments: [String], usage: String) throws -> (path: String, words: [String])
    {
        var path: String?
        var words: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--store" {
                guard let value = iterator.next() else { throw CommandLineError.usage(usage) }
                path = value
            } else if argument.hasPrefix("--") {
                throw CommandLineError.usage(usage + ": unknown option \(argument)")
            } else {
                words.append(argument)
            }
        }
        if let path { return (path, words) }
        let environment = ProcessInfo.processInfo.environment
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        let directory = cacheHome + "/imagecache"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (directory + "/store.log", words)
    }

    @Sendable static func runPut(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.put(arguments) }
        let usage = "put [--store PATH] KEY FILE"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.count == 2 else { throw CommandLineError.usage(usage) }
        let value: [UInt8]
        if words[1] == "-" {
            value = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: words[1]) else {
                throw CommandLineError(description: "put: cannot read \(words[1])", status: 1)
            }
            value = [UInt8](data)
        }
        let store = try LogStore(path: path)
        let sequence = (store.entries().map(\.metadata.accessSequence).max() ?? 0) + 1
        let now = LogStore.currentTimeMilliseconds()
        try store.put(
            value, forKey: words[0],
            metadata: EntryMetadata(createdAt: now, expiresAt: .max, accessSequence: sequence))
        try store.close()
        return 0
    }

    @Sendable static func runGet(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.get(arguments) }
        let usage = "get [--store PATH] KEY [OUT]"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.count == 1 || words.count == 2 else { throw CommandLineError.usage(usage) }
        let store = try LogStore(path: path, options: .init(readOnly: true))
        guard let value = try store.value(forKey: words[0]) else {
            throw CommandLineError(description: "get: no entry for key '\(words[0])'", status: 1)
        }
        if words.count == 1 || words[1] == "-" {
            StandardOutput.write(value)
        } else if !FileManager.default.createFile(atPath: words[1], contents: Data(value)) {
            throw CommandLineError(description: "get: cannot write \(words[1])", status: 1)
        }
        return 0
    }

    @Sendable static func runRemove(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.remove(arguments) }
        let usage = "rm [--store PATH] KEY"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.count == 1 else { throw CommandLineError.usage(usage) }
        let store = try LogStore(path: path)
        try store.removeValue(forKey: words[0])
        try store.close()
        return 0
    }

    @Sendable static func runList(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.list(arguments) }
        let usage = "ls [--store PATH]"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.isEmpty else { throw CommandLineError.usage(usage) }
        let store = try LogStore(path: path, options: .init(readOnly: true))
        var text = ""
        for entry in store.entries().sorted(by: { $0.key < $1.key }) {
            let expires = entry.metadata.expiresAt == .max ? "never" : timestamp(entry.metadata.expiresAt)
            text +=
                "\(entry.key)\t\(entry.valueLength)\tcreated \(timestamp(entry.metadata.createdAt))"
                + "\texpires \(expires)\taccess \(entry.metadata.accessSequence)\n"
        }
        StandardOutput.write(text)
        return 0
    }

    @Sendable static func runStatistics(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.statistics(arguments) }
        let usage = "stat [--store PATH]"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.isEmpty else { throw CommandLineError.usage(usage) }
        let store = try LogStore(path: path, options: .init(readOnly: true))
        let statistics = store.statistics
        StandardOutput.write(
            """
            entries: \(statistics.entries)
            live bytes: \(statistics.liveBytes)
            dead bytes: \(statistics.deadBytes)
            file size: \(statistics.fileSize)
            index bytes: \(statistics.indexBytes) (\(String(format: "%.1f", statistics.indexBytesPerEntry)) per entry)

            """)
        return 0
    }

    @Sendable static func runVerify(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.verify(arguments) }
        let usage = "verify [--store PATH]"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.isEmpty else { throw CommandLineError.usage(usage) }
        let report = try LogStore.verify(path: path)
        if let offset = report.firstDamagedOffset {
            let reason = report.failure.map { String(describing: $0) } ?? "damaged"
            throw CommandLineError(
                description:
                    "verify: bad record at offset \(offset) after \(report.validRecords) good records: \(reason)",
                status: 1)
        }
        StandardOutput.write("ok: \(report.validRecords) records, \(report.checkedBytes) bytes\n")
        return 0
    }

    @Sendable static func runCompact(_ arguments: [String]) throws -> Int32 {
        if CacheCommands.wantsCache(arguments) { return try CacheCommands.compact(arguments) }
        let usage = "compact [--store PATH]"
        let (path, words) = try storeArguments(arguments, usage: usage)
        guard words.isEmpty else { throw CommandLineError.usage(usage) }
        let store = try LogStore(path: path)
        let result = try store.compact(now: LogStore.currentTimeMilliseconds())
        try store.close()
        StandardOutput.write(
            "kept \(result.keptEntries) entries, dropped \(result.expiredEntries) expired; "
                + "\(result.bytesBefore) -> \(result.bytesAfter) bytes\n")
        return 0
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

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
            StandardOutput.write("synced \(number - 1)\n")
        }
    }

    private static func fileLimit(path: String, limit: UInt64) throws -> Int32 {
        var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else {
            throw CommandLineError(description: "store-torture: setrlimit failed", status: 1)
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
                StandardOutput.write("synced \(number)\n")
                number += 1
            } catch {
                if case .fileSizeLimitExceeded = error {
                    StandardOutput.write("error fileSizeLimitExceeded\n")
                } else {
                    StandardOutput.write("error \(error)\n")
                }
                break
            }
        }
        for earlier in 0..<number where try store.value(forKey: "k\(earlier)") != value(for: earlier) {
            StandardOutput.write("unreadable k\(earlier)\n")
            return 1
        }
        StandardOutput.write("readable\n")
        return 0
    }
}
