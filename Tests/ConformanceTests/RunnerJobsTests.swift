import Foundation
import Testing

/// Cases on several drivers at once (`--jobs`, Spec/conformance.md §6.7), and the summary by
/// area and backend (§6.1).
@Suite struct RunnerJobsTests {
    /// Passing, failing, crashing and multi-step cases, and cache scenarios on two backends.
    static let png = #"""
        {"area": "png", "cases": [
          {"name": "a", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]},
          {"name": "b", "steps": [{"request": {"op": "ok"}, "expect": {"value": 2}},
                                  {"request": {"op": "ok"}, "expect": {"value": 1}}]},
          {"name": "c", "steps": [{"request": {"op": "crash"}, "expect": {"value": 1}}]},
          {"name": "d", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}},
                                  {"request": {"op": "ok"}, "expect": {"value": 3}}]},
          {"name": "e", "steps": [{"request": {"op": "ok"}, "expect": {"value": 1}}]}
        ]}
        """#
    static let cache = #"""
        {"area": "cache", "cases": [
          {"name": "s", "steps": [{"request": {"op": "cache.open"}, "expect": {"value": 1}}]},
          {"name": "t", "steps": [{"request": {"op": "cache.open"}, "expect": {"value": 2}}]}
        ]}
        """#

    static func folder() throws -> FakeDriverFolder {
        let folder = try FakeDriverFolder(png: png, cache: cache)
        try folder.reply(
            to: "hello",
            with: #""protocol":1,"implementation":"fake","areas":["png","cache"],"backends":["log","hybrid"]"#
        )
        return folder
    }

    /// The output, request ids included, is the same with one driver or several: each case
    /// runs whole on one driver, and reports come in the cases' order.
    @Test func severalJobsPrintWhatOneJobPrints() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let one = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--jobs", "1", "--"] + folder.driverCommand)
        let four = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--jobs", "4", "--"] + folder.driverCommand)
        #expect(one.status == 1)
        #expect(four.status == 1)
        #expect(one.output == four.output)
        #expect(one.failedCases == ["png/b", "png/c", "png/d", "cache/t@log", "cache/t@hybrid"])
        // Ids follow from the cases before, however far those ran: d's second step is id 6.
        #expect(four.output.contains(#"request:  {"id":6,"op":"ok"}"#), "\(four.output)")
        let drivers = folder.requests.filter { $0.contains(#""op":"hello""#) }.count
        #expect(drivers > 2, "several drivers started: \(drivers) hellos")
    }

    @Test func theSummaryCountsEachAreaAndBackend() throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let list = try folder.write(expectedFailures: "png/c\n")
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--expected-failures", list, "--"] + folder.driverCommand)
        #expect(
            run.output.hasSuffix(
                """
                area   backend  passed  failed  xfail  skipped
                png    -             2       2      1        0
                cache  log           1       1      0        0
                cache  hybrid        1       1      0        0
                total                4       4      1        0
                1 expected failures still fail
                4 passed, 4 failed

                """), "\(run.output)")
    }

    @Test func jobsMustBeAPositiveCount() throws {
        let run = try ConformanceRun.run(["--jobs", "0", "--", "true"])
        #expect(run.status == 2)
        #expect(
            run.output.hasPrefix("conformance: --jobs needs a whole number of drivers, at least 1, not '0'\n")
        )
    }
}
