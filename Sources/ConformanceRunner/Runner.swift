import Foundation

/// Runs cases against a driver, restarting it after a crash or a hang (Spec/conformance.md §6).
///
/// One thread at a time uses a runner: the main thread for the handshake, then the one worker
/// of the `CaseScheduler` that owns it, then the main thread again to finish it.
final class Runner: @unchecked Sendable {
    /// The driver's answer to `hello` (Spec/conformance.md §5.1).
    struct Capabilities {
        var implementation: String
        var areas: [String]
        var backends: [String]
        /// Optional parts of the protocol, such as `sharing` (sessions, §5.8).
        var features: [String] = []
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    private let command: [String]
    /// The command of the partner drivers that run the sessions other than `A` (§6.8).
    private let partnerCommand: [String]
    private let timeLimit: Double
    private var driver: DriverProcess?
    /// One partner driver per session name, kept from case to case.
    private var partners: [String: DriverProcess] = [:]
    private var nextIdentifier: Int64 = 1
    private let progressLock = NSLock()
    // Guarded by `progressLock`: read by the scheduler's thread, written by the worker's.
    private var progress = "the start of a case"

    /// What the runner is doing, for a report when it is stuck: the step and the wait.
    var whereItIs: String {
        progressLock.lock()
        defer { progressLock.unlock() }
        return progress
    }

    private func note(_ doing: String) {
        progressLock.lock()
        progress = doing
        progressLock.unlock()
    }

    init(command: [String], partnerCommand: [String]? = nil, timeLimit: Double) {
        self.command = command
        self.partnerCommand = partnerCommand ?? command
        self.timeLimit = timeLimit
    }

    /// Starts the driver and asks what it supports.
    ///
    /// - Throws: `DriverLaunchError` when the driver program cannot be started at all,
    ///   `SetupError` when it does not answer `hello` properly.
    func handshake() throws -> Capabilities {
        let (process, capabilities) = try Runner.start(command, timeLimit: timeLimit)
        driver = process
        return capabilities
    }

    /// Starts a driver with `command` and asks it `hello`.
    static func start(_ command: [String], timeLimit: Double) throws -> (DriverProcess, Capabilities) {
        let process = try DriverProcess(command: command)
        // Starting a process on a loaded machine can take longer than a short case limit allows.
        let handshakeLimit = max(timeLimit, 10)
        let deadline = Date().addingTimeInterval(handshakeLimit)
        let request = JSONValue.object(["op": .string("hello"), "protocol": .integer(1), "id": .integer(0)])
        // A driver that exits at once cannot be written to; its exit status says more than the
        // failed write, so the answer (end of output) is awaited either way.
        _ = process.send(request.jsonText, before: deadline)
        switch process.receive(before: deadline) {
        case .timedOut:
            process.stop()
            throw SetupError(description: "the driver did not answer hello within \(handshakeLimit) s")
        case .exited(let status):
            let tail = process.standardErrorTail().trimmingCharacters(in: .whitespacesAndNewlines)
            process.stop()
            throw SetupError(
                description: "the driver \(status) before answering hello"
                    + (tail.isEmpty ? "" : "; it wrote: \(tail)"))
        case .line(let line):
            guard let response = try? JSONValue.parse(Data(line.utf8)),
                response["protocol"]?.integerValue == 1,
                let areas = response["areas"]?.arrayValue?.compactMap(\.stringValue)
            else {
                process.stop()
                throw SetupError(
                    description:
                        "the driver's answer to hello is not a protocol-1 handshake: \(line.prefix(200))")
            }
            return (
                process,
                Capabilities(
                    implementation: response["implementation"]?.stringValue ?? "unnamed",
                    areas: areas,
                    backends: response["backends"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                    features: response["features"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            )
        }
    }

    /// The partner driver of session `name` (§6.8), started and greeted when the job has none.
    private func partner(for name: String) throws -> DriverProcess {
        if let process = partners[name] { return process }
        let (process, capabilities) = try Runner.start(partnerCommand, timeLimit: timeLimit)
        guard capabilities.features.contains("sharing") else {
            process.stop()
            throw SetupError(description: "the second driver does not list the feature sharing")
        }
        partners[name] = process
        return process
    }

    /// Runs one case and records every exchange. A driver that crashes, hangs or answers out
    /// of turn fails the case and is restarted before the next one.
    ///
    /// - Parameter firstIdentifier: the `id` of the case's first request, the next ones
    ///   following it; by default the ids go on from the previous case's.
    func run(_ testCase: ConformanceCase, firstIdentifier: Int64? = nil) -> CaseReport {
        if let firstIdentifier { nextIdentifier = firstIdentifier }
        let started = Date()
        var report = CaseReport(for: testCase)
        report.failure = runSteps(of: testCase, into: &report)
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private func runSteps(of testCase: ConformanceCase, into report: inout CaseReport) -> CaseReport.Failure?
    {
        if driver == nil {
            note("\(testCase.name): starting the driver")
            do {
                _ = try handshake()
            } catch {
                return CaseReport.Failure(message: "the driver could not be restarted: \(error)")
            }
        }
        guard let mainDriver = driver else { return CaseReport.Failure(message: "no driver") }
        let deadline = Date().addingTimeInterval(timeLimit)
        // The folder the drivers keep the scenario's files in, from the last response that
        // named one (Spec/conformance.md §5.6, §6.8).
        var folder: String?
        for (index, step) in testCase.steps.enumerated() {
            guard case .object(var fields) = step.request else {
                return CaseReport.Failure(message: "step \(index + 1): request is not an object")
            }
            let identifier = nextIdentifier
            nextIdentifier += 1
            fields["id"] = .integer(identifier)
            if fields["op"]?.stringValue == "cache.join", let folder { fields["folder"] = .string(folder) }
            var exchange = CaseReport.Exchange(
                number: index + 1, op: fields["op"]?.stringValue ?? "?", request: .object(fields),
                expect: step.expect, responseLine: nil, matched: false)
            defer { report.exchanges.append(exchange) }
            let label = exchange.label
            if let op = fields["op"]?.stringValue, FileSteps.handles(op) {
                let response = FileSteps.respond(to: exchange.request, folder: folder)
                exchange.responseLine = response.jsonText
                if let difference = Expectation.mismatch(expected: step.expect, actual: response) {
                    return CaseReport.Failure(
                        message: "\(label): \(difference.message)", details: difference.details)
                }
                exchange.matched = true
                continue
            }
            // Sessions other than A run on their own partner drivers (§6.8).
            let session = fields["session"]?.stringValue ?? "A"
            let process: DriverProcess
            if session == "A" {
                process = mainDriver
            } else {
                note("\(testCase.name), \(label): starting the driver of session \(session)")
                do {
                    process = try partner(for: session)
                } catch {
                    return CaseReport.Failure(
                        message: "\(label): the driver of session \(session) could not be started: \(error)")
                }
            }
            let drop = { [self] in
                if session == "A" { driver = nil } else { partners[session] = nil }
            }
            note("\(testCase.name), \(label): sending the request to session \(session)")
            switch process.send(exchange.request.jsonText, before: deadline) {
            case .written:
                break
            case .failed:
                return abandon(process, drop, "\(label): the driver stopped reading its input")
            case .timedOut:
                drop()
                process.stop()
                return CaseReport.Failure(
                    message:
                        "\(label): the driver did not take the whole request within the time limit of \(timeLimit) s; it was killed and restarted"
                )
            }
            note("\(testCase.name), \(label): waiting for session \(session)'s response")
            let reply = process.receive(before: deadline)
            note("\(testCase.name), \(label): handling session \(session)'s reply (or stopping its driver)")
            switch reply {
            case .timedOut:
                drop()
                process.stop()
                return CaseReport.Failure(
                    message:
                        "\(label): no response within the time limit of \(timeLimit) s; the driver was killed and restarted"
                )
            case .exited(let status):
                return abandon(process, drop, "\(label): the driver \(status)")
            case .line(let line):
                exchange.responseLine = line
                guard let response = try? JSONValue.parse(Data(line.utf8)), response.objectValue != nil else {
                    return abandon(
                        process, drop, "\(label): the response is not a JSON object: \(line.prefix(200))")
                }
                guard response["id"]?.integerValue == identifier else {
                    return abandon(
                        process, drop,
                        "\(label): the response carries id \(response["id"]?.summary ?? "none"), expected \(identifier)"
                    )
                }
                if let reported = response["folder"]?.stringValue { folder = reported }
                if let difference = Expectation.mismatch(expected: step.expect, actual: response) {
                    return CaseReport.Failure(
                        message: "\(label): \(difference.message)", details: difference.details)
                }
                exchange.matched = true
            }
        }
        return nil
    }

    /// Ends the run: lets the driver exit on end of input.
    func finish() {
        note("ending its drivers")
        driver?.finish()
        driver = nil
        for process in partners.values { process.finish() }
        partners = [:]
    }

    /// Stops a driver that can no longer be trusted; its last lines on standard error go
    /// into the failure's details.
    private func abandon(_ process: DriverProcess, _ drop: () -> Void, _ reason: String) -> CaseReport.Failure
    {
        drop()
        process.stop()
        let tail = process.standardErrorTail().trimmingCharacters(in: .whitespacesAndNewlines)
        let lastLines = tail.split(separator: "\n").suffix(5).map { "    " + $0 }
        return CaseReport.Failure(
            message: reason + "; it was restarted",
            details: lastLines.isEmpty ? [] : ["driver stderr:"] + lastLines)
    }
}
