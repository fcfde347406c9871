import Foundation
import Platform

/// A single self-rewriting status line on standard error, for runs a person watches.
///
/// The line appears only when standard error is a terminal and only once the current task has
/// run for longer than a second, so short work and redirected output stay clean. Updates are
/// throttled to ten a second. The benchmarks call it between timed sections, never inside one.
///
/// Thread-safe: every method takes a lock.
public final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let sink: @Sendable (String) -> Void
    private var taskStart: UInt64 = 0
    private var lastDraw: UInt64 = 0
    private var task = ""
    private var visible = false

    /// How long a task runs before the line appears.
    static let delay: UInt64 = 1_000_000_000
    static let minimumInterval: UInt64 = 100_000_000

    /// A line written through `sink`; `enabled: false` makes every call a no-op.
    public init(enabled: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.enabled = enabled
        self.sink = sink
    }

    /// A line on standard error when it is a terminal; silent otherwise.
    public static func standardError() -> ProgressLine {
        ProgressLine(enabled: StandardStream.error.isTerminal) { text in
            try? StandardStream.error.write(Array(text.utf8))
        }
    }

    /// A line that never shows.
    public static let silent = ProgressLine(enabled: false) { _ in }

    /// Starts a task named `name` (for example `throughput`); its clock starts now.
    public func begin(_ name: String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        task = name
        taskStart = MonotonicClock.now()
        lastDraw = 0
    }

    /// Reports what the current task is doing; `done` of `total` steps when known.
    public func update(_ detail: String, done: Int? = nil, of total: Int? = nil) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = MonotonicClock.now()
        guard now &- taskStart >= ProgressLine.delay, now &- lastDraw >= ProgressLine.minimumInterval
        else { return }
        lastDraw = now
        var text = "bench \(task): \(detail)"
        if let done, let total, total > 0 { text += " (\(done)/\(total))" }
        text += String(format: " %.0fs", Double(now &- taskStart) / 1e9)
        // Carriage return, the text, then erase to the end of the line.
        sink("\r" + text + "\u{1B}[K")
        visible = true
    }

    /// Erases the line, if it is showing.
    public func clear() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        if visible { sink("\r\u{1B}[K") }
        visible = false
    }
}
