import Foundation

// The conformance runner: runs the language-neutral cases in Conformance/ against a driver
// program (Spec/conformance.md §6). Exit status 0 when every case passed, 1 on any failure,
// 2 when the run could not start, 3 when standard output was closed before the run ended.

RunnerSystem.catchBrokenPipes()
let console = Console()

@MainActor func fail(_ message: String) -> Never {
    console.complain("conformance: \(message)")
    RunnerSystem.endProcess(status: 2)
}

let options: RunnerOptions
do {
    options = try RunnerOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    let message = String(describing: error)
    if !message.isEmpty { console.complain("conformance: \(message)") }
    console.complain(RunnerOptions.usage)
    RunnerSystem.endProcess(status: message.isEmpty ? 0 : 2)
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

// A report that cannot be written is found out before the run, not after it.
if let path = options.junitPath {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.isWritableFile(atPath: folder) else {
        fail("cannot write the JUnit report \(path): its folder \(folder) is missing or not writable")
    }
}

let allBackends = ["dictionary", "directory", "log", "hybrid"]
let runner = Runner(
    command: options.driverCommand, partnerCommand: options.secondDriverCommand, timeLimit: options.timeLimit)
var capabilities = Runner.Capabilities(implementation: "none", areas: CaseLoader.areas, backends: allBackends)
// The features every driver of the run offers: with a second driver, both must (§6.8).
var features: Set<String> = []
var secondImplementation = ""
if !options.listOnly {
    do {
        capabilities = try runner.handshake()
        features = Set(capabilities.features)
        if let second = options.secondDriverCommand {
            let (process, partner) = try Runner.start(second, timeLimit: options.timeLimit)
            process.finish()
            features.formIntersection(partner.features)
            secondImplementation = "; second driver: \(partner.implementation)"
        }
    } catch {
        runner.finish()
        fail(String(describing: error))
    }
}
// From here on a driver may be running: stop it before leaving because nobody reads the output.
console.whenOutputIsGone = {
    runner.finish()
    RunnerSystem.endProcess(status: Console.outputClosedStatus)
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

var selected: [ConformanceCase] = []
if options.showNames.isEmpty {
    selected = everyCase.filter { testCase in
        (options.areas.isEmpty || options.areas.contains(testCase.area))
            && (options.nameFilters.isEmpty || options.nameFilters.contains { testCase.name.contains($0) })
    }
} else {
    for name in options.showNames {
        let named = everyCase.filter { $0.name == name || ExpectedFailures.baseName($0.name) == name }
        guard !named.isEmpty else {
            runner.finish()
            let similar = everyCase.map(\.name).filter { $0.contains(name) }.prefix(5)
            fail(
                "no case is named \(name)"
                    + (similar.isEmpty ? "" : "; similar: " + similar.joined(separator: ", ")))
        }
        selected += named.filter { chosen in !selected.contains { $0.name == chosen.name } }
    }
}

if options.listOnly {
    for testCase in selected { console.say(testCase.name) }
    RunnerSystem.endProcess(status: 0)
}

/// Why the driver cannot run a case (an area or a feature it lacks), nil when it can.
@MainActor func skipReason(_ testCase: ConformanceCase) -> String? {
    guard capabilities.areas.contains(testCase.area) else {
        return "the driver does not implement the area \(testCase.area)"
    }
    let missing = testCase.requires.filter { !features.contains($0) }
    return missing.isEmpty ? nil : "the driver does not implement \(missing.joined(separator: ", "))"
}
let runnable = selected.filter { skipReason($0) == nil }
let showing = !options.showNames.isEmpty
console.say(
    "driver: \(capabilities.implementation)\(secondImplementation); areas: \(capabilities.areas.joined(separator: ", "));"
        + " backends: \(backends.joined(separator: ", ")); \(runnable.count) cases from \(casesDirectory.path)"
)

// Every case runs whole on one driver; with several jobs, several drivers run cases at once
// and the reports are taken in the cases' order, so the output does not depend on the jobs.
let jobs = max(1, min(options.jobs, runnable.count))
let makeRunner = {
    Runner(
        command: options.driverCommand, partnerCommand: options.secondDriverCommand,
        timeLimit: options.timeLimit)
}
// A case's waits are each bounded by the time limit; starting and stopping drivers adds a
// few seconds each. Past this, the worker itself is stuck.
let caseLimit = 3 * max(options.timeLimit, 10) + 60
let scheduler = CaseScheduler(
    cases: runnable, runners: [runner] + (1..<max(jobs, 1)).map { _ in makeRunner() },
    caseLimit: caseLimit, makeRunner: makeRunner)
console.whenOutputIsGone = {
    scheduler.finish()
    RunnerSystem.endProcess(status: Console.outputClosedStatus)
}
scheduler.start()

var passed = 0
var failed = 0
var stillFailing = 0
var junit = JUnitReport()
var summary = RunSummary()
var runIndex = 0
for testCase in selected {
    if let reason = skipReason(testCase) {
        junit.add(
            area: testCase.area, backend: testCase.backend, name: testCase.name,
            result: .skipped(message: reason))
        summary.add(.skipped, area: testCase.area, backend: testCase.backend)
        continue
    }
    console.stopIfOutputIsGone()
    guard let report = scheduler.report(at: runIndex) else { console.whenOutputIsGone() }
    runIndex += 1
    let covering = expectedFailures.entry(covering: testCase.name)
    // Built only when it is printed or kept: a passing case's transcript is not needed.
    let needsTranscript = showing || report.failure != nil || covering != nil || options.verbose
    let transcript = needsTranscript ? report.transcript(exact: showing) : []
    let result: JUnitReport.Result
    switch (report.failure, covering) {
    case (nil, nil):
        passed += 1
        result = .passed
        summary.add(.passed, area: testCase.area, backend: testCase.backend)
        if options.verbose || showing {
            console.say("ok   \(testCase.name) (\(Int(report.seconds * 1000)) ms)")
        }
        if showing { console.say(transcript, indent: 4) }
    case (nil, let entry?):
        failed += 1
        let message = "listed as an expected failure (\(entry)) but it passes now; remove it from the list"
        result = .failed(message: message, body: ([message] + transcript).joined(separator: "\n"))
        summary.add(.failed, area: testCase.area, backend: testCase.backend)
        console.say("FAIL \(testCase.name)")
        console.say([message] + (showing ? transcript : []), indent: 4)
    case (let failure?, nil):
        failed += 1
        result = .failed(message: failure.message, body: transcript.joined(separator: "\n"))
        summary.add(.failed, area: testCase.area, backend: testCase.backend)
        console.say("FAIL \(testCase.name)")
        console.say(transcript, indent: 4)
    case (let failure?, let entry?):
        stillFailing += 1
        result = .skipped(message: "expected failure (listed as \(entry)): \(failure.message)")
        summary.add(.expectedFailure, area: testCase.area, backend: testCase.backend)
        if options.verbose || showing {
            console.say("xfail \(testCase.name)")
            console.say(transcript, indent: 4)
        }
    }
    junit.add(
        area: testCase.area, backend: testCase.backend, name: testCase.name, seconds: report.seconds,
        result: result)
}
scheduler.finish()

var staleEntries: [String] = []
for entry in expectedFailures.unknownEntries(among: everyCase.map(\.name)) {
    failed += 1
    let message = "'\(entry)' names no case; remove it from the list"
    staleEntries.append("FAIL expected-failures list: \(message)")
    junit.add(area: "expected-failures", name: entry, result: .failed(message: message, body: message))
}

// Every selected case has run, so the report is complete; it is written before the summary,
// which may find standard output gone.
if let path = options.junitPath {
    do {
        try Data(junit.document.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        fail("cannot write the JUnit report \(path): \(error)")
    }
}

if !showing { console.say(summary.lines, indent: 0) }
for line in staleEntries { console.say(line) }
let unsupported = selected.filter { !capabilities.areas.contains($0.area) }
if !unsupported.isEmpty {
    let areas = Set(unsupported.map(\.area)).sorted().joined(separator: ", ")
    console.say("skipped \(unsupported.count) cases in areas the driver does not support: \(areas)")
}
let lacking = selected.filter { capabilities.areas.contains($0.area) && skipReason($0) != nil }
if !lacking.isEmpty {
    let missing = Set(lacking.flatMap(\.requires).filter { !features.contains($0) }).sorted()
    console.say(
        "skipped \(lacking.count) cases that need features a driver lacks: \(missing.joined(separator: ", "))"
    )
}
if stillFailing > 0 { console.say("\(stillFailing) expected failures still fail") }
console.say("\(passed) passed, \(failed) failed")
RunnerSystem.endProcess(status: failed == 0 ? 0 : 1)
