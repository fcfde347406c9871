import Benchmarks
import Foundation

/// Options every benchmark suite understands.
struct BenchOptions: Sendable {
    /// A run of under a minute, with fewer sizes and repeats.
    var quick = false
    /// The arguments left after the suite name and the options (for example PNG files).
    var operands: [String] = []
}

/// A named group of measurements: `imagecache bench <name>`.
struct BenchSuite: Sendable {
    var name: String
    var summary: String
    var run: @Sendable (BenchOptions) throws -> [BenchmarkResult]
}

extension CommandRegistry {
    /// The suites `imagecache bench` knows. Add a suite here when its file lands.
    static var benchSuites: [BenchSuite] {
        [
            BenchSuite(
                name: "png", summary: "PNG stored encode/decode (4096×4096 RGBA8), compressed decode, given files",
                run: { options in try PNGBenchmark.run(quick: options.quick, files: options.operands) }),
            BenchSuite(
                name: "store",
                summary: "log store put/get/touch, open, compaction and index size against raw POSIX I/O",
                run: { options in try StoreBenchmark.run(quick: options.quick, directory: options.operands.first) }),
        ]
    }

    static var benchCommands: [Command] {
        [
            Command(
                name: "bench",
                usage: [
                    "bench [--quick] [SUITE [ARGS…]]   suites: "
                        + benchSuites.map(\.name).joined(separator: ", ")
                ],
                run: runBench)
        ]
    }

    @Sendable static func runBench(_ arguments: [String]) throws -> Int32 {
        var options = BenchOptions()
        var words: [String] = []
        for argument in arguments {
            switch argument {
            case "--quick": options.quick = true
            case _ where argument.hasPrefix("--"):
                throw CommandLineError.usage("bench [--quick] [SUITE [ARGS…]]: unknown option \(argument)")
            default: words.append(argument)
            }
        }
        let selected: [BenchSuite]
        if let name = words.first {
            guard let suite = benchSuites.first(where: { $0.name == name }) else {
                throw CommandLineError.usage("bench: unknown suite '\(name)'")
            }
            selected = [suite]
            options.operands = Array(words.dropFirst())
        } else {
            selected = benchSuites
        }
        for suite in selected {
            for result in try suite.run(options) {
                StandardOutput.write(result.jsonLine + "\n")
            }
        }
        return 0
    }
}
