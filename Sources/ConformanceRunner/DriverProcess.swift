import Foundation

/// A running driver: one request line in, one response line out (Spec/conformance.md §2).
///
/// Two threads read the driver's standard output and standard error so that a driver can
/// never block the runner: a response is waited for with a deadline, and a driver that
/// misses it is killed. Its C-library calls go through `RunnerSystem`.
final class DriverProcess: @unchecked Sendable {
    /// What waiting for a response produced.
    enum Reply {
        case line(String)
        /// The driver closed its output (it exited or crashed); `status` describes how.
        case exited(status: String)
        case timedOut
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pendingLines: [String] = []
    private var partialLine: [UInt8] = []
    private var outputClosed = false
    private var errorTail: [UInt8] = []
    private var errorsClosed = false

    /// Starts `command`: its first word is a path or a name looked up on `PATH`
    /// (`DriverExecutable`), the others are its arguments. Its standard error is kept, the
    /// last lines only, to explain a crash.
    ///
    /// - Throws: `DriverLaunchError` when the program is missing, not executable or refused.
    init(command: [String]) throws(DriverLaunchError) {
        var environment = ProcessInfo.processInfo.environment
        let executable = try DriverExecutable.resolve(
            command.first ?? "", environment: environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
        process.executableURL = executable
        process.arguments = Array(command.dropFirst())
        // A crashing Swift driver would otherwise spend seconds symbolicating its backtrace.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .launchFailed(path: command[0], reason: String(describing: error))
        }
        RunnerSystem.makeNonBlocking(input.fileHandleForWriting.fileDescriptor)
        startReading(output.fileHandleForReading.fileDescriptor, isOutput: true)
        startReading(errors.fileHandleForReading.fileDescriptor, isOutput: false)
    }

    /// Writes one request line, waiting for the driver to take it until `deadline` at most:
    /// `failed` when it no longer reads its input, `timedOut` when it took too little of it.
    func send(_ line: String, before deadline: Date) -> RunnerSystem.WriteOutcome {
        RunnerSystem.writeAll(
            Array((line + "\n").utf8), to: input.fileHandleForWriting.fileDescriptor, before: deadline)
    }

    /// The next response line, waiting until `deadline` at most.
    func receive(before deadline: Date) -> Reply {
        condition.lock()
        while pendingLines.isEmpty && !outputClosed {
            if !condition.wait(until: deadline) {
                if pendingLines.isEmpty && !outputClosed {
                    condition.unlock()
                    return .timedOut
                }
            }
        }
        if !pendingLines.isEmpty {
            let line = pendingLines.removeFirst()
            condition.unlock()
            return .line(line)
        }
        condition.unlock()
        return .exited(status: exitDescription(waitingUntil: Date().addingTimeInterval(2)))
    }

    /// The last lines (4 KiB at most) the driver wrote on standard error, for a failure report.
    ///
    /// Call it once the driver has exited or been stopped: it waits, `seconds` at most, until
    /// the reading thread has seen the end of standard error, so that lines written just before
    /// a crash are not missed. (A child of the driver may keep standard error open, hence the
    /// limit.)
    func standardErrorTail(waitingAtMost seconds: Double = 1) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !errorsClosed && condition.wait(until: deadline) {}
        return String(decoding: errorTail, as: UTF8.self)
    }

    /// Kills the driver (it hung, or the run is over) and waits a few seconds at most for
    /// its end. (Not `waitUntilExit`: a wait without a limit is the one way the runner could
    /// itself hang, and a killed process ends in any case.)
    func stop() {
        if process.isRunning {
            RunnerSystem.killAtOnce(process.processIdentifier)
        }
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { RunnerSystem.pause(milliseconds: 5) }
    }

    /// Closes the driver's input, lets it exit on its own for a moment, then kills it.
    func finish() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { RunnerSystem.pause(milliseconds: 5) }
        stop()
    }

    private func exitDescription(waitingUntil deadline: Date) -> String {
        while process.isRunning && Date() < deadline { RunnerSystem.pause(milliseconds: 5) }
        guard !process.isRunning else { return "closed its output but is still running" }
        switch process.terminationReason {
        case .uncaughtSignal: return "was killed by signal \(process.terminationStatus)"
        case .exit: return "exited with status \(process.terminationStatus)"
        @unknown default: return "ended"
        }
    }

    private func startReading(_ descriptor: Int32, isOutput: Bool) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes {
                    RunnerSystem.readAvailable(from: descriptor, into: $0)
                }
                condition.lock()
                if count <= 0 {
                    if isOutput { outputClosed = true } else { errorsClosed = true }
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                if isOutput {
                    absorb(buffer[0..<count])
                } else {
                    errorTail.append(contentsOf: buffer[0..<count])
                    if errorTail.count > 4_096 { errorTail.removeFirst(errorTail.count - 4_096) }
                }
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Splits output into lines; called with `condition` held.
    private func absorb(_ bytes: ArraySlice<UInt8>) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            partialLine.append(contentsOf: bytes[start..<newline])
            pendingLines.append(String(decoding: partialLine, as: UTF8.self))
            partialLine.removeAll(keepingCapacity: true)
            start = newline + 1
        }
        partialLine.append(contentsOf: bytes[start...])
    }
}
