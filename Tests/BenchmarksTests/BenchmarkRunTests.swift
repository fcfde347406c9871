import BenchmarkReporting
import Benchmarks
import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Runs every experiment end to end on the smoke preset (the `--quick` code paths on tiny inputs)
/// and checks that the three outputs are well formed. Timings are never asserted.
@Suite struct BenchmarkRunTests {
    @Test func smokeRunWritesWellFormedJSONLinesTableAndChart() throws {
        let scratch = TemporaryDirectory()
        var options = BenchOptions(
            quick: true, scratchDirectory: scratch.url.appendingPathComponent("stores"))
        options.preset = .smoke
        let runner = BenchmarkRunner(
            suites: BenchmarkRunner.experiments, options: options, command: "imagecache bench --quick")
        var streamed: [BenchmarkResult] = []
        let report = try runner.run { streamed += $0 }
        #expect(streamed == report.results)
        #expect(Set(report.results.map(\.suite)) == Set(BenchmarkRunner.experiments.map(\.name)))

        let output = scratch.url.appendingPathComponent("out")
        let written = try BenchmarkOutput.write(report, toDirectory: output)
        #expect(written.map(\.lastPathComponent) == ["bench.jsonl", "bench.md", "bench.svg"])

        // The scratch stores are gone: only what the suites were told to leave, nothing.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: options.scratchDirectory.path)
        #expect(leftovers.isEmpty)

        let lines = try String(contentsOf: output.appendingPathComponent("bench.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == report.results.count)
        for line in lines {
            try JSONLineCheck.check(String(line))
        }
        let latencyLines = report.results.filter { $0.suite == "concurrency" }
        #expect(!latencyLines.isEmpty)
        #expect(latencyLines.allSatisfy { $0.p50 != nil && $0.p99 != nil })

        let markdown = try String(contentsOf: output.appendingPathComponent("bench.md"), encoding: .utf8)
        let tables = try MarkdownCheck.tables(in: markdown)
        #expect(tables.count >= BenchmarkRunner.experiments.count)
        #expect(markdown.contains(MachineDescription.current().summary))

        let svg = try Data(contentsOf: output.appendingPathComponent("bench.svg"))
        let chart = try SVGCheck.parse(svg)
        let throughput = report.results.filter { $0.suite == "throughput" }
        let backends = Set(throughput.compactMap(\.backend))
        #expect(backends.contains("raw-file"))
        for operation in ["write", "read"] {
            #expect(Set(chart.series.filter { $0.op == operation }.map(\.backend)) == backends)
        }
        #expect(chart.series.allSatisfy { $0.pointCount > 0 })
        #expect(chart.texts.contains("ImageCache throughput by value size"))
    }
}

/// Checks one JSON line: an object with the standard fields, of the right types.
enum JSONLineCheck {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ line: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Malformed(description: "not an object: \(line)")
        }
        for field in ["suite", "op", "backend"] where !(object[field] is String) {
            throw Malformed(description: "\(field) is not a string in \(line)")
        }
        for field in ["bytes", "count", "seconds", "ops_per_s", "mb_per_s", "spread", "repeats"] {
            guard let number = object[field] as? NSNumber, number.doubleValue >= 0 else {
                throw Malformed(description: "\(field) is not a non-negative number in \(line)")
            }
        }
        for field in ["p50", "p99"] where object[field] != nil && !(object[field] is NSNumber) {
            throw Malformed(description: "\(field) is not a number in \(line)")
        }
    }
}

/// Finds the tables in Markdown text and checks that each is well formed: a header row, an
/// alignment row, and body rows, all with the same number of cells.
enum MarkdownCheck {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Each table's rows, as cells.
    static func tables(in text: String) throws -> [[[String]]] {
        var tables: [[[String]]] = []
        var current: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [""] {
            if line.hasPrefix("|") {
                current.append(line)
            } else if !current.isEmpty {
                tables.append(try table(current))
                current = []
            }
        }
        return tables
    }

    static func table(_ lines: [String]) throws -> [[String]] {
        guard lines.count >= 2 else {
            throw Malformed(description: "a table without an alignment row: \(lines)")
        }
        let rows = try lines.map(cells)
        let width = rows[0].count
        guard width > 0, rows.allSatisfy({ $0.count == width }) else {
            throw Malformed(description: "rows of different widths: \(lines)")
        }
        let alignment = rows[1]
        guard alignment.allSatisfy({ $0.range(of: "^:?-{3,}:?$", options: .regularExpression) != nil }) else {
            throw Malformed(description: "bad alignment row: \(lines[1])")
        }
        guard rows[0].allSatisfy({ !$0.isEmpty }) else {
            throw Malformed(description: "an empty column title: \(lines[0])")
        }
        return rows
    }

    /// The cells of `| a | b \| c |`: split at unescaped pipes, trimmed.
    static func cells(_ line: String) throws -> [String] {
        guard line.hasPrefix("|"), line.hasSuffix("|"), line.count >= 2 else {
            throw Malformed(description: "a row must start and end with '|': \(line)")
        }
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                cell.append(character)
                escaped = false
            } else if character == "\\" {
                cell.append(character)
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }
}

/// Parses SVG with Foundation's XMLParser and collects the chart's series and texts.
final class SVGCheck: NSObject, XMLParserDelegate {
    struct Series {
        var op: String
        var backend: String
        var pointCount: Int
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var series: [Series] = []
    private(set) var texts: [String] = []
    private var root: String?
    private var text = ""

    static func parse(_ data: Data) throws -> SVGCheck {
        let check = SVGCheck()
        let parser = XMLParser(data: data)
        parser.delegate = check
        guard parser.parse() else {
            throw Malformed(
                description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        guard check.root == "svg" else {
            throw Malformed(description: "the root element is \(check.root ?? "missing")")
        }
        return check
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = elementName }
        text = ""
        guard elementName == "path", attributes["class"] == "series" else { return }
        let data = attributes["d"] ?? ""
        series.append(
            Series(
                op: attributes["data-op"] ?? "", backend: attributes["data-backend"] ?? "",
                pointCount: data.filter { $0 == "M" || $0 == "L" }.count))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        if elementName == "text" { texts.append(text) }
        text = ""
    }
}
