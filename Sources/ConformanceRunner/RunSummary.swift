/// A run's results counted by area and backend, printed as a table before the last line
/// (Spec/conformance.md §6.1). The groups are those of the JUnit report's test suites (§6.6):
/// `png`, `store`, and `cache@BACKEND` for each backend the cache scenarios ran on.
struct RunSummary: Sendable {
    /// What became of one case.
    enum Outcome: Sendable {
        case passed
        case failed
        /// A listed expected failure that still fails (it counts as passing, §6.2).
        case expectedFailure
        /// A case of an area the driver does not implement.
        case skipped
    }

    struct Group: Hashable, Sendable {
        var area: String
        var backend: String?

        /// The group's name: the area, and `@BACKEND` for a cache backend.
        var name: String { backend.map { "\(area)@\($0)" } ?? area }
    }

    private struct Counts: Sendable {
        var passed = 0
        var failed = 0
        var expectedFailures = 0
        var skipped = 0

        mutating func add(_ outcome: Outcome) {
            switch outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .expectedFailure: expectedFailures += 1
            case .skipped: skipped += 1
            }
        }

        var cells: [String] { [passed, failed, expectedFailures, skipped].map(String.init) }
    }

    /// The groups in the order their first case ran.
    private(set) var groups: [Group] = []
    private var counts: [Group: Counts] = [:]

    mutating func add(_ outcome: Outcome, area: String, backend: String?) {
        let group = Group(area: area, backend: backend)
        if counts[group] == nil { groups.append(group) }
        counts[group, default: Counts()].add(outcome)
    }

    /// The table: a heading, one row per group and a total, columns aligned.
    var lines: [String] {
        var total = Counts()
        for counts in counts.values {
            total.passed += counts.passed
            total.failed += counts.failed
            total.expectedFailures += counts.expectedFailures
            total.skipped += counts.skipped
        }
        let rows =
            [["area", "backend", "passed", "failed", "xfail", "skipped"]]
            + groups.map { [$0.area, $0.backend ?? "-"] + counts[$0]!.cells }
            + [["total", ""] + total.cells]
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
