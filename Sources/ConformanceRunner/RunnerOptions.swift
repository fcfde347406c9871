import Foundation

/// The runner's command line (Spec/conformance.md §6).
struct RunnerOptions: Sendable {
    var areas: Set<String> = []
    var backends: [String] = []
    var nameFilters: [String] = []
    var expectedFailuresPath: String?
    var casesPath: String?
    /// Seconds a whole case may take before the driver counts as hung.
    var timeLimit: Double = 20
    var verbose = false
    var listOnly = false
    /// Cases to run alone, each printed with its whole transcript (`--show`).
    var showNames: [String] = []
    /// Where to write the JUnit XML report (`--junit`).
    var junitPath: String?
    /// How many drivers run cases at once (`--jobs`); by default one per processor.
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var driverCommand: [String] = []
    /// The command of the drivers that run the sessions other than `A` (`--second-driver`,
    /// Spec/conformance.md §6.8); nil: the driver command.
    var secondDriverCommand: [String]?

    static let usage = """
        usage: conformance [OPTIONS] [--] DRIVER [DRIVER ARGUMENTS…]
          --area AREA             run only this area: png, store or cache (repeatable)
          --backend NAME          run cache scenarios only for this backend (repeatable)
          --filter TEXT           run only cases whose name contains TEXT (repeatable)
          --expected-failures F   cases listed in F (one name per line) are known to fail
          --cases DIR             the case folder (default: the nearest Conformance/ folder)
          --timeout SECONDS       time limit for one case (default 20)
          --list                  print the case names and exit
          --verbose               print every case as it runs
          --show NAME             run only case NAME (a cache scenario without @backend: on
                                  every backend) and print its note and whole transcript,
                                  passing or not (repeatable)
          --junit FILE            also write the results as JUnit XML to FILE
          --jobs N                run cases on N drivers at once (default: one per processor)
          --second-driver CMD     run sessions other than A on drivers started with CMD (split
                                  at spaces; default: the driver command)
        exit status: 0 all passed, 1 a case failed, 2 the run could not start,
                     3 standard output was closed before the run ended
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(arguments: [String]) throws {
        var index = 0
        func value(for option: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(description: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--":
                driverCommand = Array(arguments[(index + 1)...])
                index = arguments.count
                continue
            case "--area":
                for area in try value(for: argument).split(separator: ",").map(String.init) {
                    guard CaseLoader.areas.contains(area) else {
                        throw UsageError(
                            description: "unknown area '\(area)'; the areas are png, store, cache")
                    }
                    areas.insert(area)
                }
            case "--backend": backends += try value(for: argument).split(separator: ",").map(String.init)
            case "--filter": nameFilters.append(try value(for: argument))
            case "--expected-failures": expectedFailuresPath = try value(for: argument)
            case "--cases": casesPath = try value(for: argument)
            case "--timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(
                        description: "--timeout needs a positive number of seconds, not '\(text)'")
                }
                timeLimit = seconds
            case "--verbose": verbose = true
            case "--list": listOnly = true
            case "--show": showNames.append(try value(for: argument))
            case "--junit": junitPath = try value(for: argument)
            case "--jobs":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else {
                    throw UsageError(
                        description: "--jobs needs a whole number of drivers, at least 1, not '\(text)'")
                }
                jobs = count
            case "--second-driver":
                let words = try value(for: argument).split(separator: " ").map(String.init)
                guard !words.isEmpty else { throw UsageError(description: "--second-driver needs a command") }
                secondDriverCommand = words
            case "-h", "--help": throw UsageError(description: "")
            case _ where argument.hasPrefix("--"):
                throw UsageError(description: "unknown option \(argument)")
            default:
                // The first word that is not an option starts the driver command.
                driverCommand = Array(arguments[index...])
                index = arguments.count
                continue
            }
            index += 1
        }
        if driverCommand.isEmpty && !listOnly {
            throw UsageError(description: "no driver command given")
        }
        if listOnly && (!showNames.isEmpty || junitPath != nil) {
            throw UsageError(
                description: "--list runs nothing, so it cannot be combined with --show or --junit")
        }
        if !showNames.isEmpty && (!areas.isEmpty || !nameFilters.isEmpty) {
            throw UsageError(
                description: "--show names its cases; it cannot be combined with --area or --filter")
        }
    }

    /// The case folder: `--cases`, else the nearest `Conformance/` folder above the current
    /// directory or above this executable (which lives in the package's `.build`).
    func casesDirectory() -> URL? {
        if let casesPath { return URL(fileURLWithPath: casesPath) }
        let starts = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent(),
        ]
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent("Conformance")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(
                    atPath: candidate.appendingPathComponent("png").path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    return candidate
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }
}
