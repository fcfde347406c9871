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
        report.add(area: "png", name: "png/a", seconds: 0.25, result: .passed)
        report.add(
            area: "png", name: awkwardName, seconds: 0.5, result: .failed(message: message, body: body))
        report.add(
            area: "store", name: "store/c",
            result: .skipped(message: "the driver does not implement the area store"))
        report.add(area: "cache", backend: "log", name: "cache/d@log", seconds: 0.125, result: .passed)
        report.add(area: "cache", backend: "hybrid", name: "cache/d@hybrid", seconds: 0.125, result: .passed)
        return report
    }

    @Test func theDocumentHasOneTestcasePerCaseGroupedByAreaAndBackend() {
        #expect(
            Self.sample().document == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="conformance" tests="5" failures="1" errors="0" skipped="1" time="1.000">
                  <testsuite name="png" tests="2" failures="1" errors="0" skipped="0" time="0.750">
                    <properties>
                      <property name="area" value="png"/>
                    </properties>
                    <testcase classname="conformance.png" name="png/a" time="0.250"/>
                    <testcase classname="conformance.png" name="png/b&lt;&amp;&gt;&quot;&apos;" time="0.500">
                      <failure message="step 1 (x): value: expected 2, got 1&#10;&#9;second line">line1
                  &lt;tag&gt; &amp; ]]&gt; \\u{1}\\u{1B}[0m&#13;</failure>
                    </testcase>
                  </testsuite>
                  <testsuite name="store" tests="1" failures="0" errors="0" skipped="1" time="0.000">
                    <properties>
                      <property name="area" value="store"/>
                    </properties>
                    <testcase classname="conformance.store" name="store/c" time="0.000">
                      <skipped message="the driver does not implement the area store"/>
                    </testcase>
                  </testsuite>
                  <testsuite name="cache@log" tests="1" failures="0" errors="0" skipped="0" time="0.125">
                    <properties>
                      <property name="area" value="cache"/>
                      <property name="backend" value="log"/>
                    </properties>
                    <testcase classname="conformance.cache.log" name="cache/d@log" time="0.125"/>
                  </testsuite>
                  <testsuite name="cache@hybrid" tests="1" failures="0" errors="0" skipped="0" time="0.125">
                    <properties>
                      <property name="area" value="cache"/>
                      <property name="backend" value="hybrid"/>
                    </properties>
                    <testcase classname="conformance.cache.hybrid" name="cache/d@hybrid" time="0.125"/>
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
                    "png/a", Self.awkwardName, "store/c", "cache/d@log", "cache/d@hybrid",
                ])
            let failure = try #require(try document.nodes(forXPath: "//failure").first as? XMLElement)
            #expect(failure.attribute(forName: "message")?.stringValue == Self.message)
            #expect(failure.stringValue == "line1\n  <tag> & ]]> \\u{1}\\u{1B}[0m\r")
        }
    #endif
}
