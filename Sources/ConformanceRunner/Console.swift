import Foundation

/// The runner's standard output and standard error (Spec/conformance.md §6.1).
///
/// Lines are written with `write(2)` rather than `FileHandle`, whose failed write traps: when
/// the reader of standard output has gone (`conformance … | head`), the runner must stop
/// quietly instead of crashing with a backtrace.
final class Console {
    /// The exit status of a run stopped because its standard output was closed.
    static let outputClosedStatus: Int32 = 3

    /// Runs once, when standard output has gone: it must end the process. The default exits
    /// with `outputClosedStatus`; the runner replaces it to stop the driver first.
    var whenOutputIsGone: () -> Never = { RunnerSystem.endProcess(status: Console.outputClosedStatus) }

    /// Writes one line to standard output, or calls `whenOutputIsGone` when it cannot.
    func say(_ line: String) {
        if RunnerSystem.writeAll(Array((line + "\n").utf8), to: RunnerSystem.standardOutput) != .written {
            whenOutputIsGone()
        }
    }

    /// Writes lines to standard output, each indented by `indent` spaces.
    func say(_ lines: [String], indent: Int) {
        let prefix = String(repeating: " ", count: indent)
        for line in lines { say(prefix + line) }
    }

    /// Writes one line to standard error; a closed standard error is ignored.
    func complain(_ line: String) {
        _ = RunnerSystem.writeAll(Array((line + "\n").utf8), to: RunnerSystem.standardError)
    }

    /// Calls `whenOutputIsGone` if standard output is a pipe whose reader has exited. Checked
    /// between cases, so that a run piped into `head` stops when `head` does even if it has
    /// nothing more to print.
    func stopIfOutputIsGone() {
        if RunnerSystem.readerHasGone(RunnerSystem.standardOutput) { whenOutputIsGone() }
    }
}
