import Foundation
import Testing

/// `imagecache bench` argument handling; the benchmarks' output is checked in BenchmarksTests.
@Suite struct BenchCommandTests {
    /// Options after the suite name are options, not operands: before this was so,
    /// `bench store --quick` ran the full suite in a folder named `--quick`.
    @Test func optionsAfterTheSuiteNameAreParsedAsOptions() throws {
        let outcome = try imagecache(["bench", "store", "--no-such-option"])
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("unknown option --no-such-option"))
        #expect(outcome.output.isEmpty)
    }

    @Test func unknownSuitesAndBackendsAreUsageErrors() throws {
        let suite = try imagecache(["bench", "--quick", "nosuchsuite"])
        #expect(suite.status == 2)
        #expect(suite.error.contains("unknown suite 'nosuchsuite'"))
        let backend = try imagecache(["bench", "--backends", "log,sqlite", "open"])
        #expect(backend.status == 2)
        #expect(backend.error.contains("no backend named 'sqlite'"))
    }
}
