import Foundation
import Testing

/// Our driver against the whole suite: it must pass on every backend, and every fault switch
/// must make the suite fail (Spec/conformance.md §9). A suite that cannot fail proves nothing.
@Suite struct DriverTests {
    static let backends = ["dictionary", "directory", "log", "hybrid"]

    /// The areas whose rules each fault breaks, so a fault run needs only those cases.
    static let faults: [(fault: String, areas: [String])] = [
        ("skip-expiry-extension", ["cache"]),
        ("value-checksums-unchecked", ["store"]),
        ("evict-wrong-entry", ["cache"]),
        ("wrong-adler32", ["png"]),
        ("keep-removed-key-after-compaction", ["store", "cache"]),
    ]

    @Test(arguments: backends)
    func everyCasePassesOn(backend: String) throws {
        let run = try ConformanceRun.run([
            "--cases", ConformanceRun.cases, "--expected-failures", ConformanceRun.expectedFailures,
            "--", ConformanceRun.driver, "--backend", backend,
        ])
        #expect(run.failedCases == [], "\(run.output)")
        #expect(run.status == 0)
        let counts = try #require(run.counts)
        #expect(counts.failed == 0)
        #expect(counts.passed > 300)
        #expect(
            !run.output.contains("in areas the driver does not support"),
            "the driver must implement every area")
    }

    @Test(arguments: faults.map(\.fault))
    func theSuiteCatchesFault(_ fault: String) throws {
        let areas = Self.faults.first { $0.fault == fault }!.areas
        // With the known failures excused, every failure reported is the fault's doing.
        var arguments = [
            "--cases", ConformanceRun.cases, "--expected-failures", ConformanceRun.expectedFailures,
            "--backend", "log",
        ]
        for area in areas { arguments += ["--area", area] }
        let run = try ConformanceRun.run(arguments + ["--", ConformanceRun.driver, "--fault", fault])
        #expect(run.status == 1)
        let counts = try #require(run.counts)
        #expect(counts.failed > 0, "no case noticed the fault \(fault)")
        #expect(run.failedCases.count == counts.failed)
    }

    @Test func theDriverAnswersUnknownRequestsWithUnsupported() throws {
        let folder = try FakeDriverFolder(cases: [])
        defer { folder.remove() }
        let file = URL(fileURLWithPath: folder.casesPath).appendingPathComponent("png/fake.json")
        try """
        {"area": "png", "cases": [
          {"name": "unknown", "steps": [{"request": {"op": "png.sharpen"}, "expect": {"error": "unsupported"}}]},
          {"name": "malformed", "steps": [{"request": {"op": "png.encode", "width": "wide"}, "expect": {"error": {"$oneOf": ["x"]}}}]}
        ]}
        """.write(to: file, atomically: true, encoding: .utf8)
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--", ConformanceRun.driver])
        #expect(run.failedCases == ["png/malformed"])
        #expect(run.output.contains("badRequest"))
        #expect(run.counts?.passed == 1)
    }
}
