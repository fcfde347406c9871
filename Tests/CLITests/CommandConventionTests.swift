import Checksums
import Foundation
import TestSupport
import Testing

/// What every command does the same way, so the tool behaves as a user expects: one default
/// store, help on every command, `--` before a key and `-` for standard input and output, keys
/// escaped in listings, ISO times and human sizes, exit statuses that tell a miss from damage,
/// one-line errors, destinations checked before a long run. Each test once failed: a new user
/// hit it (issues 10 and 14) before the command line was rebuilt around one store argument and
/// one option parser.
@Suite struct CommandConventionTests {
    /// Without `--store`, put/get/ls used `imagecache/store.log` while purge and clear used
    /// `imagecache/log/`, so `clear` exited 0 and cleared nothing.
    @Test func everyCommandUsesTheSameDefaultStore() throws {
        let scratch = TemporaryDirectory()
        let environment = ["XDG_CACHE_HOME": scratch.path + "/xdg"]
        #expect(try imagecache(["put", "k", "-"], input: [1, 2], environment: environment).status == 0)
        #expect(try imagecache(["ls"], environment: environment).text.hasPrefix("k\t2 B\t"))
        #expect(try imagecache(["purge"], environment: environment).text == "purged 0 expired entries\n")
        #expect(try imagecache(["clear"], environment: environment).text == "cleared 1 entries\n")
        #expect(try imagecache(["get", "k"], environment: environment).status == 1)
        #expect(try imagecache(["ls"], environment: environment).text == "")
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/xdg/imagecache/cache.log"))
        // A relative XDG_CACHE_HOME is ignored, as the XDG specification says: ~/.cache it is.
        let home = ["XDG_CACHE_HOME": "relative", "HOME": scratch.path + "/home"]
        #expect(try imagecache(["put", "h", "-"], input: [3], environment: home).status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.path + "/home/.cache/imagecache/cache.log"))
        #expect(try imagecache(["get", "h"], environment: home).output == [3])
    }

    /// `put --help` said "unknown option --help"; `png info --help` opened a file named `--help`.
    @Test(arguments: [
        ["put"], ["get"], ["rm"], ["ls"], ["stat"], ["verify"], ["compact"], ["purge"], ["clear"], ["png"],
        ["png", "decode"], ["png", "encode"], ["png", "info"], ["bench"], ["help"],
    ])
    func everyCommandHasHelp(command: [String]) throws {
        let viaHelp = try imagecache(["help"] + command)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.text.hasPrefix("usage: imagecache \(command.joined(separator: " "))"))
        #expect(viaHelp.error.isEmpty)
        for flag in ["--help", "-h"] {
            let outcome = try imagecache(command + [flag])
            #expect(outcome.status == 0, "\(command) \(flag): \(outcome.error)")
            #expect(outcome.text == viaHelp.text)
            #expect(outcome.error.isEmpty)
        }
        // Anywhere before `--`, even among operands that would otherwise be an error.
        #expect(try imagecache(command + ["some", "--no-such-option", "-h", "words"]).text == viaHelp.text)
    }

    /// A key that starts with `--` could not be used.
    @Test func aKeyThatStartsWithDashesWorksAfterDoubleDash() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache"]
        #expect(try imagecache(["put"] + store + ["--", "--key", "-"], input: [9]).status == 0)
        #expect(try imagecache(["put"] + store + ["--", "-h", "-"], input: [8]).status == 0)
        #expect(try imagecache(["get"] + store + ["--", "--key"]).output == [9])
        #expect(try imagecache(["get"] + store + ["--", "-h"]).output == [8])
        #expect(
            try imagecache(["ls"] + store).text.split(separator: "\n").map { $0.prefix { $0 != "\t" } } == [
                "--key", "-h",
            ])
        #expect(try imagecache(["rm"] + store + ["--", "--key"]).status == 0)
        let unguarded = try imagecache(["get"] + store + ["--key"])
        #expect(unguarded.status == 2)
        #expect(
            unguarded.error.contains("unknown option --key (put -- before an operand that starts with -)"))
    }

    /// Keys with tabs or newlines broke the `ls` output; NFC and NFD keys looked the same.
    @Test func listedKeysAreEscapedAndJSONKeepsThemExact() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--now", "0"]
        let keys: [(key: String, shown: String)] = [
            ("tab\there", "tab\\there"), ("new\nline", "new\\nline"), ("cr\r", "cr\\r"),
            ("back\\slash", "back\\\\slash"), ("bell\u{07}", "bell\\x07"), ("\u{7F}del", "\\x7Fdel"),
            ("caf\u{E9}", "caf\\u{E9}"), ("cafe\u{301}", "cafe\\u{301}"), ("quote\"'", "quote\"'"),
        ]
        for (key, _) in keys {
            #expect(try imagecache(["put"] + store + ["--", key, "-"]).status == 0)
        }
        let expected = keys.enumerated().sorted {
            $0.element.key.utf8.lexicographicallyPrecedes($1.element.key.utf8)
        }
        .map { "\($0.element.shown)\t0 B\t1970-01-01T00:00:00.000Z\tnever\t\($0.offset + 1)\n" }.joined()
        #expect(try imagecache(["ls"] + store).text == expected)
        let json = try imagecache(["ls", "--json"] + store).text.split(separator: "\n")
        let decoded = try json.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            decoded.compactMap { $0["key"] as? String }.map { Array($0.utf8) }
                == keys.map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
                    Array($0.utf8)
                })
        #expect(decoded.allSatisfy { $0["expires_ms"] is NSNull && ($0["bytes"] as? Int) == 0 })
    }

    /// `ls` printed raw millisecond times, and no size in cache mode; `--ttl 3600` meant seconds
    /// where the API took milliseconds.
    @Test func listingShowsISOTimesHumanSizesAndDurationsHaveUnits() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache", "--backend", "directory"]
        let start = ["--now", "2024-05-01T14:00:00+02:00"]
        #expect(
            try imagecache(
                ["put"] + store + start + ["--ttl", "90m", "a", "-"], input: Array(repeating: 0, count: 4096)
            ).status == 0)
        #expect(
            try imagecache(
                ["put"] + store + start + ["--ttl", "3600", "b", "-"], input: Array(repeating: 0, count: 1536)
            ).status == 0)
        #expect(
            try imagecache(["put"] + store + start + ["--max-age", "7d", "c", "-"], input: [1]).status == 0)
        #expect(
            try imagecache(["ls"] + store + start).text
                == "a\t4.0 KiB\t2024-05-01T12:00:00.000Z\t2024-05-01T13:30:00.000Z\t1\n"
                + "b\t1.5 KiB\t2024-05-01T12:00:00.000Z\t2024-05-01T13:00:00.000Z\t2\n"
                + "c\t1 B\t2024-05-01T12:00:00.000Z\t2024-05-08T12:00:00.000Z\t3\n")
        let json = try imagecache(["ls", "--json"] + store + start).text.split(separator: "\n").first
        #expect(
            json
                == #"{"key":"a","bytes":4096,"created_ms":1714564800000,"expires_ms":1714570200000,"access_sequence":1}"#
        )
    }

    /// `get` exited 1 both for a missing key and for a corrupt record.
    @Test func getTellsAMissFromDamage() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        let value = [UInt8](repeating: 0x5A, count: 100)
        #expect(try imagecache(["put", "--store", folder, "k", "-"], input: value).status == 0)
        // A miss leaves OUT as it was (here: absent), and no temporary file beside it.
        let out = scratch.path + "/out"
        #expect(try imagecache(["get", "--store", folder, "absent", out]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["cache"])
        let log = URL(fileURLWithPath: folder + "/cache.log")
        var bytes = [UInt8](try Data(contentsOf: log))
        let start = try #require(bytes.firstRange(of: value)?.lowerBound)
        bytes[start + 50] ^= 0x01
        try Data(bytes).write(to: log)
        // Read-only, the damage is reported and the entry stays; a normal get removes it (Spec/cache.md §8.2).
        let readOnly = try imagecache(["get", "--store", folder, "--read-only", "k"])
        #expect(readOnly.status == 3)
        #expect(readOnly.errorLines.count == 1 && readOnly.error.contains("is damaged"))
        try Data([1]).write(to: URL(fileURLWithPath: out))
        let damaged = try imagecache(["get", "--store", folder, "k", out])
        #expect(damaged.status == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data([1]))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["cache", "out"])
        #expect(damaged.errorLines.count == 1 && damaged.error.contains("is corrupt"))
        #expect(damaged.output.isEmpty)
        #expect(try imagecache(["get", "--store", folder, "k"]).status == 1)
    }

    /// `rm` of a missing key was silent and exited 0.
    @Test func removingAMissingKeyExitsOne() throws {
        let scratch = TemporaryDirectory()
        for store in [scratch.path + "/cache", scratch.path + "/never-made"] {
            if store.hasSuffix("cache") {
                #expect(try imagecache(["put", "--store", store, "present", "-"]).status == 0)
            }
            let outcome = try imagecache(["rm", "--store", store, "absent"])
            #expect(outcome.status == 1)
            #expect(outcome.errorLines == ["imagecache rm: no entry for key 'absent' (absent or expired)"])
        }
        // rm of a missing key in a folder with no cache created nothing.
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/never-made"))
    }

    /// `png decode IN -` wrote a file named `-`.
    @Test func dashIsStandardInputAndOutputForPNG() throws {
        let scratch = TemporaryDirectory()
        let pam =
            Array("P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
            + [1, 2, 3, 4, 5, 6, 7, 8]
        let encoded = try imagecache(["png", "encode", "-", "-"], input: pam, directory: scratch.path)
        #expect(encoded.status == 0)
        #expect(encoded.output.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let decoded = try imagecache(
            ["png", "decode", "-", "-"], input: encoded.output, directory: scratch.path)
        #expect(decoded.output == pam)
        let info = try imagecache(["png", "info", "-"], input: encoded.output, directory: scratch.path)
        #expect(info.text.hasPrefix("width: 2\nheight: 1\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// `png info /tmp` printed "NSCocoaErrorDomain error 256".
    @Test func aDirectoryGivenAsAFileIsOneClearLine() throws {
        let scratch = TemporaryDirectory()
        let cases: [([String], String)] = [
            (
                ["png", "info", scratch.path],
                "imagecache png info: cannot read \(scratch.path): Is a directory"
            ),
            (
                ["png", "decode", scratch.path, "-"],
                "imagecache png decode: cannot read \(scratch.path): Is a directory"
            ),
            (
                ["put", "--store", scratch.path + "/c", "k", scratch.path],
                "imagecache put: cannot read \(scratch.path): Is a directory"
            ),
        ]
        for (arguments, line) in cases {
            let outcome = try imagecache(arguments)
            #expect(outcome.status == 4)
            #expect(outcome.errorLines == [Substring(line)])
        }
        #expect(try imagecache(["put", "--store", scratch.path + "/c", "k", "-"], input: [1]).status == 0)
        let output = try imagecache(["get", "--store", scratch.path + "/c", "k", scratch.path])
        #expect(output.status == 4)
        #expect(output.errorLines == ["imagecache get: cannot write \(scratch.path): Is a directory"])
    }

    /// `bench --markdown missing-dir/x.md` ran the whole benchmark, then failed.
    @Test func benchChecksItsDestinationsBeforeRunning() throws {
        let scratch = TemporaryDirectory()
        let cases: [([String], String)] = [
            (
                ["--markdown", scratch.path + "/missing/x.md"],
                "--markdown: cannot write \(scratch.path)/missing/x.md: No such file or directory"
            ),
            (["--svg", scratch.path], "--svg: cannot write \(scratch.path): Is a directory"),
            (
                ["--scratch", scratch.path + "/nope"],
                "--scratch: cannot write \(scratch.path)/nope: No such file or directory"
            ),
            (["--out", "/proc/version/x"], "--out: cannot write /proc/version/x: Not a directory"),
        ]
        for (options, message) in cases {
            let outcome = try imagecache(["bench", "--quick"] + options + ["png"])
            #expect(outcome.status == 4, "\(options): \(outcome.error)")
            #expect(outcome.errorLines == ["imagecache bench: \(message)"])
            #expect(outcome.output.isEmpty)
        }
        // A failed check makes nothing: --out DIR is created only when every check passed.
        let made = scratch.path + "/made/deeper"
        #expect(
            try imagecache(["bench", "--out", made, "--markdown", scratch.path + "/missing/x.md"]).status == 4
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/made"))
    }

    /// `bench png bad.png` did not name the bad file.
    @Test func benchPNGNamesTheFileThatFails() throws {
        let scratch = TemporaryDirectory()
        let good = scratch.path + "/good.png"
        let encoded = try imagecache(
            ["png", "encode", "-", good],
            input: Array("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n".utf8) + [
                7
            ])
        #expect(encoded.status == 0)
        let bad = scratch.path + "/bad.png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: bad))
        let outcome = try imagecache(["bench", "--quick", "png", good, bad])
        #expect(outcome.status == 3)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.error.hasPrefix("imagecache bench: \(bad): PNG error invalidSignature"))
        #expect(outcome.output.isEmpty)
        let missing = try imagecache(["bench", "--quick", "png", scratch.path + "/missing.png"])
        #expect(missing.status == 4)
        #expect(
            missing.errorLines == [
                "imagecache bench: cannot read \(scratch.path)/missing.png: No such file or directory"
            ])
    }

    /// `imagecache --help` left out `--max-age`, `--max-entries` and `--now`.
    @Test func toolHelpListsEveryOptionOfEveryCommand() throws {
        let help = try imagecache(["--help"])
        #expect(help.status == 0)
        #expect(try imagecache(["help"]).text == help.text)
        let commands = [
            "put", "get", "rm", "ls", "stat", "verify", "compact", "purge", "clear", "png decode",
            "png encode", "png info", "bench", "help",
        ]
        for command in commands {
            let own = try imagecache(["help"] + command.split(separator: " ").map(String.init)).text
            #expect(help.text.contains("  \(command) "), "\(command)")
            // Every option line of the command's own help appears in the tool's help.
            let options = own.split(separator: "\n").filter { $0.hasPrefix("  --") }.map {
                $0.dropFirst(2).prefix { $0 != " " }
            }
            for option in options {
                #expect(help.text.contains(option), "\(command) \(option)")
            }
        }
        for option in [
            "--max-age DURATION", "--max-entries N", "--now TIME", "--read-only", "--json", "--ttl DURATION",
            "--max-bytes SIZE",
        ] {
            #expect(help.text.contains(option), "\(option)")
        }
        for status in [
            "0  success", "1  not found", "2  usage error", "3  damaged data", "4  any other failure",
        ] {
            #expect(help.text.contains(status))
        }
        // Alone, the tool prints the command list on standard error and exits 2.
        let bare = try imagecache([])
        #expect(bare.status == 2 && bare.output.isEmpty && bare.error.hasPrefix("usage: imagecache COMMAND"))
    }

    /// A damaged (here: newer) store said to open it read-only, but no command could.
    @Test func aStoreThatOnlyOpensReadOnlyCanBeInspected() throws {
        let scratch = TemporaryDirectory()
        let store = StoreCommandTests.emptyStore(in: scratch)
        #expect(
            try imagecache(["put", "--store", store, "--now", "0", "k", "-"], input: [4, 2]).status == 0)
        try LogStoreFile.setMinorVersion(1, ofStoreAt: store)
        let put = try imagecache(["put", "--store", store, "other", "-"], input: [1])
        #expect(put.status == 4)
        #expect(put.error.contains("can only open it read-only"))
        for command in ["ls", "stat", "verify"] {
            #expect(
                try imagecache([command, "--store", store, "--read-only", "--now", "0"]).status == 0,
                "\(command)")
        }
        #expect(
            try imagecache(["ls", "--store", store, "--read-only", "--now", "0"]).text.hasPrefix("k\t2 B\t"))
        #expect(try imagecache(["get", "--store", store, "--read-only", "k"]).output == [4, 2])
    }
}

/// Edits of a log store file's header for tests (`Spec/store.md` §2).
enum LogStoreFile {
    /// Sets the header's minor version and recomputes the header checksum (bytes 24–31 over 0–23).
    static func setMinorVersion(_ minor: UInt16, ofStoreAt path: String) throws {
        let url = URL(fileURLWithPath: path)
        var bytes = [UInt8](try Data(contentsOf: url))
        try #require(bytes.count >= 32, "\(path) holds no store header")
        bytes[10] = UInt8(minor & 0xFF)
        bytes[11] = UInt8(minor >> 8)
        let checksum = XXH3.checksum(of: bytes[0..<24])
        for index in 0..<8 { bytes[24 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index)) }
        try Data(bytes).write(to: url)
    }
}
