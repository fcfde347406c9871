import Foundation
import Platform

/// Runs suites one after the other and gathers a ``BenchmarkReport``: what `imagecache bench`
/// does, kept in the library so the tests drive exactly the same code.
public struct BenchmarkRunner {
    public var suites: [BenchSuite]
    public var options: BenchOptions
    /// The command line to print in the report, for example `imagecache bench --quick`.
    public var command: String

    public init(suites: [BenchSuite], options: BenchOptions, command: String) {
        self.suites = suites
        self.options = options
        self.command = command
    }

    /// Every experiment of issue 6, in the order the report shows them.
    public static let experiments: [BenchSuite] = [
        SynchronizeBenchmark.suite, ThroughputBenchmark.suite, OpenBenchmark.suite, OpenMemoryBenchmark.suite,
        PurgeBenchmark.suite, ConcurrencyBenchmark.suite, DurabilityBenchmark.suite, SharedBenchmark.suite,
    ]

    /// Runs every suite; `onResults` receives each suite's results as soon as it finishes
    /// (the command prints them as JSON lines, so a long run shows its progress on stdout too).
    public func run(onResults: ([BenchmarkResult]) -> Void = { _ in }) throws -> BenchmarkReport {
        let date = Date()
        let start = MonotonicClock.now()
        let writtenBefore = SystemProcess.bytesWrittenToStorage()
        var results: [BenchmarkResult] = []
        var suiteSeconds: [(suite: String, seconds: Double)] = []
        var suiteWritten: [String: Int] = [:]
        for suite in suites {
            options.progress.begin(suite.name)
            defer { options.progress.clear() }
            let suiteStart = MonotonicClock.now()
            let suiteWrittenBefore = SystemProcess.bytesWrittenToStorage()
            let suiteResults = try suite.run(options)
            suiteSeconds.append((suite.name, MonotonicClock.seconds(since: suiteStart)))
            if let before = suiteWrittenBefore, let after = SystemProcess.bytesWrittenToStorage() {
                suiteWritten[suite.name] = after - before
            }
            results += suiteResults
            onResults(suiteResults)
        }
        let writtenAfter = SystemProcess.bytesWrittenToStorage()
        var report = BenchmarkReport(
            machine: .current(), preset: options.preset.name, command: command, date: date,
            elapsed: MonotonicClock.seconds(since: start), suiteSeconds: suiteSeconds, results: results,
            diskBytesWritten: writtenAfter.flatMap { after in writtenBefore.map { after - $0 } })
        report.suiteDiskBytesWritten = suiteWritten
        return report
    }
}

/// The files a run leaves for people and machines.
public enum BenchmarkOutput {
    public static let jsonLinesName = "bench.jsonl"
    public static let markdownName = "bench.md"
    public static let chartName = "bench.svg"

    /// Writes `bench.jsonl`, `bench.md` and, when there is a chart, `bench.svg` into
    /// `directory`, creating it if needed; returns the paths written. BenchmarkReporting renders
    /// the documents from a report (`BenchmarkOutput.write(_:toDirectory:)`).
    @discardableResult
    public static func write(jsonLines: String, markdown: String, chart: String?, toDirectory directory: URL)
        throws -> [URL]
    {
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.makeDirectories(directory.standardizedFileURL.path)
        }
        var written = [
            try write(jsonLines, to: directory.appendingPathComponent(jsonLinesName)),
            try write(markdown, to: directory.appendingPathComponent(markdownName)),
        ]
        if let chart {
            written.append(try write(chart, to: directory.appendingPathComponent(chartName)))
        }
        return written
    }

    /// Writes `text` as UTF-8 to `url`, replacing the file.
    @discardableResult
    public static func write(_ text: String, to url: URL) throws(BenchmarkError) -> URL {
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .outputNotWritten(path: url.path, reason: error.localizedDescription)
        }
        return url
    }
}
