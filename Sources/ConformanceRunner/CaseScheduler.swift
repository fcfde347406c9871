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
///
/// Every wait of a runner has a limit, so a case ends however its driver behaves. Should a
/// worker still not come back (a process that cannot be started or reaped), the case fails
/// after `caseLimit`, naming the step it was stuck in, and a new worker with a new runner
/// takes the stuck one's place: a run always ends.
final class CaseScheduler: @unchecked Sendable {
    private let cases: [ConformanceCase]
    private let makeRunner: () -> Runner
    private let caseLimit: TimeInterval
    private let firstIdentifiers: [Int64]
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var runners: [Runner]
    private var nextCase = 0
    private var reports: [Int: CaseReport] = [:]
    /// The cases under way: when each started, and on which runner.
    private var running: [Int: (started: Date, runner: Runner)] = [:]
    /// Cases given up on; their workers' runners are stuck and are never finished.
    private var abandoned: Set<Int> = []
    private var stopping = false
    private var busyWorkers = 0
    /// Workers given up on that have not come back; counted in `busyWorkers` too.
    private var stuckWorkers = 0
    private var activeWorkers: Int { busyWorkers - stuckWorkers }

    /// - Parameters:
    ///   - cases: the cases to run, in the order their reports are wanted.
    ///   - runners: one per job; the first may already hold a driver (the handshake's).
    ///   - caseLimit: how long a case may run before the scheduler gives up on its worker.
    ///   - makeRunner: a new runner, for a worker that replaces a stuck one.
    init(
        cases: [ConformanceCase], runners: [Runner], caseLimit: TimeInterval,
        makeRunner: @escaping () -> Runner
    ) {
        self.cases = cases
        self.runners = runners
        self.caseLimit = caseLimit
        self.makeRunner = makeRunner
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
        while let index = takeCase(for: runner) {
            let report = runner.run(cases[index], firstIdentifier: firstIdentifiers[index])
            condition.lock()
            running[index] = nil
            let replaced = abandoned.contains(index)
            if replaced {
                // Given up on, it came back late: its replacement runs on, and it ends.
                stuckWorkers -= 1
                busyWorkers -= 1
            } else {
                reports[index] = report
            }
            condition.broadcast()
            condition.unlock()
            if replaced {
                runner.finish()
                return
            }
        }
        condition.lock()
        busyWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next case for a worker, or nil when there is none or the run is stopping.
    private func takeCase(for runner: Runner) -> Int? {
        if RunnerSystem.readerHasGone(RunnerSystem.standardOutput) { stop() }
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, nextCase < cases.count else { return nil }
        nextCase += 1
        running[nextCase - 1] = (Date(), runner)
        return nextCase - 1
    }

    /// The report of case `index`, waiting for it; nil when the run stopped before the case
    /// was run.
    func report(at index: Int) -> CaseReport? {
        condition.lock()
        defer { condition.unlock() }
        while reports[index] == nil && !(stopping && activeWorkers == 0)
            && !(nextCase >= cases.count && activeWorkers == 0)
        {
            guard let (started, runner) = running[index] else {
                condition.wait()
                continue
            }
            let giveUp = started.addingTimeInterval(caseLimit)
            if Date() < giveUp {
                _ = condition.wait(until: giveUp)
                continue
            }
            reports[index] = abandon(index, on: runner, after: Date().timeIntervalSince(started))
        }
        return reports.removeValue(forKey: index)
    }

    /// Gives up on case `index`, whose worker is stuck, and starts a worker in its place;
    /// called with `condition` held.
    private func abandon(_ index: Int, on runner: Runner, after seconds: TimeInterval) -> CaseReport {
        abandoned.insert(index)
        running[index] = nil
        stuckWorkers += 1
        busyWorkers += 1
        runners.removeAll { $0 === runner }
        let replacement = makeRunner()
        runners.append(replacement)
        Thread.detachNewThread { [self] in work(on: replacement) }
        var report = CaseReport(for: cases[index])
        report.seconds = seconds
        report.failure = CaseReport.Failure(
            message:
                "the runner got no result in \(Int(seconds)) s, stuck at \(runner.whereItIs); the case was given up and its job restarted"
        )
        return report
    }

    /// Lets no worker take another case.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the run, waits for the cases under way (`caseLimit` at most) and ends every
    /// driver of the workers that are not stuck.
    func finish() {
        stop()
        let deadline = Date().addingTimeInterval(caseLimit)
        condition.lock()
        while activeWorkers > 0 && condition.wait(until: deadline) {}
        let live = runners
        condition.unlock()
        for runner in live { runner.finish() }
    }
}
