import Foundation
import TestSupport
import Testing

/// The option parser's rules and the value syntaxes (`Spec/cache.md` §12.2, `Spec/cache.md`
/// §12.2), through the built tool.
@Suite struct ParsingTests {
    @Test func optionsTakeTheirValueInlineOrAsTheNextWordAnywhereBeforeDoubleDash() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        #expect(try imagecache(["put", "k1", "--store=\(folder)", "-", "--now=0"], input: [1]).status == 0)
        #expect(try imagecache(["put", "--now", "0", "k2", "-", "--store", folder], input: [2]).status == 0)
        #expect(try imagecache(["ls", "--store", folder]).text.split(separator: "\n").count == 2)
        // A value that starts with -- must be given inline.
        let odd = scratch.path + "/--odd"
        #expect(try imagecache(["put", "--store=\(odd)", "k", "-"], input: [3]).status == 0)
        #expect(try imagecache(["get", "--store=\(odd)", "k"]).output == [3])
    }

    @Test(
        arguments: [
            (["ls", "--store"], "--store needs a value (PATH)"),
            (["ls", "--store", "--json"], "--store needs a value (PATH)"),
            (["ls", "--json=yes"], "--json takes no value"),
            (["ls", "--json", "--json"], "--json is given twice"),
            (["ls", "--now", "1", "--now=2"], "--now is given twice"),
            (
                ["ls", "--frobnicate"],
                "unknown option --frobnicate (put -- before an operand that starts with -)"
            ),
            (["ls", "-x"], "unknown option -x (put -- before an operand that starts with -)"),
            (["ls", "extra"], "unexpected operand 'extra'"),
            (["get"], "missing KEY"),
            (["put", "k"], "missing FILE"),
            (["get", "a", "b", "c\td"], "unexpected operand 'c\\td'"),
            (["get", ""], "KEY must be 1 to 65,535 UTF-8 bytes long; this one is 0 bytes"),
            (["ls", "--store", ""], "--store takes a folder or a log store file, not ''"),
            (["ls", "--store", "-"], "--store takes a folder or a log store file, not '-'"),
            (["ls", "--store", "/dev/null"], "--store /dev/null is neither a folder nor a regular file"),
            (
                ["ls", "--backend", "sqlite"],
                "--backend takes one of dictionary, directory, log, hybrid; got 'sqlite'"
            ),
            (["nosuch"], "unknown command 'nosuch'; run 'imagecache help'"),
            (["--store", "x", "ls"], "unknown command '--store' (options come after the command name)"),
            (["png", "rotate"], "no subcommand 'rotate'; subcommands: decode, encode, info, resize"),
            (["png", "resize"], "missing IN; see 'imagecache help png resize'"),
            (["help", "nosuch"], "unknown command 'nosuch'"),
            (["bench", "nosuchsuite"], "unknown suite 'nosuchsuite'"),
            (["bench", "--backends", "log,sqlite", "open"], "--backends: no backend named 'sqlite'"),
            (["bench", "open", "extra"], "the open suite takes no operands, got 'extra'"),
            (["bench", "png", "-"], "bench png reads its files by name"),
            (["bench", "--markdown", "-", "--svg", "-"], "--markdown and --svg cannot both be -"),
            (["bench", "--out", "-"], "--out takes a folder, not -"),
        ] as [([String], String)])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) throws {
        let outcome = try imagecache(arguments)
        #expect(outcome.status == 2, "\(outcome.error)")
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.error.contains(message), "\(outcome.error)")
        #expect(outcome.output.isEmpty)
    }

    @Test(arguments: [
        ("--ttl", "0", "--ttl must be positive, got '0'"),
        ("--ttl", "1.5h", "--ttl takes DURATION"),
        ("--ttl", "10y", "--ttl takes DURATION"),
        ("--ttl", "h", "--ttl takes DURATION"),
        ("--ttl", "-5", "--ttl takes DURATION"),
        ("--max-age", "999999999999999999d", "--max-age '999999999999999999d' is too large"),
        ("--ttl", "9999999999999999s", "--ttl is too large"),
        ("--max-bytes", "1T", "--max-bytes takes SIZE"),
        ("--max-bytes", "k", "--max-bytes takes SIZE"),
        ("--max-bytes", "99999999999G", "--max-bytes '99999999999G' is too large"),
        ("--max-entries", "0", "--max-entries must be at least 1, got '0'"),
        ("--max-entries", "ten", "--max-entries takes N"),
        ("--now", "yesterday", "--now takes TIME"),
        ("--now", "2024-02-30T00:00:00Z", "--now takes TIME"),
        ("--now", "2024-01-01T24:00:00Z", "--now takes TIME"),
        ("--now", "2024-01-01T00:00:00", "--now takes TIME"),
        ("--now", "2024-01-01T00:00:00.Z", "--now takes TIME"),
    ])
    func badValuesAreUsageErrors(option: String, value: String, message: String) throws {
        let scratch = TemporaryDirectory()
        let outcome = try imagecache(["put", "--store", scratch.path + "/cache", option, value, "k", "-"])
        #expect(outcome.status == 2, "\(outcome.error)")
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.error.contains(message), "\(outcome.error)")
        // A usage error touches nothing.
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/cache"))
    }

    /// Each syntax, read back through the expiry and creation time `ls --json` reports.
    @Test(
        arguments: [
            (["--ttl", "500ms"], 1_000, 1_500),
            (["--ttl", "90s"], 1_000, 91_000),
            (["--ttl", "15m"], 1_000, 901_000),
            (["--ttl", "2h"], 1_000, 7_201_000),
            (["--max-age", "7d"], 1_000, 604_801_000),
            (["--ttl", "3600"], 1_000, 3_601_000),
            (["--ttl", "1h", "--max-age", "30m"], 1_000, 1_801_000),
        ] as [([String], Int64, Int64)])
    func durationsConvertToMilliseconds(options: [String], now: Int64, expires: Int64) throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--now", String(now)]
        #expect(try imagecache(["put"] + store + options + ["k", "-"]).status == 0)
        let line = try imagecache(["ls", "--json"] + store).text
        #expect(line.contains("\"created_ms\":\(now),\"expires_ms\":\(expires),"), "\(line)")
    }

    @Test(arguments: [
        ("0", 0 as Int64), ("-1500", -1500), ("1714564800000", 1_714_564_800_000),
        ("2024-05-01T12:00:00Z", 1_714_564_800_000), ("2024-05-01T12:00:00.5Z", 1_714_564_800_500),
        ("2024-05-01T12:00:00.123456Z", 1_714_564_800_123), ("2024-05-01T14:30:00+02:30", 1_714_564_800_000),
        ("2024-05-01T09:00:00-03:00", 1_714_564_800_000), ("1969-12-31T23:59:59.999Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
    ])
    func timesAreMillisecondsOrISOInstants(text: String, milliseconds: Int64) throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache"]
        #expect(try imagecache(["put"] + store + ["--now", text, "k", "-"]).status == 0)
        let line = try imagecache(["ls", "--json", "--now", text] + store).text
        #expect(line.contains("\"created_ms\":\(milliseconds),"), "\(text): \(line)")
    }

    @Test(arguments: [
        ("4096", 4096), ("4K", 4096), ("4KiB", 4096), ("3M", 3 << 20), ("2MiB", 2 << 20), ("1G", 1 << 30),
        ("1GiB", 1 << 30),
    ])
    func sizesArePowersOf1024(text: String, bytes: Int) throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--max-bytes", text]
        // A value of exactly the limit is stored; one byte more is refused (exit 4).
        #expect(
            try imagecache(
                ["put"] + store + ["fits", "-"], input: Array(repeating: 1, count: min(bytes, 5000))
            ).status == 0)
        if bytes <= 5000 {
            let over = try imagecache(
                ["put"] + store + ["over", "-"], input: Array(repeating: 1, count: bytes + 1))
            #expect(over.status == 4)
            #expect(over.error.contains("maximumBytes of \(bytes)"))
        }
    }

    @Test func humanSizesRoundToOneDecimalInTheLargestUnit() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--now", "0"]
        let sizes = [0, 1023, 1024, 1536, 1_048_575, 1_048_576, 5_000_000]
        for (index, size) in sizes.enumerated() {
            #expect(
                try imagecache(["put"] + store + ["k\(index)", "-"], input: Array(repeating: 0, count: size))
                    .status == 0)
        }
        let shown = try imagecache(["ls"] + store).text.split(separator: "\n").map {
            $0.split(separator: "\t")[1]
        }
        #expect(shown == ["0 B", "1023 B", "1.0 KiB", "1.5 KiB", "1024.0 KiB", "1.0 MiB", "4.8 MiB"])
    }

    @Test func statJSONIsOneObject() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--now", "0"]
        #expect(try imagecache(["put"] + store + ["k", "-"], input: [1, 2, 3]).status == 0)
        let text = try imagecache(["stat", "--json"] + store).text
        #expect(text.hasSuffix("}\n") && text.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["store"] as? String == scratch.path + "/cache")
        #expect(object["kind"] as? String == "cache")
        #expect(object["backend"] as? String == "log")
        #expect(object["entries"] as? Int == 1)
        #expect(object["bytes"] as? Int == 3)
        #expect(object["expired_entries"] as? Int == 0)
        #expect((object["file_bytes"] as? Int ?? 0) > 3)
    }
}
