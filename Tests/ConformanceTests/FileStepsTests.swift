import Foundation
import Testing

@testable import ConformanceRunner

/// The runner's own steps (Spec/conformance.md §5.6), its JSON reader and writer (§2), and the
/// per-backend choices of cache cases (§3). Expected values are written out by hand.
@Suite struct FileStepsTests {
    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("file-steps-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: path + "/entries", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/index", contents: Data([1, 2, 3, 4])))
        try FileManager.default.createSymbolicLink(
            atPath: path + "/entries/link", withDestinationPath: "../index")
        return path
    }

    private func request(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func filesListsNamesBytesAndLinksWithoutFollowingThem() throws {
        let path = try folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let answer = FileSteps.respond(to: try request(#"{"op":"runner.files"}"#), folder: path)
        #expect(
            answer.jsonText
                == #"{"files":{"index":"AQIDBA=="},"links":{"entries/link":"../index"},"names":["entries/","entries/link","index"]}"#
        )
    }

    @Test func damageFlipsTruncatesAndAppends() throws {
        let path = try folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for step in [
            #"{"op":"runner.damage","path":"index","flip":[-1,255]}"#,
            #"{"op":"runner.damage","path":"index","truncate":-1}"#,
            #"{"op":"runner.damage","path":"index","append":"CQ=="}"#,
        ] {
            #expect(FileSteps.respond(to: try request(step), folder: path) == .object([:]))
        }
        #expect(FileManager.default.contents(atPath: path + "/index") == Data([1, 2, 3, 9]))
    }

    @Test func damageNeverLeavesTheFolder() throws {
        let path = try folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for step in [
            #"{"op":"runner.damage","path":"../outside","write":"AA=="}"#,
            #"{"op":"runner.damage","path":"/etc/passwd","flip":[0,1]}"#,
            #"{"op":"runner.damage","path":"entries/link","flip":[0,1]}"#,
        ] {
            let answer = FileSteps.respond(to: try request(step), folder: path)
            #expect(answer["error"]?.stringValue?.hasPrefix("runnerStepFailed: ") == true, "\(step)")
        }
        #expect(FileManager.default.contents(atPath: path + "/index") == Data([1, 2, 3, 4]))
    }

    /// `runner.wait` lets the time pass (it needs no folder) and refuses a period out of range.
    @Test func aWaitLetsTimePassAndRefusesAnOutOfRangePeriod() throws {
        let start = Date()
        let wait = try request(#"{"op":"runner.wait","milliseconds":20}"#)
        #expect(FileSteps.respond(to: wait, folder: nil) == .object([:]))
        #expect(Date().timeIntervalSince(start) >= 0.02)
        for step in [
            #"{"op":"runner.wait","milliseconds":0}"#, #"{"op":"runner.wait","milliseconds":1001}"#,
            #"{"op":"runner.wait"}"#,
        ] {
            let refused = FileSteps.respond(to: try request(step), folder: nil)
            let error = refused["error"]?.stringValue ?? ""
            #expect(error.hasPrefix("runnerStepFailed: runner.wait"), "\(step)")
        }
    }

    @Test func aStepWithoutAFolderFails() throws {
        let answer = FileSteps.respond(to: try request(#"{"op":"runner.files"}"#), folder: nil)
        #expect(answer["error"]?.stringValue?.hasPrefix("runnerStepFailed: no folder") == true)
    }

    @Test func theParserKeepsIntegersExactAndDecodesEscapes() throws {
        let value = try JSONValue.parse(
            Data(
                #"{"max":9223372036854775807,"min":-9223372036854775808,"half":0.5,"s":"a\u0000\ud83d\ude00\"\\/"}"#
                    .utf8))
        #expect(value["max"] == .integer(Int64.max))
        #expect(value["min"] == .integer(Int64.min))
        #expect(value["half"] == .double(0.5))
        #expect(value["s"] == .string("a\u{0}😀\"\\/"))
        #expect(
            value.jsonText
                == #"{"half":0.5,"max":9223372036854775807,"min":-9223372036854775808,"s":"a\u0000😀\"\\/"}"#)
        #expect(throws: JSONParser.SyntaxError(offset: 6, reason: "unexpected end in an object")) {
            try JSONValue.parse(Data(#"{"a":1"#.utf8))
        }
        #expect(throws: JSONParser.SyntaxError(offset: 4, reason: "text after the value")) {
            try JSONValue.parse(Data(#"[1] 2"#.utf8))
        }
    }

    @Test func aBackendChoiceIsResolvedPerBackend() throws {
        let pattern = try request(#"{"a":{"$backend":{"log":1,"$other":2}},"b":[{"$backend":{"log":"x"}}]}"#)
        #expect(CaseLoader.choose(pattern, backend: "log").jsonText == #"{"a":1,"b":["x"]}"#)
        #expect(CaseLoader.choose(pattern, backend: "hybrid").jsonText == #"{"a":2,"b":[null]}"#)
    }
}
