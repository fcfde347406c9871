import Foundation

/// Runs the selected cases on several drivers at once (`--jobs`, Spec/conformance.md §6.7) and
/// hands their reports back in the cases' order.
///
/// A case runs from its first step to its last on one driver, which runs nothing else
/// meanwhile, exactly as in a run with one driver: each worker thread owns one `Runner` (one
/// driver process) and takes the next case not yet taken. Request ids are fixed by the case's
/// place in the run, not by which driver ran what before it, so a report reads the same
/// whatever the number of jobs. A worker takes no new case once standard output has no
/// reader, so a run piped into `head` stops after the cases already under way.
final class CaseScheduler: @unchecked Sendable {
    private let cases: [ConformanceCase]
    private let runners: [Runner]
    private let firstIdentifiers: [Int64]
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var nextCase = 0
    private var reports: [Int: CaseReport] = [:]
    private var stopping = false
    private var busyWorkers = 0

    /// - Parameters:
    ///   - cases: the cases to run, in the order their reports are wanted.
    ///   - runners: one per job; the first may already hold a driver (the handshake's).
    init(cases: [ConformanceCase], runners: [Runner]) {
        self.cases = cases
        self.runners = runners
        // Request ids count every step of every case before, whether it ran to the end or not.
        var identifiers: [Int64] = []
        var next: Int64 = 1
        for testCase in cases {
            identifiers.append(next)
            next += Int64(testCase.steps.count)
        }
        firstIdentifiers = identifiers
    }

    /// Starts one worker thread per runner.
    func start() {
        condition.lock()
        busyWorkers = runners.count
        condition.unlock()
        for runner in runners {
            Thread.detachNewThread { [self] in work(on: runner) }
        }
    }

    private func work(on runner: Runner) {
        while let index = takeCase() {
            let report = runner.run(cases[index], firstIdentifier: firstIdentifiers[index])
            condition.lock()
            reports[index] = report
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        busyWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next case for a worker, or nil when there is none or the run is stopping.
    private func takeCase() -> Int? {
        if RunnerSystem.readerHasGone(RunnerSystem.standardOutput) { stop() }
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, nextCase < cases.count else { return nil }
        nextCase += 1
        return nextCase - 1
    }

    /// The report of case `index`, waiting for it; nil when the run stopped before the case
    /// was run.
    func report(at index: Int) -> CaseReport? {
        condition.lock()
        defer { condition.unlock() }
        while reports[index] == nil && !(stopping && busyWorkers == 0)
            && !(nextCase >= cases.count && busyWorkers == 0)
        {
            condition.wait()
        }
        return reports.removeValue(forKey: index)
    }

    /// Lets no worker take another case.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the run, waits for the cases under way and ends every driver.
    func finish() {
        stop()
        condition.lock()
        while busyWorkers > 0 { condition.wait() }
        condition.unlock()
        for runner in runners { runner.finish() }
    }
}
