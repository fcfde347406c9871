import Foundation
import Testing

/// The runner itself, against fake drivers that crash, hang or lie (Spec/conformance.md §6).
@Suite struct RunnerTests {
    @Test func aHangingDriverFailsItsCaseAndTheRunGoesOn() throws {
        let folder = try FakeDriverFolder(cases: [("hangs", "hang"), ("after-hang", "ok")])
        defer { folder.remove() }
        let started = Date()
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--timeout", "2", "--"] + folder.driverCommand)
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.status == 1)
        #expect(run.failedCases == ["png/hangs"])
        #expect(run.output.contains("no response within the time limit"))
        #expect(run.counts?.passed == 1)
        #expect(run.counts?.failed == 1)
    }

    /// A request larger than a pipe's buffer, to a driver that answered the step before and
    /// then stopped reading: the runner's write must give up at the time limit (it used to
    /// wait for ever).
    @Test func aDriverThatStopsReadingALargeRequestFailsItsCaseAndTheRunGoesOn() throws {
        let padding = String(repeating: "x", count: 300_000)
        let folder = try FakeDriverFolder(
            png: """
                {"area": "png", "cases": [
                {"name": "stalls", "steps": [{"request": {"op": "stall"}, "expect": {"value": 1}},
                  {"request": {"op": "big", "padding": "\(padding)"}, "expect": {"value": 1}}]},
                {"name": "after-stall", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]}]}

                """)
        defer { folder.remove() }
        let started = Date()
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--timeout", "2", "--jobs", "1", "--"] + folder.driverCommand)
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(run.status == 1)
        #expect(run.failedCases == ["png/stalls"])
        #expect(
            run.output.contains(
                "step 2 (big): the driver did not take the whole request within the time limit"))
        #expect(run.counts?.passed == 1)
        #expect(run.counts?.failed == 1)
    }

    @Test func aCrashingDriverFailsItsCaseAndIsRestarted() throws {
        let folder = try FakeDriverFolder(cases: [
            ("before", "ok"), ("crashes", "crash"), ("after-crash", "ok"),
        ])
        defer { folder.remove() }
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(run.failedCases == ["png/crashes"])
        #expect(run.output.contains("killed by signal 9"))
        #expect(run.output.contains("crashing on purpose"))
        #expect(run.counts?.passed == 2)
        #expect(run.counts?.failed == 1)
    }

    @Test func aResponseThatIsNotJSONFailsTheCase() throws {
        let folder = try FakeDriverFolder(cases: [("garbage", "garbage"), ("after-garbage", "ok")])
        defer { folder.remove() }
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.failedCases == ["png/garbage"])
        #expect(run.output.contains("not a JSON object"))
        #expect(run.counts?.passed == 1)
    }

    @Test func aMismatchPrintsTheCaseTheExpectationAndTheActualResponse() throws {
        let folder = try FakeDriverFolder(cases: [("mismatch", "ok")])
        defer { folder.remove() }
        // The fake answers {"value": 1}; expect something else by rewriting the case.
        let file = URL(fileURLWithPath: folder.casesPath).appendingPathComponent("png/fake.json")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "\"value\": 1", with: "\"value\": 2")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(run.output.contains("FAIL png/mismatch"))
        #expect(run.output.contains("value: expected 2, got 1"))
        #expect(run.output.contains("expected: {\"value\":2}"))
        #expect(run.output.hasSuffix("0 passed, 1 failed\n"))
    }

    @Test func anExpectedFailureThatStillFailsDoesNotFailTheRun() throws {
        let folder = try FakeDriverFolder(cases: [("crashes", "crash"), ("fine", "ok")])
        defer { folder.remove() }
        let list = try folder.write(expectedFailures: "# known\npng/crashes\n")
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--expected-failures", list, "--"] + folder.driverCommand)
        #expect(run.status == 0)
        #expect(run.output.contains("1 expected failures still fail"))
        #expect(run.counts?.passed == 1)
        #expect(run.counts?.failed == 0)
    }

    @Test func aStaleExpectedFailureIsReported() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let list = try folder.write(expectedFailures: "png/fine\npng/no-such-case  # gone\n")
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--expected-failures", list, "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(run.output.contains("listed as an expected failure (png/fine) but it passes now"))
        #expect(run.output.contains("'png/no-such-case' names no case"))
        #expect(run.counts?.passed == 0)
        #expect(run.counts?.failed == 2)
    }

    @Test func aDriverThatCannotStartStopsTheRunWithStatus2() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--", "false"])
        #expect(run.status == 2)
        #expect(run.output.contains("before answering hello"))
    }

    /// The driver's last words arrive on another pipe than its end of output; the report must
    /// wait for them (the old runner lost them in about 2 runs of 100).
    @Test func aDriverThatExitsBeforeHelloIsReportedWithWhatItWroteOnStandardError() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        for _ in 0..<5 {
            let run = try ConformanceRun.run(
                ["--cases", folder.casesPath, "--", "sh", "-c", "echo no config found >&2; exit 1"])
            #expect(run.status == 2)
            #expect(
                run.output
                    == "conformance: the driver exited with status 1 before answering hello; it wrote: no config found\n"
            )
        }
    }

    @Test func aMissingDriverIsOneLineThatNamesThePathAndSuggestsBuilding() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent(".build/debug/conformance-driver").path
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--", missing, "--backend", "log"])
        #expect(run.status == 2)
        #expect(
            run.output
                == "conformance: the driver \(missing) does not exist; build it first (swift build) or check the path\n"
        )
    }

    @Test func aDriverThatIsNotExecutableOrNotOnPathIsOneLineWithStatus2() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let script = folder.url.appendingPathComponent("driver.sh").path
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--", script])
        #expect(run.status == 2)
        #expect(
            run.output
                == "conformance: the driver \(script) is not executable; make it executable (chmod +x) or name its interpreter first (-- python3 \(script))\n"
        )
        let unknown = try ConformanceRun.run([
            "--cases", folder.casesPath, "--", "no-such-driver-\(getpid())",
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.output
                == "conformance: the driver command no-such-driver-\(getpid()) is not on PATH; give its path instead (for example ./no-such-driver-\(getpid()))\n"
        )
    }

    /// The spec's Python example is a real driver: it passes every encoding case.
    @Test(.enabled(if: RunnerTests.pythonIsInstalled, "needs python3 on PATH"))
    func theExampleDriverPassesTheEncodingCases() throws {
        let example = URL(fileURLWithPath: ConformanceRun.cases).appendingPathComponent(
            "tools/drivers/example_driver.py"
        ).path
        let run = try ConformanceRun.run([
            "--cases", ConformanceRun.cases, "--filter", "png/encode/", "--", "python3", example,
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.counts?.passed == 50)
        #expect(run.counts?.failed == 0)
    }

    static let pythonIsInstalled: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "pass"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test func theSpecShowsTheExampleDriverVerbatim() throws {
        let root = URL(fileURLWithPath: ConformanceRun.cases).deletingLastPathComponent()
        let spec = try String(contentsOf: root.appendingPathComponent("Spec/conformance.md"), encoding: .utf8)
        let example = try String(
            contentsOf: root.appendingPathComponent("Conformance/tools/drivers/example_driver.py"),
            encoding: .utf8)
        #expect(spec.contains(example.trimmingCharacters(in: .newlines)))
        #expect(example.split(separator: "\n").count <= 150)
    }
}
