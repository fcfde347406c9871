import Foundation
import ImageCacheKit

/// The store commands on an ``ImageCache`` (`Spec/cache.md`): `put`, `get`, `rm`, `ls`,
/// `stat`, `compact` with `--backend`, and `purge` and `clear`.
///
/// A store command runs on a cache when it is given `--backend`, `--ttl`, `--max-age`,
/// `--max-bytes`, `--max-entries` or `--now` (and `purge` and `clear` always do);
/// without it, it runs on a bare log store as before. `--store DIR` names the cache folder
/// (default: the platform cache folder's `imagecache/<backend>`). Each invocation opens the
/// cache (which purges expired entries), does its work and closes it (which synchronizes).
enum CacheCommands {
    static let optionsUsage =
        "[--backend dictionary|directory|log|hybrid] [--store DIR] [--ttl SECONDS] [--max-bytes N]"

    /// The settings and the remaining words of one invocation.
    struct Invocation {
        var configuration: CacheConfiguration
        var words: [String]
    }

    /// The options only a cache understands; any of them selects the cache.
    static let cacheOptions: Set<String> = [
        "--backend", "--ttl", "--max-age", "--max-bytes", "--max-entries", "--now",
    ]

    /// Whether `arguments` ask for the cache rather than a bare log store.
    static func wantsCache(_ arguments: [String]) -> Bool {
        arguments.contains { cacheOptions.contains($0) }
    }

    /// Parses `--backend`, `--store`, `--ttl`, `--max-age`, `--max-bytes`, `--max-entries` and
    /// `--now` (a fixed clock in milliseconds since the epoch, for scripts and tests).
    static func parse(_ arguments: [String], usage: String) throws -> Invocation {
        var backend = Backend.log
        var directory: String?
        var timeToLive: Int64?
        var maximumAge: Int64?
        var maximumBytes: Int?
        var maximumEntryCount: Int?
        var now: Int64?
        var words: [String] = []
        var iterator = arguments.makeIterator()
        func value(_ option: String) throws -> String {
            guard let value = iterator.next() else {
                throw CommandLineError.usage("\(usage): \(option) needs a value")
            }
            return value
        }
        func number<Number: FixedWidthInteger>(_ option: String, minimum: Number) throws -> Number {
            let text = try value(option)
            guard let parsed = Number(text), parsed >= minimum else {
                throw CommandLineError.usage(
                    "\(usage): \(option) must be an integer of at least \(minimum), got '\(text)'")
            }
            return parsed
        }
        while let argument = iterator.next() {
            switch argument {
            case "--backend":
                let name = try value(argument)
                guard let parsed = Backend(rawValue: name) else {
                    throw CommandLineError.usage("\(usage): unknown backend '\(name)'")
                }
                backend = parsed
            case "--store": directory = try value(argument)
            case "--ttl":
                timeToLive = try milliseconds(
                    number(argument, minimum: 1 as Int64), option: argument, usage: usage)
            case "--max-age":
                maximumAge = try milliseconds(
                    number(argument, minimum: 1 as Int64), option: argument, usage: usage)
            case "--max-bytes": maximumBytes = try number(argument, minimum: 0)
            case "--max-entries": maximumEntryCount = try number(argument, minimum: 1)
            case "--now": now = try number(argument, minimum: Int64.min)
            case _ where argument.hasPrefix("--"):
                throw CommandLineError.usage("\(usage): unknown option \(argument)")
            default: words.append(argument)
            }
        }
        let folder: URL
        if let directory {
            folder = URL(fileURLWithPath: directory, isDirectory: true)
        } else {
            folder = try CacheConfiguration.defaultDirectory(named: "imagecache")
                .appendingPathComponent(backend.rawValue, isDirectory: true)
        }
        let clock: any CacheClock = now.map { ManualClock(milliseconds: $0) } ?? SystemClock()
        return Invocation(
            configuration: CacheConfiguration(
                directory: folder, backend: backend, timeToLive: timeToLive.map { .milliseconds($0) },
                maximumAge: maximumAge.map { .milliseconds($0) },
                maximumBytes: maximumBytes, maximumEntryCount: maximumEntryCount, clock: clock),
            words: words)
    }

    static func milliseconds(_ seconds: Int64, option: String, usage: String) throws -> Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { throw CommandLineError.usage("\(usage): \(option) is too large") }
        return product
    }

    /// Opens the cache, runs `body`, and closes the cache even when `body` throws.
    static func withCache<Result>(_ invocation: Invocation, _ body: (ImageCache) throws -> Result) throws
        -> Result
    {
        let cache = try ImageCache(configuration: invocation.configuration)
        let result: Result
        do {
            result = try body(cache)
        } catch {
            try? cache.close()
            throw error
        }
        try cache.close()
        return result
    }

    @Sendable static func put(_ arguments: [String]) throws -> Int32 {
        let usage = "put \(optionsUsage) KEY FILE"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.count == 2 else { throw CommandLineError.usage(usage) }
        let value: [UInt8]
        if invocation.words[1] == "-" {
            value = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: invocation.words[1]) else {
                throw CommandLineError(description: "put: cannot read \(invocation.words[1])", status: 1)
            }
            value = [UInt8](data)
        }
        try withCache(invocation) { try $0.store(value, forKey: invocation.words[0]) }
        return 0
    }

    @Sendable static func get(_ arguments: [String]) throws -> Int32 {
        let usage = "get \(optionsUsage) KEY [OUT]"
        let invocation = try parse(arguments, usage: usage)
        guard (1...2).contains(invocation.words.count) else { throw CommandLineError.usage(usage) }
        let key = invocation.words[0]
        // A miss (absent or expired: opening purges, and a read never returns an expired entry).
        guard let value = try withCache(invocation, { try $0.bytes(forKey: key) }) else {
            throw CommandLineError(
                description: "get: no entry for key '\(key)' (absent or expired)", status: 1)
        }
        if invocation.words.count == 1 || invocation.words[1] == "-" {
            StandardOutput.write(value)
        } else if !FileManager.default.createFile(atPath: invocation.words[1], contents: Data(value)) {
            throw CommandLineError(description: "get: cannot write \(invocation.words[1])", status: 1)
        }
        return 0
    }

    @Sendable static func remove(_ arguments: [String]) throws -> Int32 {
        let usage = "rm \(optionsUsage) KEY"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.count == 1 else { throw CommandLineError.usage(usage) }
        try withCache(invocation) { _ = try $0.removeValue(forKey: invocation.words[0]) }
        return 0
    }

    @Sendable static func list(_ arguments: [String]) throws -> Int32 {
        let usage = "ls \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        let text = try withCache(invocation) { cache in
            var text = ""
            for key in cache.keys {
                guard let metadata = try cache.metadata(forKey: key) else { continue }
                let expires = metadata.expiresAt == .max ? "never" : String(metadata.expiresAt)
                text +=
                    "\(key)\tcreated \(metadata.createdAt)\texpires \(expires)\taccess \(metadata.accessSequence)\n"
            }
            return text
        }
        StandardOutput.write(text)
        return 0
    }

    @Sendable static func statistics(_ arguments: [String]) throws -> Int32 {
        let usage = "stat \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        let text = try withCache(invocation) { cache in
            "backend: \(invocation.configuration.backend)\nentries: \(cache.count)\nbytes: \(cache.totalByteCount)\n"
        }
        StandardOutput.write(text)
        return 0
    }

    @Sendable static func compact(_ arguments: [String]) throws -> Int32 {
        let usage = "compact \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        let count = try withCache(invocation) { cache in
            try cache.compact()
            return cache.count
        }
        StandardOutput.write("compacted: \(count) entries\n")
        return 0
    }

    @Sendable static func verify(_ arguments: [String]) throws -> Int32 {
        let usage = "verify \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        let report = try withCache(invocation) { try $0.verify() }
        guard let first = report.damagedEntries.first else {
            StandardOutput.write("ok: \(report.checkedEntries) entries, \(report.intactBytes) bytes\n")
            return 0
        }
        for damaged in report.damagedEntries {
            StandardOutput.write("damaged: \(damaged.key): \(damaged.reason)\n")
        }
        throw CommandLineError(
            description:
                "verify: \(report.damagedEntries.count) of \(report.checkedEntries) entries are damaged, "
                + "first '\(first.key)': \(first.reason)",
            status: 1)
    }

    @Sendable static func purge(_ arguments: [String]) throws -> Int32 {
        let usage = "purge \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        // Opening purges too, so count what the open removed as well.
        let removed = try withCache(invocation) { cache in
            try cache.expiredEntriesRemovedOnOpen + cache.purgeExpired()
        }
        StandardOutput.write("purged \(removed) expired entries\n")
        return 0
    }

    @Sendable static func clear(_ arguments: [String]) throws -> Int32 {
        let usage = "clear \(optionsUsage)"
        let invocation = try parse(arguments, usage: usage)
        guard invocation.words.isEmpty else { throw CommandLineError.usage(usage) }
        try withCache(invocation) { try $0.removeAll() }
        return 0
    }
}
