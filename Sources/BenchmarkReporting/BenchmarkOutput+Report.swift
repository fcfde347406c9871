import Benchmarks
import Foundation

extension BenchmarkOutput {
    /// Writes `bench.jsonl`, `bench.md` and (when the run measured throughput) `bench.svg` of
    /// `report` into `directory`, creating it if needed; returns the paths written.
    @discardableResult
    public static func write(_ report: BenchmarkReport, toDirectory directory: URL) throws -> [URL] {
        try write(
            jsonLines: report.jsonLines, markdown: report.markdown(), chart: report.throughputChart()?.svg(),
            toDirectory: directory)
    }
}
