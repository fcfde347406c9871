import Foundation
import ImageCacheKit
import LogStoreKit

/// The options every store command may share, declared once so each command's help lists them
/// with the same words (`Spec/cache.md` §12.2).
enum StoreOptions {
    static let store = OptionSpec(name: "--store", value: "PATH", help: StoreLocation.storeHelp)
    static let backend = OptionSpec(
        name: "--backend", value: "NAME",
        help: "dictionary, directory, log or hybrid: the backend of a new cache folder (default log); "
            + "an existing folder's is detected, and naming another is an error")
    static let timeToLive = OptionSpec(
        name: "--ttl", value: "DURATION",
        help: "sliding expiry: a store or a hit keeps the entry this long (the cache's timeToLive)")
    static let maximumAge = OptionSpec(
        name: "--max-age", value: "DURATION",
        help: "hard expiry this long after the store; no hit extends it (the cache's maximumAge)")
    static let maximumBytes = OptionSpec(
        name: "--max-bytes", value: "SIZE",
        help: "keep at most this many value bytes, evicting the least recently used (cache folders)")
    static let maximumEntries = OptionSpec(
        name: "--max-entries", value: "N",
        help: "keep at most N entries, evicting the least recently used (cache folders)")
    static let now = OptionSpec(
        name: "--now", value: "TIME",
        help: "the current time, for scripts and tests (default: the system clock)")
    static let maximumPixelSize = OptionSpec(
        name: "--max", value: "N",
        help: "the largest width and height of the variant, in pixels (required; at least 1)")
    static let readOnly = OptionSpec(
        name: "--read-only", value: nil,
        help: "open without writing anything (works in a folder you cannot write, and beside a writer)")
    static let json = OptionSpec(name: "--json", value: nil, help: "print JSON for scripts instead of text")
    static let userMetadataText = OptionSpec(
        name: "--user-metadata", value: "TEXT",
        help: "store TEXT's UTF-8 as the entry's user metadata, at most 4096 bytes (an ETag, say)")
    static let userMetadataFlag = OptionSpec(
        name: "--user-metadata", value: nil,
        help: "write the entry's user metadata instead of its value; not a hit")
}

/// What the cache options asked for, parsed and checked (`Spec/cache.md` §12.2).
struct CacheSettings {
    /// `--ttl` and `--max-age`, in whole milliseconds that fit an `Int64` (the parser checks).
    let timeToLive: Duration?
    let maximumAge: Duration?
    var maximumBytes: Int?
    var maximumEntryCount: Int?
    /// `--now` in milliseconds since the epoch, or nil for the system clock.
    var fixedNow: Int64?

    init(_ arguments: ParsedArguments) throws(CommandLineError) {
        timeToLive = try arguments.value("--ttl").map { (text) throws(CommandLineError) in
            try ArgumentValues.duration(text, option: "--ttl")
        }
        maximumAge = try arguments.value("--max-age").map { (text) throws(CommandLineError) in
            try ArgumentValues.duration(text, option: "--max-age")
        }
        maximumBytes = try arguments.value("--max-bytes").map { (text) throws(CommandLineError) in
            try ArgumentValues.size(text, option: "--max-bytes")
        }
        maximumEntryCount = try arguments.value("--max-entries").map { (text) throws(CommandLineError) in
            try ArgumentValues.count(text, option: "--max-entries", minimum: 1)
        }
        fixedNow = try arguments.value("--now").map { (text) throws(CommandLineError) in
            try ArgumentValues.time(text, option: "--now")
        }
    }

    /// The time the command works at: `--now`, or the system clock read once.
    var now: Int64 { fixedNow ?? LogStore.currentTimeMilliseconds() }

    /// The one place the command line meets `CacheConfiguration` (time settings are
    /// `Duration`s on both sides).
    func configuration(directory: URL, backend: Backend, readOnly: Bool = false) -> CacheConfiguration {
        CacheConfiguration(
            directory: directory, backend: backend, timeToLive: timeToLive, maximumAge: maximumAge,
            maximumBytes: maximumBytes, maximumEntryCount: maximumEntryCount,
            clock: fixedNow.map { ManualClock(milliseconds: $0) } ?? SystemClock(), readOnly: readOnly)
    }
}
