import Foundation
import Testing

/// Closed pipes on either side of the runner (Spec/conformance.md §6.1, §6.3): the runner
/// stops quietly with status 3 when nobody reads its output, and fails only the case when
/// the driver stops reading its input.
@Suite struct RunnerPipeTests {
    @Test func aRunWhoseOutputIsClosedStopsQuietlyWithStatus3() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok"), ("wrong", "garbage")])
        defer { folder.remove() }
        let run = try ConformanceRun.runIntoPipe(
            ["--cases", folder.casesPath, "--"] + folder.driverCommand, closedFirst: true)
        #expect(run.status == 3)
        #expect(run.errors == "")
        // The first write is the heading, after the handshake and before any case.
        #expect(folder.requests.count == 1)
    }

    @Test func listIntoAClosedPipeStopsQuietlyWithStatus3() throws {
        let folder = try FakeDriverFolder(cases: [("fine", "ok")])
        defer { folder.remove() }
        let run = try ConformanceRun.runIntoPipe(["--cases", folder.casesPath, "--list"], closedFirst: true)
        #expect(run.status == 3)
        #expect(run.errors == "")
    }

    /// Like `conformance … | head -1`: the reader leaves after the heading, while every case
    /// passes and the runner has nothing more to print until the end. It must stop before the
    /// next case rather than run the whole suite for nobody.
    @Test func aReaderThatLeavesMidRunStopsTheRunBeforeTheNextCase() throws {
        let folder = try FakeDriverFolder(cases: [("gated", "gate"), ("after", "ok")])
        defer { folder.remove() }
        var heading: String?
        let run = try ConformanceRun.runIntoPipe(
            ["--cases", folder.casesPath, "--jobs", "1", "--"] + folder.driverCommand
        ) {
            reading in
            heading = reading.readLine()
            // Leave while the first case runs: the driver holds its answer until the gate opens.
            let patience = Date().addingTimeInterval(60)
            while !folder.requests.contains(where: { $0.contains(#""op":"gate""#) }) && Date() < patience {
                usleep(10_000)
            }
            try reading.close()
            try folder.openGate()
        }
        #expect(heading?.hasPrefix("driver: fake;") == true)
        #expect(run.status == 3)
        #expect(run.errors == "")
        #expect(folder.requests.count == 2)
        #expect(folder.requests.last?.contains(#""op":"gate""#) == true)
    }

    @Test func aDriverThatStopsReadingItsInputFailsOnlyThatCase() throws {
        let folder = try FakeDriverFolder(
            png: #"""
                {"area": "png", "cases": [
                  {"name": "deaf", "steps": [{"request": {"op": "deaf"}, "expect": {"value": 1}},
                                             {"request": {"op": "ok"}, "expect": {"value": 1}}]},
                  {"name": "after", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]}
                ]}
                """#)
        defer { folder.remove() }
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--timeout", "20", "--"] + folder.driverCommand)
        #expect(run.status == 1)
        #expect(run.failedCases == ["png/deaf"])
        #expect(
            run.output.contains("    step 2 (ok): the driver stopped reading its input; it was restarted\n"))
        #expect(run.output.contains("    step 2 (ok): FAILED\n        request:  {\"id\":2,\"op\":\"ok\"}\n"))
        #expect(run.counts?.passed == 1)
    }

    #if os(Linux)
        /// The runner survives SIGPIPE by catching it; its driver must start with the default (§6.1).
        @Test func theDriverStartsWithTheDefaultBrokenPipeSignal() throws {
            // The case fails on purpose, so that the report shows the driver's mask of ignored signals.
            let folder = try FakeDriverFolder(
                png:
                    #"{"area": "png", "cases": [{"name": "signals", "steps": [{"request": {"op": "signals"}, "expect": {"ignored": ""}}]}]}"#
            )
            defer { folder.remove() }
            let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
            let line = try #require(
                run.output.split(separator: "\n").first { $0.contains("ignored: expected") })
            let hex = try #require(
                line.components(separatedBy: "got \"").dropFirst().first?.prefix { $0 != "\"" })
            let mask = try #require(UInt64(hex, radix: 16), "\(line)")
            #expect(mask & (1 << (SIGPIPE - 1)) == 0, "\(line)")
        }
    #endif
}
