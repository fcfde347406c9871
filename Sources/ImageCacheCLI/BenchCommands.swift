import BenchmarkReporting
import Benchmarks
import Foundation
import PNG
import Platform

/// `imagecache bench`, the main job: it runs the suites (their code is in the Benchmarks
/// library), prints one JSON line per result on stdout, and writes the Markdown table and the
/// SVG chart. Everything the run will need (destinations, folders, input files) is checked
/// before the first measurement, so a typo fails in a second, not after ten minutes.
enum BenchCommands {
    /// The suites `imagecache bench` knows. Add a suite here when its file lands.
    static var componentSuites: [BenchSuite] {
        [
            BenchSuite(
                name: "png",
                summary:
                    "PNG stored encode/decode (4096×4096 RGBA8); decode and inflate beside libspng, libpng, "
                    + "libdeflate and zlib on generated, real and PngSuite files and given files",
                run: { options in
                    try PNGBenchmark.run(
                        quick: options.quick, files: options.operands,
                        scratchDirectory: options.scratchDirectory)
                }),
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
    /// the component suites.
    static var allSuites: [BenchSuite] {
        BenchmarkRunner.experiments + componentSuites
    }

    static var command: Command {
        Command(
            name: "bench", summary: "measure the cache, its backends and components against baselines",
            options: [
                OptionSpec(
                    name: "--quick", value: nil, help: "a run of under a minute: smaller sizes, fewer repeats"
                ),
                OptionSpec(
                    name: "--out", value: "DIR",
                    help: "also write bench.jsonl, bench.md and bench.svg into DIR (created when missing)"),
                OptionSpec(
                    name: "--markdown", value: "FILE",
                    help:
                        "write the Markdown report to FILE; - is standard output, in place of the JSON lines"),
                OptionSpec(
                    name: "--svg", value: "FILE",
                    help:
                        "write the throughput chart to FILE; - is standard output, in place of the JSON lines"
                ),
                OptionSpec(
                    name: "--scratch", value: "DIR",
                    help: "an existing folder to make the stores in (default: the temporary folder)"),
                OptionSpec(
                    name: "--backends", value: "LIST",
                    help: "comma-separated backends to measure: "
                        + BenchmarkSubjects.allNames.joined(separator: ",") + " (default: all)"),
            ],
            operands: [
                OperandSpec(name: "SUITE", arity: .optional, help: "one suite to run (default: every suite)"),
                OperandSpec(
                    name: "ARG", arity: .any,
                    help: "for png: PNG files to decode as well; for store: the folder to use"),
            ],
            notes: ["Suites:"]
                + allSuites.map {
                    "  \($0.name.padding(toLength: 13, withPad: " ", startingAt: 0))\($0.summary)"
                }
                + [
                    "JSON lines go to standard output, one per result; without --out or --markdown the Markdown "
                        + "report goes to standard error at the end."
                ],
            action: .parsed(run))
    }

    /// What the command line asked for, checked.
    struct Plan {
        var options = BenchOptions(progress: .standardError())
        var suites: [BenchSuite] = []
        var outputDirectory: URL?
        var markdownFile: String?
        var chartFile: String?
        var command = "imagecache bench"
    }

    static func plan(_ arguments: ParsedArguments) throws(CommandLineError) -> Plan {
        var plan = Plan()
        plan.options.quick = arguments.has("--quick")
        if let list = arguments.value("--backends") {
            let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in names where !BenchmarkSubjects.allNames.contains(name) {
                throw .usage(
                    "--backends: no backend named '\(KeyEscaping.escaped(name))'; backends: "
                        + BenchmarkSubjects.allNames.joined(separator: ","))
            }
            plan.options.backends = names
        }
        if let name = arguments.operands.first {
            guard let suite = allSuites.first(where: { $0.name == name }) else {
                throw .usage(
                    "unknown suite '\(KeyEscaping.escaped(name))'; suites: "
                        + allSuites.map(\.name).joined(separator: ", "))
            }
            plan.suites = [suite]
            plan.options.operands = Array(arguments.operands.dropFirst())
            try checkOperands(of: suite, plan.options.operands)
        } else {
            plan.suites = allSuites
        }
        if arguments.value("--markdown") == "-" && arguments.value("--svg") == "-" {
            throw .usage("--markdown and --svg cannot both be - (standard output)")
        }
        if let file = arguments.value("--markdown") {
            try Destination.checkFile(file, option: "--markdown")
            plan.markdownFile = file
        }
        if let file = arguments.value("--svg") {
            try Destination.checkFile(file, option: "--svg")
            plan.chartFile = file
        }
        if let directory = arguments.value("--scratch") {
            try Destination.checkFolder(directory, option: "--scratch")
            plan.options.scratchDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        }
        if let directory = arguments.value("--out") {
            try Destination.checkCreatableFolder(directory, option: "--out")
            plan.outputDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        }
        // Every check passed: only now is anything made.
        if let directory = arguments.value("--out") { try Destination.makeFolder(directory, option: "--out") }
        if plan.suites.count == 1, plan.suites[0].name == "store", let directory = plan.options.operands.first
        {
            try Destination.makeFolder(directory, option: "bench store")
        }
        plan.command = (["imagecache", "bench"] + CommandLine.arguments.dropFirst(2)).joined(separator: " ")
        return plan
    }

    /// `bench png FILE…` reads and decodes each file now, naming the first that fails;
    /// `bench store [DIR]` checks that the folder is or can be made writable.
    private static func checkOperands(of suite: BenchSuite, _ operands: [String]) throws(CommandLineError) {
        switch suite.name {
        case "png":
            for path in operands {
                guard path != "-" else {
                    throw .usage("bench png reads its files by name; save standard input to a file first")
                }
                let bytes = try FileAccess.read(path)
                do {
                    _ = try PNGDecoder().decodeBitmap(bytes)
                } catch {
                    throw CommandLineError("\(path): \(error)", status: ExitStatus(for: error))
                }
            }
        case "store":
            guard operands.count <= 1 else {
                throw .usage("bench store takes at most one folder, got \(operands.count) operands")
            }
            if let directory = operands.first {
                try Destination.checkCreatableFolder(directory, option: "bench store")
            }
        default:
            if let extra = operands.first {
                throw .usage("the \(suite.name) suite takes no operands, got '\(KeyEscaping.escaped(extra))'")
            }
        }
    }

    @Sendable static func run(_ arguments: ParsedArguments) throws {
        let plan = try plan(arguments)
        let machine = MachineDescription.current()
        StandardError.write("bench: \(machine.summary); \(plan.options.preset.name) run\n")
        let runner = BenchmarkRunner(suites: plan.suites, options: plan.options, command: plan.command)
        // With a document on standard output, the JSON lines stay out of it (bench.jsonl has them).
        let documentOnStandardOutput = plan.markdownFile == "-" || plan.chartFile == "-"
        var outputFailure: (any Error)?
        let report = try runner.run { results in
            guard !documentOnStandardOutput, outputFailure == nil else { return }
            do {
                try StandardOutput.write(results.map { $0.jsonLine + "\n" }.joined())
            } catch {
                outputFailure = error
            }
        }
        if let outputFailure { throw outputFailure }
        var written: [String] = []
        if let directory = plan.outputDirectory {
            written += try BenchmarkOutput.write(report, toDirectory: directory).map(\.path)
        }
        if let file = plan.markdownFile {
            try write(report.markdown(), to: file)
            written.append(file == "-" ? "standard output" : file)
        }
        if let file = plan.chartFile {
            if let chart = report.throughputChart() {
                try write(chart.svg(), to: file)
                written.append(file == "-" ? "standard output" : file)
            } else {
                StandardError.write("bench: no throughput was measured, so \(file) was not written\n")
            }
        }
        if plan.outputDirectory == nil && plan.markdownFile == nil {
            // Without a file to put it in, the table still reaches the person who ran the command.
            StandardError.write("\n" + report.markdown())
        }
        let files = written.isEmpty ? "" : "; wrote " + written.joined(separator: ", ")
        StandardError.write("bench: done in \(String(format: "%.1f", report.elapsed)) s\(files)\n")
    }

    private static func write(_ text: String, to path: String) throws(CommandLineError) {
        let output = try OutputFile(path)
        try output.write(Array(text.utf8))
        try output.commit()
    }
}

/// Checks on the places a long run will write, made before it starts (`Spec/cache.md` §12.6).
/// Links are followed: the person chose the paths.
enum Destination {
    /// FILE (not `-`) can be created or replaced: not a folder, and its folder exists and is writable.
    static func checkFile(_ path: String, option: String) throws(CommandLineError) {
        guard path != "-" else { return }
        if (try? FileSystem.status(followingLinksAt: path))?.kind == .directory {
            throw failure(option, path, .isDirectory)
        }
        let folder = (path as NSString).deletingLastPathComponent
        try checkFolder(folder.isEmpty ? "." : folder, option: option, naming: path)
    }

    /// DIR exists, is a folder, and may be written.
    static func checkFolder(_ path: String, option: String, naming named: String? = nil)
        throws(CommandLineError)
    {
        guard path != "-" else { throw .usage("\(option) takes a folder, not -") }
        let status: FileSystem.Status?
        do {
            status = try FileSystem.status(followingLinksAt: path, missingFolderIsAbsence: false)
        } catch {
            throw failure(option, named ?? path, error.errno)
        }
        guard let status else { throw failure(option, named ?? path, .noSuchFile) }
        guard status.kind == .directory else { throw failure(option, named ?? path, .notDirectory) }
        try checkWritable(path, option: option, naming: named ?? path)
    }

    /// DIR is a writable folder, or can be made: its nearest existing ancestor is a writable folder.
    static func checkCreatableFolder(_ path: String, option: String) throws(CommandLineError) {
        guard path != "-" else { throw .usage("\(option) takes a folder, not -") }
        var candidate = path
        while true {
            let status: FileSystem.Status?
            do {
                status = try FileSystem.status(followingLinksAt: candidate, missingFolderIsAbsence: false)
            } catch {
                throw failure(option, path, error.errno)
            }
            if let status {
                guard status.kind == .directory else { throw failure(option, path, .notDirectory) }
                break
            }
            let parent = (candidate as NSString).deletingLastPathComponent
            candidate = parent.isEmpty ? "." : parent
        }
        try checkWritable(candidate, option: option, naming: path)
    }

    /// DIR exists as a writable folder afterwards (created with its parents when missing).
    static func makeFolder(_ path: String, option: String) throws(CommandLineError) {
        guard path != "-" else { throw .usage("\(option) takes a folder, not -") }
        do {
            try FileSystem.makeDirectories(path, permissions: .userFolder)
        } catch {
            throw failure(option, path, error.errno)
        }
        try checkFolder(path, option: option)
    }

    /// The folder `path` may have names created in it.
    private static func checkWritable(_ path: String, option: String, naming named: String)
        throws(CommandLineError)
    {
        do {
            try FileSystem.checkAccess(path, for: [.write, .search])
        } catch {
            throw failure(option, named, error.errno)
        }
    }

    private static func failure(_ option: String, _ path: String, _ errno: Errno) -> CommandLineError {
        CommandLineError("\(option): cannot write \(path): \(errno)", status: .failure)
    }
}
