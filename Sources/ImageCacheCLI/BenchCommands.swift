import Benchmarks
import Foundation

// `imagecache bench`, the main job: it runs the suites (their code is in the Benchmarks library),
// prints one JSON line per result on stdout, and writes the Markdown table and the SVG chart.

extension CommandRegistry {
    /// The suites `imagecache bench` knows. Add a suite here when its file lands.
    static var benchSuites: [BenchSuite] {
        [
            BenchSuite(
                name: "png",
                summary: "PNG stored encode/decode (4096×4096 RGBA8), compressed decode, given files",
                run: { options in try PNGBenchmark.run(quick: options.quick, files: options.operands) }),
            BenchSuite(
                name: "store",
                summary: "log store put/get/touch, open, compaction and index size against raw POSIX I/O",
                run: { options in
                    try StoreBenchmark.run(quick: options.quick, directory: options.operands.first)
                }),
            ChecksumBenchmark.suite,
            ThumbnailBenchmark.suite,
        ]
    }

    /// Every suite, in the order `imagecache bench` runs them: the cache experiments first, then
    /// the component suites registered in ``benchSuites``.
    static var allBenchSuites: [BenchSuite] {
        BenchmarkRunner.experiments + benchSuites
    }

    static let benchUsage =
        "bench [--quick] [--out DIR] [--markdown FILE] [--svg FILE] [--scratch DIR] [--backends LIST] [SUITE [--] [ARGS…]]"

    static var benchCommands: [Command] {
        [
            // Hidden: the child process of `bench open-memory`, which measures one open alone.
            Command(name: "bench-probe", usage: [], run: { OpenMemoryBenchmark.probe($0) }),
            Command(
                name: "bench",
                usage: [benchUsage]
                    + allBenchSuites.map {
                        "bench \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.summary)"
                    },
                run: runBench)
        ]
    }

    /// What the command line asked for.
    struct BenchArguments {
        var options = BenchOptions(progress: .standardError())
        var suites: [BenchSuite] = []
        var outputDirectory: URL?
        var markdownFile: URL?
        var chartFile: URL?
        var command = "imagecache bench"
    }

    static func parseBenchArguments(_ arguments: [String]) throws -> BenchArguments {
        var parsed = BenchArguments()
        var words: [String] = []
        var remaining = arguments[...]
        func value(of option: String, inline: String?) throws -> String {
            if let inline { return inline }
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw CommandLineError.usage("\(benchUsage): \(option) needs a value")
            }
            return next
        }
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            // Options may stand before or after the suite name (`bench store --quick` means
            // what it says); after a lone `--` every word is an operand, even `--odd.png`.
            if argument == "--" && !optionsEnded {
                optionsEnded = true
                continue
            }
            guard !optionsEnded, argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let option = parts[0]
            let inline = parts.count > 1 ? parts[1] : nil
            switch option {
            case "--quick": parsed.options.quick = true
            case "--out": parsed.outputDirectory = URL(fileURLWithPath: try value(of: option, inline: inline))
            case "--markdown":
                parsed.markdownFile = URL(fileURLWithPath: try value(of: option, inline: inline))
            case "--svg": parsed.chartFile = URL(fileURLWithPath: try value(of: option, inline: inline))
            case "--scratch":
                parsed.options.scratchDirectory = URL(fileURLWithPath: try value(of: option, inline: inline))
            case "--backends":
                parsed.options.backends = try value(of: option, inline: inline)
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            default:
                throw CommandLineError.usage("\(benchUsage): unknown option \(option)")
            }
        }
        for backend in parsed.options.backends ?? [] where !BenchmarkSubjects.allNames.contains(backend) {
            throw CommandLineError.usage(
                "bench --backends: no backend named '\(backend)'; backends: "
                    + BenchmarkSubjects.allNames.joined(separator: ","))
        }
        if let name = words.first {
            guard let suite = allBenchSuites.first(where: { $0.name == name }) else {
                throw CommandLineError.usage(
                    "bench: unknown suite '\(name)'; suites: "
                        + allBenchSuites.map(\.name).joined(separator: ", "))
            }
            parsed.suites = [suite]
            parsed.options.operands = Array(words.dropFirst())
        } else {
            parsed.suites = allBenchSuites
        }
        parsed.command = (["imagecache", "bench"] + arguments).joined(separator: " ")
        return parsed
    }

    @Sendable static func runBench(_ arguments: [String]) throws -> Int32 {
        let parsed = try parseBenchArguments(arguments)
        let machine = MachineDescription.current()
        StandardError.write("bench: \(machine.summary); \(parsed.options.preset.name) run\n")
        let runner = BenchmarkRunner(suites: parsed.suites, options: parsed.options, command: parsed.command)
        let report = try runner.run { results in
            StandardOutput.write(results.map { $0.jsonLine + "\n" }.joined())
        }
        var written: [URL] = []
        if let directory = parsed.outputDirectory {
            written += try BenchmarkOutput.write(report, toDirectory: directory)
        }
        if let file = parsed.markdownFile {
            written.append(try BenchmarkOutput.write(report.markdown(), to: file))
        }
        if let file = parsed.chartFile, let chart = report.throughputChart() {
            written.append(try BenchmarkOutput.write(chart.svg(), to: file))
        }
        if parsed.outputDirectory == nil && parsed.markdownFile == nil {
            // Without a file to put it in, the table still reaches the person who ran the command.
            StandardError.write("\n" + report.markdown())
        }
        let files = written.isEmpty ? "" : "; wrote " + written.map(\.path).joined(separator: ", ")
        StandardError.write("bench: done in \(String(format: "%.1f", report.elapsed)) s\(files)\n")
        return 0
    }
}
