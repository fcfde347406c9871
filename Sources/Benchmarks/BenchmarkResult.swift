import Foundation

/// One benchmark result: a JSON line for machines and a row for the Markdown table.
///
/// `seconds` is the median over the repeats of the time one repeat takes to do `count`
/// operations on `bytes` bytes in all; `spread` is (max − min) / median over the same repeats.
public struct BenchmarkResult: Sendable, Equatable {
    public var suite: String
    public var op: String
    public var backend: String?
    /// What kind of data a measurement used when a suite runs the same ops on several kinds
    /// (the store-then-synchronize protocol runs once with `images`, once with `raw` bytes).
    public var variant: String?
    public var file: String?
    /// Bytes processed by one repeat (pixel bytes for PNG, value bytes for stores).
    public var bytes: Int
    /// Operations performed by one repeat.
    public var count: Int
    /// Median seconds of one repeat.
    public var seconds: Double
    /// Relative spread of the repeats: (max − min) / median.
    public var spread: Double
    public var repeats: Int
    /// Latency percentiles in seconds, where latency was measured per operation.
    public var p50: Double?
    public var p99: Double?
    /// Extra numeric facts (for example `bytes_per_entry`), printed after the standard fields.
    public var extra: [(String, Double)]

    public init(
        suite: String, op: String, backend: String? = nil, variant: String? = nil, file: String? = nil,
        bytes: Int, count: Int, seconds: Double, spread: Double = 0, repeats: Int = 1,
        p50: Double? = nil, p99: Double? = nil, extra: [(String, Double)] = []
    ) {
        self.suite = suite
        self.op = op
        self.backend = backend
        self.variant = variant
        self.file = file
        self.bytes = bytes
        self.count = count
        self.seconds = seconds
        self.spread = spread
        self.repeats = repeats
        self.p50 = p50
        self.p99 = p99
        self.extra = extra
    }

    public var opsPerSecond: Double { seconds > 0 ? Double(count) / seconds : 0 }
    public var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / seconds / 1e6 : 0 }

    public static func == (lhs: BenchmarkResult, rhs: BenchmarkResult) -> Bool {
        lhs.jsonLine == rhs.jsonLine
    }

    /// The fields in a fixed order: suite, op, backend, variant, file, bytes, count, seconds,
    /// ops_per_s, mb_per_s, then the optional ones.
    public var jsonLine: String {
        var fields: [(String, String)] = [("suite", JSONText.string(suite)), ("op", JSONText.string(op))]
        if let backend { fields.append(("backend", JSONText.string(backend))) }
        if let variant { fields.append(("variant", JSONText.string(variant))) }
        if let file { fields.append(("file", JSONText.string(file))) }
        fields += [
            ("bytes", String(bytes)), ("count", String(count)),
            ("seconds", JSONText.number(seconds)),
            ("ops_per_s", JSONText.number(opsPerSecond)),
            ("mb_per_s", JSONText.number(megabytesPerSecond)),
            ("spread", JSONText.number(spread)), ("repeats", String(repeats)),
        ]
        if let p50 { fields.append(("p50", JSONText.number(p50))) }
        if let p99 { fields.append(("p99", JSONText.number(p99))) }
        for (name, value) in extra { fields.append((name, JSONText.number(value))) }
        return "{" + fields.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// Minimal JSON text helpers, so output needs no encoder and keeps its field order.
enum JSONText {
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.6g", value)
    }
}
