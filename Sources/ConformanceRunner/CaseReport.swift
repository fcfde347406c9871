import Foundation

/// What running one case produced: every exchange with the driver and, if the case failed,
/// why (Spec/conformance.md §6.5).
struct CaseReport: Sendable {
    /// One step as it ran.
    struct Exchange: Sendable {
        /// The step's number, from 1.
        var number: Int
        var op: String
        /// The request as sent, with the `id` the runner gave it.
        var request: JSONValue
        var expect: JSONValue
        /// The line the driver answered with; nil when it gave none (it hung, crashed or
        /// stopped reading).
        var responseLine: String?
        var matched: Bool

        /// `step N (op)`, as reports name a step.
        var label: String { "step \(number) (\(op))" }
    }

    /// Why the case failed: one line (a JUnit failure message), then detail lines such as the
    /// bytes around a difference or the driver's last lines on standard error.
    struct Failure: Sendable {
        var message: String
        var details: [String] = []
    }

    var name: String
    var note: String?
    var exchanges: [Exchange] = []
    /// How many steps the case has; those after a failing step are not run.
    var stepCount: Int
    var failure: Failure?
    /// Wall-clock time the case took, for `--verbose` and JUnit only.
    var seconds: Double = 0

    var passed: Bool { failure == nil }

    init(for testCase: ConformanceCase) {
        name = testCase.name
        note = testCase.note
        stepCount = testCase.steps.count
    }
}
