import Foundation

// The conformance runner: runs the language-neutral cases in Conformance/ against a driver
// program (Spec/conformance.md §6). Exit status 0 when every case passed, 1 on any failure,
// 2 when the run could not start, 3 when standard output was closed before the run ended.

Platform.catchBrokenPipes()
let console = Console()

@MainActor func fail(_ message: String) -> Never {
    console.complain("conformance: \(message)")
    exit(2)
}

@MainActor func say(_ line: String) {
    console.say(line)
}

let options: RunnerOptions
do {
    options = try RunnerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    let message = String(describing: error)
    if !message.isEmpty { console.complain("conformance: \(message)") }
    console.complain(RunnerOptions.usage)
    exit(message.isEmpty ? 0 : 2)
}

guard let casesDirectory = options.casesDirectory() else {
    fail("cannot find the Conformance/ case folder; pass --cases DIR")
}

var expectedFailures = ExpectedFailures()
if let path = options.expectedFailuresPath {
    do {
        expectedFailures = try ExpectedFailures(contentsOf: path)
    } catch {
        fail("cannot read the expected-failures list \(path): \(error)")
    }
}

let allBackends = ["dictionary", "directory", "log", "hybrid"]
let runner = Runner(command: options.driverCommand, timeLimit: options.timeLimit)
var capabilities = Runner.Capabilities(implementation: "none", areas: CaseLoader.areas, backends: allBackends)
if !options.listOnly {
    do {
        capabilities = try runner.handshake()
    } catch {
        fail(String(describing: error))
    }
}
// From here on a driver may be running: stop it before leaving because nobody reads the output.
console.whenOutputIsGone = {
    runner.finish()
    exit(Console.outputClosedStatus)
}
for backend in options.backends where !capabilities.backends.contains(backend) {
    runner.finish()
    fail(
        "the driver does not offer backend '\(backend)'; it offers: \(capabilities.backends.joined(separator: ", "))"
    )
}
let backends = options.backends.isEmpty ? capabilities.backends : options.backends

let everyCase: [ConformanceCase]
do {
    everyCase = try CaseLoader.load(from: casesDirectory, backends: backends)
} catch {
    runner.finish()
    fail(String(describing: error))
}
let selected = everyCase.filter { testCase in
    (options.areas.isEmpty || options.areas.contains(testCase.area))
        && (options.nameFilters.isEmpty || options.nameFilters.contains { testCase.name.contains($0) })
}

if options.listOnly {
    for testCase in selected { say(testCase.name) }
    exit(0)
}

let unsupported = selected.filter { !capabilities.areas.contains($0.area) }
let runnable = selected.filter { capabilities.areas.contains($0.area) }
say(
    "driver: \(capabilities.implementation); areas: \(capabilities.areas.joined(separator: ", "));"
        + " backends: \(backends.joined(separator: ", ")); \(runnable.count) cases from \(casesDirectory.path)"
)

var passed = 0
var failed = 0
var stillFailing = 0
for testCase in runnable {
    console.stopIfOutputIsGone()
    let started = Date()
    let outcome = runner.run(testCase)
    let covering = expectedFailures.entry(covering: testCase.name)
    switch (outcome, covering) {
    case (.passed, nil):
        passed += 1
        if options.verbose {
            say("ok   \(testCase.name) (\(Int(Date().timeIntervalSince(started) * 1000)) ms)")
        }
    case (.passed, let entry?):
        failed += 1
        say(
            "FAIL \(testCase.name)\n    listed as an expected failure (\(entry)) but it passes now; remove it from the list"
        )
    case (.failed(let reason), nil):
        failed += 1
        say("FAIL \(testCase.name)\n    \(reason)")
    case (.failed(let reason), _?):
        stillFailing += 1
        if options.verbose { say("xfail \(testCase.name)\n    \(reason)") }
    }
}
runner.finish()

for entry in expectedFailures.unknownEntries(among: everyCase.map(\.name)) {
    failed += 1
    say("FAIL expected-failures list: '\(entry)' names no case; remove it from the list")
}
if !unsupported.isEmpty {
    let areas = Set(unsupported.map(\.area)).sorted().joined(separator: ", ")
    say("skipped \(unsupported.count) cases in areas the driver does not support: \(areas)")
}
if stillFailing > 0 { say("\(stillFailing) expected failures still fail") }
say("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
