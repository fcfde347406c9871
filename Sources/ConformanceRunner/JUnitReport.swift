import Foundation

/// A run's results as JUnit XML, for CI systems (Spec/conformance.md §6.6).
///
/// One `testsuite` per group of the run's summary (`RunSummary`): `png`, `store` and
/// `cache@BACKEND`, in the order cases were added, each with its area and backend as
/// properties; one `testcase` per case, named by its full name (`area/name[@backend]`). Every text that came from a case file or a driver is
/// escaped, and characters XML 1.0 cannot carry are written as `\u{XX}`, so the document is
/// always well-formed.
struct JUnitReport: Sendable {
    enum Result: Sendable, Equatable {
        case passed
        /// `message` is one line; `body` is the full report of the failure.
        case failed(message: String, body: String)
        case skipped(message: String)
    }

    struct TestCase: Sendable, Equatable {
        /// The case's area, or `expected-failures` for a stale list entry.
        var area: String
        /// The backend a cache scenario ran on; nil for the other areas.
        var backend: String?
        var name: String
        var seconds: Double
        var result: Result
    }

    private(set) var testCases: [TestCase] = []

    mutating func add(area: String, backend: String? = nil, name: String, seconds: Double = 0, result: Result)
    {
        testCases.append(TestCase(area: area, backend: backend, name: name, seconds: seconds, result: result))
    }

    /// The XML document, ending with a newline.
    var document: String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append("<testsuites name=\"conformance\"\(Self.counts(of: testCases))>")
        var suites: [RunSummary.Group] = []
        for testCase in testCases {
            let group = RunSummary.Group(area: testCase.area, backend: testCase.backend)
            if !suites.contains(group) { suites.append(group) }
        }
        for suite in suites {
            let members = testCases.filter { $0.area == suite.area && $0.backend == suite.backend }
            lines.append("  <testsuite name=\"\(Self.attribute(suite.name))\"\(Self.counts(of: members))>")
            lines.append("    <properties>")
            lines.append("      <property name=\"area\" value=\"\(Self.attribute(suite.area))\"/>")
            if let backend = suite.backend {
                lines.append("      <property name=\"backend\" value=\"\(Self.attribute(backend))\"/>")
            }
            lines.append("    </properties>")
            let classname = "conformance." + suite.area + (suite.backend.map { "." + $0 } ?? "")
            for member in members {
                let opening =
                    "    <testcase classname=\"\(Self.attribute(classname))\""
                    + " name=\"\(Self.attribute(member.name))\" time=\"\(Self.seconds(member.seconds))\""
                switch member.result {
                case .passed:
                    lines.append(opening + "/>")
                case .failed(let message, let body):
                    lines.append(opening + ">")
                    lines.append(
                        "      <failure message=\"\(Self.attribute(message))\">\(Self.text(body))</failure>")
                    lines.append("    </testcase>")
                case .skipped(let message):
                    lines.append(opening + ">")
                    lines.append("      <skipped message=\"\(Self.attribute(message))\"/>")
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func counts(of members: [TestCase]) -> String {
        let failures = members.filter { if case .failed = $0.result { true } else { false } }.count
        let skipped = members.filter { if case .skipped = $0.result { true } else { false } }.count
        let time = seconds(members.reduce(0) { $0 + $1.seconds })
        return
            " tests=\"\(members.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(time)\""
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// `text` escaped for an attribute value in double quotes; line breaks and tabs become
    /// character references so that they survive attribute normalisation.
    static func attribute(_ text: String) -> String {
        escape(text) { scalar in
            switch scalar {
            case "\"": return "&quot;"
            case "'": return "&apos;"
            case "\n": return "&#10;"
            case "\r": return "&#13;"
            case "\t": return "&#9;"
            default: return nil
            }
        }
    }

    /// `text` escaped for element content.
    static func text(_ text: String) -> String {
        escape(text) { $0 == "\r" ? "&#13;" : nil }
    }

    private static func escape(_ text: String, special: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = special(scalar) {
                result += replacement
                continue
            }
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r", "\u{20}"..."\u{D7FF}", "\u{E000}"..."\u{FFFD}", "\u{10000}"..."\u{10FFFF}":
                result.unicodeScalars.append(scalar)
            default:
                // XML 1.0 has no way to carry these, not even as a character reference.
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }
}
