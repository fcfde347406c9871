import Foundation
import Testing

/// Sessions on one folder (Spec/conformance.md §5.8, §6.8): which driver process gets which
/// step, what the runner fills into `cache.join`, and cases skipped for a missing feature.
@Suite struct RunnerSessionTests {
    static let sharingCase = """
        {"area": "cache", "cases": [{"name": "two", "requires": ["sharing"], "steps": [
          {"request": {"op": "cache.open", "now": 0, "configuration": {}}, "expect": {"folder": "/shared/folder"}},
          {"request": {"op": "cache.join", "session": "B", "now": 0, "configuration": {}}, "expect": {"value": 1}},
          {"request": {"op": "cache.read", "session": "B", "key": "k"}, "expect": {"value": 1}},
          {"request": {"op": "cache.read", "key": "k"}, "expect": {"value": 1}}
        ]}]}
        """

    static let sharingHello =
        #""protocol":1,"implementation":"fake","areas":["png","cache"],"backends":["log"],"features":["sharing"]"#

    @Test func stepsOfOtherSessionsGoToTheSecondDriverWithTheFolderFilledIn() throws {
        let first = try FakeDriverFolder(png: #"{"area": "png", "cases": []}"#, cache: Self.sharingCase)
        let second = try FakeDriverFolder(cases: [])
        defer {
            first.remove()
            second.remove()
        }
        try first.reply(to: "hello", with: Self.sharingHello)
        try first.reply(to: "cache.open", with: #""folder":"/shared/folder""#)
        try second.reply(to: "hello", with: Self.sharingHello)
        let run = try ConformanceRun.run(
            [
                "--cases", first.casesPath, "--second-driver", second.driverCommand.joined(separator: " "),
                "--",
            ]
                + first.driverCommand)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.counts?.passed == 1)
        let mine = first.requests.filter { !$0.contains("\"hello\"") }
        let partner = second.requests.filter { !$0.contains("\"hello\"") }
        #expect(mine.count == 2 && mine.allSatisfy { !$0.contains("\"session\"") }, "\(mine)")
        #expect(partner.count == 2 && partner.allSatisfy { $0.contains(#""session":"B""#) }, "\(partner)")
        #expect(partner.first?.contains(#""folder":"/shared/folder""#) == true, "\(partner)")
        #expect(partner.first?.contains(#""backend":"log""#) == true, "\(partner)")
    }

    @Test func aCaseNeedingAFeatureTheDriverLacksIsSkippedNotPassed() throws {
        let folder = try FakeDriverFolder(png: #"{"area": "png", "cases": []}"#, cache: Self.sharingCase)
        defer { folder.remove() }
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let run = try ConformanceRun.run(
            ["--cases", folder.casesPath, "--junit", junit, "--"] + folder.driverCommand)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.counts?.passed == 0)
        #expect(run.output.contains("skipped 1 cases that need features a driver lacks: sharing"))
        #expect(
            try String(contentsOfFile: junit, encoding: .utf8).contains(
                "the driver does not implement sharing"))
        #expect(!folder.requests.contains { $0.contains("cache.") }, "no step of the case ran")
    }

    @Test func aSecondDriverWithoutTheFeatureSkipsTheCaseToo() throws {
        let first = try FakeDriverFolder(png: #"{"area": "png", "cases": []}"#, cache: Self.sharingCase)
        let second = try FakeDriverFolder(cases: [])
        defer {
            first.remove()
            second.remove()
        }
        try first.reply(to: "hello", with: Self.sharingHello)
        let run = try ConformanceRun.run(
            [
                "--cases", first.casesPath, "--second-driver", second.driverCommand.joined(separator: " "),
                "--",
            ]
                + first.driverCommand)
        #expect(
            run.output.contains("skipped 1 cases that need features a driver lacks: sharing"), "\(run.output)"
        )
        #expect(run.output.contains("second driver: fake"))
    }

    @Test func aCaseThatUsesSessionsWithoutRequiringSharingIsRefused() throws {
        let unmarked = Self.sharingCase.replacingOccurrences(of: #""requires": ["sharing"], "#, with: "")
        let folder = try FakeDriverFolder(png: #"{"area": "png", "cases": []}"#, cache: unmarked)
        defer { folder.remove() }
        let run = try ConformanceRun.run(["--cases", folder.casesPath, "--"] + folder.driverCommand)
        #expect(run.status == 2)
        #expect(run.output.contains("uses sessions but does not list \"sharing\""), "\(run.output)")
    }
}
