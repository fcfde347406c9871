import Foundation
import Testing

@testable import ConformanceRunner

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit XML report (Spec/conformance.md §6.6).
@Suite struct JUnitReportTests {
    static let awkwardName = "png/b<&>\"'"
    static let message = "step 1 (x): value: expected 2, got 1\n\tsecond line"
    static let body = "line1\n  <tag> & ]]> \u{1}\u{1B}[0m\r"

    static func sample() -> JUnitReport {
        var report = JUnitReport()
        report.add(suite: "png", name: "png/a", seconds: 0.25, result: .passed)
        report.add(
            suite: "png", name: awkwardName, seconds: 0.5, result: .failed(message: message, body: body))
        report.add(
            suite: "store", name: "store/c",
            result: .skipped(message: "the driver does not implement the area store"))
        return report
    }

    @Test func theDocumentHasOneTestcasePerCaseGroupedByArea() {
        #expect(
            Self.sample().document == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="conformance" tests="3" failures="1" errors="0" skipped="1" time="0.750">
                  <testsuite name="png" tests="2" failures="1" errors="0" skipped="0" time="0.750">
                    <testcase classname="conformance.png" name="png/a" time="0.250"/>
                    <testcase classname="conformance.png" name="png/b&lt;&amp;&gt;&quot;&apos;" time="0.500">
                      <failure message="step 1 (x): value: expected 2, got 1&#10;&#9;second line">line1
                  &lt;tag&gt; &amp; ]]&gt; \\u{1}\\u{1B}[0m&#13;</failure>
                    </testcase>
                  </testsuite>
                  <testsuite name="store" tests="1" failures="0" errors="0" skipped="1" time="0.000">
                    <testcase classname="conformance.store" name="store/c" time="0.000">
                      <skipped message="the driver does not implement the area store"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    #if canImport(FoundationXML)
        /// An XML parser reads back exactly the texts that went in (except the characters XML
        /// cannot carry, which are spelt out).
        @Test func anXMLParserReadsBackEveryText() throws {
            let document = try XMLDocument(data: Data(Self.sample().document.utf8), options: [])
            let testcases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
            #expect(
                testcases.map { $0.attribute(forName: "name")?.stringValue } == [
                    "png/a", Self.awkwardName, "store/c",
                ])
            let failure = try #require(try document.nodes(forXPath: "//failure").first as? XMLElement)
            #expect(failure.attribute(forName: "message")?.stringValue == Self.message)
            #expect(failure.stringValue == "line1\n  <tag> & ]]> \\u{1}\\u{1B}[0m\r")
        }
    #endif
}
