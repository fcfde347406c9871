import Foundation

/// Everything one `imagecache bench` run measured, with what is needed to read it: the machine,
/// the preset, the command and the date. It writes itself as JSON lines, for machines; the
/// BenchmarkReporting module renders it for people, as Markdown and an SVG chart.
public struct BenchmarkReport: Sendable {
    public var machine: MachineDescription
    /// The preset's name: `full`, `quick` or `smoke`.
    public var preset: String
    /// The command that produced the report, for the reader who wants to reproduce it.
    public var command: String
    public var date: Date
    /// Wall-clock seconds the whole run took.
    public var elapsed: Double
    /// Wall-clock seconds each suite took, setting up and checking included, in run order.
    public var suiteSeconds: [(suite: String, seconds: Double)]
    public var results: [BenchmarkResult]
    /// Bytes the run caused to be written to the storage device, where the system counts them
    /// (Linux: `write_bytes` of `/proc/self/io`); nil elsewhere.
    public var diskBytesWritten: Int?
    /// ``diskBytesWritten`` of each suite, by suite name.
    public var suiteDiskBytesWritten: [String: Int] = [:]

    public init(
        machine: MachineDescription, preset: String, command: String, date: Date, elapsed: Double,
        suiteSeconds: [(suite: String, seconds: Double)] = [], results: [BenchmarkResult],
        diskBytesWritten: Int? = nil
    ) {
        self.diskBytesWritten = diskBytesWritten
        self.machine = machine
        self.preset = preset
        self.command = command
        self.date = date
        self.elapsed = elapsed
        self.suiteSeconds = suiteSeconds
        self.results = results
    }

    /// One JSON object per line, one line per result.
    public var jsonLines: String {
        results.map { $0.jsonLine + "\n" }.joined()
    }

    /// `2026-11-22 03:50 UTC`.
    package var dateText: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// The suites in the order they ran.
    package var suites: [String] {
        var seen: [String] = []
        for result in results where !seen.contains(result.suite) { seen.append(result.suite) }
        return seen
    }

    /// The backends of `results` in the order they first appear (backends before the baseline,
    /// as the suites measure them).
    package static func backends(of results: [BenchmarkResult]) -> [String] {
        var seen: [String] = []
        for result in results {
            if let backend = result.backend, !seen.contains(backend) { seen.append(backend) }
        }
        return seen
    }
}

extension BenchmarkResult {
    /// The extra field `name`, if the result has one.
    public func extra(_ name: String) -> Double? {
        extra.first { $0.0 == name }?.1
    }

    /// The size of one value: the `value_bytes` extra, else bytes per operation.
    package var valueSize: Int {
        if let size = extra("value_bytes") { return Int(size) }
        return count > 0 ? bytes / count : bytes
    }
}
