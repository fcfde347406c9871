import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the runner shows about a case: the difference, the note, the transcript, `--show`
/// and the JUnit report (Spec/conformance.md §6.1, §6.5, §6.6).
@Suite struct RunnerOutputTests {
    static let threeSteps = #"""
        {"area": "png", "cases": [
          {"name": "three-steps", "note": "The second answer is wrong & <noted>.", "steps": [
            {"request": {"op": "ok"}, "expect": {"value": 1}},
            {"request": {"op": "ok", "n": 2}, "expect": {"value": 2}},
            {"request": {"op": "ok", "n": 3}, "expect": {"value": 1}}]}
        ]}
        """#

    @Test func aFailingCaseShowsItsNoteAndEveryStepThatRan() throws {
        let folder = try FakeDriverFolder(png: Self.threeSteps)
        defer { folder.remove() }
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(
            run.output == """
                driver: fake; areas: png, store, cache; backends: log; 1 cases from \(folder.casesPath)
                FAIL png/three-steps
                    step 2 (ok): value: expected 2, got 1
                    note: The second answer is wrong & <noted>.
                    step 1 (ok): ok
                        request:  {"id":1,"op":"ok"}
                        expected: {"value":1}
                        response: {"id":1,"value":1}
                    step 2 (ok): FAILED
                        request:  {"id":2,"n":2,"op":"ok"}
                        expected: {"value":2}
                        response: {"id":2,"value":1}
                    step 3: not run
                area   backend  passed  failed  xfail  skipped
                png    -             0       1      0        0
                total                0       1      0        0
                0 passed, 1 failed

                """)
    }

    @Test func aByteMismatchShowsTheOffsetAndBothSidesInHex() throws {
        let folder = try FakeDriverFolder(
            png:
                #"{"area": "png", "cases": [{"name": "bytes", "steps": [{"request": {"op": "encode"}, "expect": {"png": "\#(ExpectationTests.sixtyBytes)"}}]}]}"#
        )
        defer { folder.remove() }
        try folder.reply(to: "encode", with: #""png":"\#(ExpectationTests.sixtyBytesChanged)""#)
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(
            run.output.contains(
                """
                FAIL png/bytes
                    step 1 (encode): png: bytes differ at offset 30 of 60
                        expected @14: 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d [1e] 1f 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e
                        got      @14: 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d [ff] 1f 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e
                    step 1 (encode): FAILED
                        request:  {"id":1,"op":"encode"}
                        expected: {"png":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIj…(80 chars)"}
                        response: {"id":1,"png":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd/x8gISIj…(80 chars)"}
                """), "\(run.output)")
    }

    @Test func showRunsOneCaseAndPrintsItsExactTranscriptEvenWhenItPasses() throws {
        let blob = ExpectationTests.sixtyBytes
        let folder = try FakeDriverFolder(
            png: #"""
                {"area": "png", "cases": [
                  {"name": "other", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]},
                  {"name": "fine", "note": "Answers one.", "steps": [{"request": {"op": "ok", "blob": "\#(blob)"}, "expect": {"value": 1}}]}
                ]}
                """#)
        defer { folder.remove() }
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--show", "png/fine", "--"] + folder.driverCommand)
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 9, "\(run.output)")
        #expect(lines[0].hasSuffix("1 cases from \(folder.casesPath)"))
        #expect(lines[1].hasPrefix("ok   png/fine ("))
        #expect(
            Array(lines[2...]) == [
                "    note: Answers one.",
                "    step 1 (ok): ok",
                #"        request:  {"blob":"\#(blob)","id":1,"op":"ok"}"#,
                #"        expected: {"value":1}"#,
                #"        response: {"id":1,"value":1}"#,
                "1 passed, 0 failed",
                "",
            ])
        // Only the case shown ran.
        #expect(folder.requests.count == 2)
    }

    @Test func showWithoutABackendRunsACacheScenarioOnEveryBackend() throws {
        let folder = try FakeDriverFolder(
            png: #"{"area": "png", "cases": []}"#,
            cache:
                #"{"area": "cache", "cases": [{"name": "scenario", "steps": [{"request": {"op": "cache.open"}, "expect": {"value": 1}}]}]}"#
        )
        defer { folder.remove() }
        try folder.reply(
            to: "hello",
            with: #""protocol":1,"implementation":"fake","areas":["cache"],"backends":["log","hybrid"]"#)
        let every = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--show", "cache/scenario", "--"] + folder.driverCommand)
        let headings = every.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }
        #expect(
            headings.map { $0.components(separatedBy: " (")[0] } == [
                "ok   cache/scenario@log", "ok   cache/scenario@hybrid",
            ])
        let one = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--show", "cache/scenario@hybrid", "--"] + folder.driverCommand)
        #expect(
            one.output.contains(#"request:  {"backend":"hybrid","id":1,"op":"cache.open"}"#), "\(one.output)")
        #expect(one.counts?.passed == 1)
    }

    @Test func showOfAnUnknownCaseStopsWithStatus2AndSuggestsNames() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--show", "png/fin", "--"] + folder.driverCommand)
        #expect(run.status == 2)
        #expect(run.output == "conformance: no case is named png/fin; similar: png/fine\n")
        let mixed = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--show", "png/fine", "--filter", "x", "--"] + folder.driverCommand)
        #expect(mixed.status == 2)
        #expect(
            mixed.output.hasPrefix(
                "conformance: --show names its cases; it cannot be combined with --area or --filter\n"))
    }

    #if canImport(FoundationXML) || canImport(Darwin)
        @Test func junitHasATestcasePerCaseWithFailuresAndSkipsAndIsValidXML() throws {
            let folder = try FakeDriverFolder(
                png: #"""
                    {"area": "png", "cases": [
                      {"name": "control", "steps": [{"request": {"op": "control"}, "expect": {"value": 1}}]},
                      {"name": "fine", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]},
                      {"name": "odd<&>\"'", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]},
                      {"name": "wrong", "steps": [{"request": {"op": "ok"}, "expect": {"value": 2}}]},
                      {"name": "xfail", "steps": [{"request": {"op": "crash"}, "expect": {"value": 1}}]}
                    ]}
                    """#,
                cache:
                    #"{"area": "cache", "cases": [{"name": "scenario", "steps": [{"request": {"op": "cache.open"}, "expect": {}}]}]}"#
            )
            defer { folder.remove() }
            try folder.reply(
                to: "hello", with: #""protocol":1,"implementation":"fake","areas":["png"],"backends":["log"]"#
            )
            let list = try folder.write(expectedFailures: "png/xfail\npng/gone\n")
            let junit = folder.url.appendingPathComponent("report.xml")
            let run = try ConformanceRun.run(
                ["--cases", folder.casesPath, "--expected-failures", list, "--junit", junit.path, "--"]
                    + folder.driverCommand)
            #expect(run.status == 1)
            let document = try XMLDocument(contentsOf: junit, options: [])
            let root = try #require(document.rootElement())
            #expect(root.name == "testsuites")
            #expect(
                ["tests", "failures", "skipped", "errors"].map { root.attribute(forName: $0)?.stringValue }
                    == [
                        "7", "3", "2", "0",
                    ])
            let suites = try document.nodes(forXPath: "/testsuites/testsuite").compactMap {
                $0 as? XMLElement
            }
            #expect(
                suites.map { $0.attribute(forName: "name")?.stringValue } == [
                    "png", "cache@log", "expected-failures",
                ])
            let testcases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
            func outcome(_ element: XMLElement) -> String {
                if let failure = element.elements(forName: "failure").first {
                    return "failure: " + (failure.attribute(forName: "message")?.stringValue ?? "")
                }
                if let skipped = element.elements(forName: "skipped").first {
                    return "skipped: " + (skipped.attribute(forName: "message")?.stringValue ?? "")
                }
                return "passed"
            }
            let results = testcases.map { ($0.attribute(forName: "name")?.stringValue ?? "", outcome($0)) }
            let expected: [(String, String)] = [
                (
                    "png/control",
                    "failure: step 1 (control): the response is not a JSON object: not JSON \\u{1}\\u{1B}[0m <&>; it was restarted"
                ),
                ("png/fine", "passed"),
                ("png/odd<&>\"'", "passed"),
                ("png/wrong", "failure: step 1 (ok): value: expected 2, got 1"),
                (
                    "png/xfail",
                    "skipped: expected failure (listed as png/xfail): step 1 (crash): the driver was killed by signal 9; it was restarted"
                ),
                ("cache/scenario@log", "skipped: the driver does not implement the area cache"),
                ("png/gone", "failure: 'png/gone' names no case; remove it from the list"),
            ]
            #expect(results.map(\.0) == expected.map(\.0))
            #expect(results.map(\.1) == expected.map(\.1))
            // The failure's text is the report the console shows, transcript included.
            let wrong = try #require(
                testcases.first { $0.attribute(forName: "name")?.stringValue == "png/wrong" })
            #expect(
                wrong.elements(forName: "failure").first?.stringValue == """
                    step 1 (ok): value: expected 2, got 1
                    step 1 (ok): FAILED
                        request:  {"id":4,"op":"ok"}
                        expected: {"value":2}
                        response: {"id":4,"value":1}
                    """)
        }
    #endif

    @Test func aJUnitFileThatCannotBeWrittenStopsTheRunBeforeItStarts() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--junit", "/nonexistent/folder/report.xml", "--"]
                + folder.driverCommand)
        #expect(run.status == 2)
        #expect(
            run.output
                == "conformance: cannot write the JUnit report /nonexistent/folder/report.xml: its folder /nonexistent/folder is missing or not writable\n"
        )
        #expect(folder.requests.isEmpty)
    }
}
