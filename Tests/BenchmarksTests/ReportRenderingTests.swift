import Foundation
import TestSupport
import Testing

@testable import BenchmarkReporting
@testable import Benchmarks

/// The renderers on hand-made results, including names that would break Markdown or XML.
@Suite struct ReportRenderingTests {
    static let machine = MachineDescription(
        cores: 2, processor: "Test <CPU> & \"co\"", memoryBytes: 8 << 30, operatingSystem: "TestOS 1",
        kernel: "Kernel 1", build: "release")

    static func throughput(_ op: String, _ backend: String, size: Int, seconds: Double) -> BenchmarkResult {
        BenchmarkResult(
            suite: "throughput", op: op, backend: backend, bytes: size * 4, count: 4, seconds: seconds,
            spread: 0.05, repeats: 3, extra: [("value_bytes", Double(size))])
    }

    static func report(_ results: [BenchmarkResult]) -> BenchmarkReport {
        BenchmarkReport(
            machine: machine, preset: "smoke", command: "imagecache bench | tee",
            date: Date(timeIntervalSince1970: 0),
            elapsed: 1.5, results: results)
    }

    @Test func markdownTableEscapesPipesAndPadsShortRows() throws {
        let table = MarkdownTable(
            columns: [MarkdownTable.Column("name", .left), MarkdownTable.Column("value")],
            rows: [["a|b", "1"], ["line\nbreak"]])
        let text = table.render()
        let rows = try MarkdownCheck.table(text.split(separator: "\n").map(String.init))
        #expect(rows.count == 4)
        #expect(rows[2] == ["a\\|b", "1"])
        #expect(rows[3] == ["line break", ""])
        #expect(rows[1][0].hasSuffix("-") && rows[1][1].hasSuffix(":"))
    }

    @Test func throughputTablesPivotBackendsIntoColumns() throws {
        let results = [4096, 16_384].flatMap { size in
            ["log", "raw-file"].flatMap { backend in
                ["write", "read"].map { Self.throughput($0, backend, size: size, seconds: 0.001) }
            }
        }
        let markdown = Self.report(results).markdown()
        let tables = try MarkdownCheck.tables(in: markdown)
        #expect(tables.count == 2)
        #expect(tables[0][0] == ["value size", "log", "raw-file"])
        #expect(tables[0].map(\.first) == ["value size", "---------:", "4 KiB", "16 KiB"])
        // 4 × 4096 bytes in a millisecond is 16.4 MB/s.
        #expect(tables[0][2][1] == "16.4 ±5.0%")
        #expect(markdown.contains("`imagecache bench | tee`"))
    }

    @Test func otherSuitesGetEveryField() throws {
        let results = [
            BenchmarkResult(
                suite: "png", op: "decode", file: "a|b.png", bytes: 1 << 20, count: 1, seconds: 0.01),
            BenchmarkResult(
                suite: "store", op: "get", backend: "log", bytes: 4096, count: 1, seconds: 1e-6, p50: 1e-6,
                p99: 2e-6),
        ]
        let tables = try MarkdownCheck.tables(in: Self.report(results).markdown())
        #expect(tables.count == 2)
        #expect(tables[0][0].contains("file") && !tables[0][0].contains("p99"))
        #expect(tables[1][0].contains("p99") && tables[1][0].contains("backend"))
    }

    @Test func readFloorTableFollowsTheTargetsWhenTheRunMeasuredIt() throws {
        // 20 reads of 4 KiB each: pread in 20 µs (1 M/s), the checked copy in 25 µs (0.8×).
        func read(_ op: String, _ backend: String, microseconds: Double) -> BenchmarkResult {
            BenchmarkResult(
                suite: "store", op: op, backend: backend, bytes: 20 * 4096, count: 20,
                seconds: microseconds * 1e-6, spread: 0.1, repeats: 5)
        }
        let reads = [
            read("posix_read", "posix", microseconds: 20), read("mapped_copy", "posix", microseconds: 10),
            read("get", "log", microseconds: 40),
        ]
        let withoutFloor = Self.report(reads).markdown()
        #expect(withoutFloor.contains("## Targets") && !withoutFloor.contains("floor under"))
        let markdown = Self.report(reads + [read("mapped_copy_checked", "posix", microseconds: 25)])
            .markdown()
        let tables = try MarkdownCheck.tables(in: markdown)
        let floor = try #require(tables.first { $0.first?.first == "4 KiB read, one thread" })
        #expect(floor.dropFirst(2).map { $0[2] } == ["1.00×", "2.00×", "0.80×", "0.50×"])
        #expect(floor[4][0] == "the same copy and its record checksum, no lookup")
        // It follows the targets, before the store's own table.
        let targets = try #require(markdown.range(of: "## Targets"))
        let floorText = try #require(markdown.range(of: "floor under the 4 KiB"))
        let storeSection = try #require(markdown.range(of: "## Log store"))
        #expect(targets.upperBound < floorText.lowerBound && floorText.upperBound < storeSection.lowerBound)
        #expect(floor[0].count == 3)

        // With `pread` of the values in the log (25 µs), each row is also divided by that.
        let withLog = Self.report(
            reads + [
                read("mapped_copy_checked", "posix", microseconds: 25),
                read("posix_read_log", "posix", microseconds: 25),
            ]
        ).markdown()
        let logFloor = try #require(
            try MarkdownCheck.tables(in: withLog).first { $0.first?.first == "4 KiB read, one thread" })
        #expect(logFloor[0].last == "÷ pread in the log")
        #expect(logFloor[3][0].hasPrefix("`pread` of the same values in the log"))
        #expect(logFloor.dropFirst(2).map { $0[3] } == ["1.25×", "1.00×", "2.50×", "1.00×", "0.62×"])
    }

    @Test func readsTimedInTheSameRoundsCompareRoundByRound() throws {
        // pread in 20 µs and the hit in 25 µs by their medians (0.80×), but 0.90× paired.
        var hit = BenchmarkResult(
            suite: "store", op: "cache_get", backend: "log", bytes: 20 * 4096, count: 20, seconds: 25e-6)
        let pread = BenchmarkResult(
            suite: "store", op: "posix_read", backend: "posix", bytes: 20 * 4096, count: 20, seconds: 20e-6)
        let checked = BenchmarkResult(
            suite: "store", op: "mapped_copy_checked", backend: "posix", bytes: 20 * 4096, count: 20,
            seconds: 10e-6)
        func hitRatios(_ results: [BenchmarkResult]) throws -> (target: String, floor: String) {
            let markdown = Self.report(results).markdown()
            let tables = try MarkdownCheck.tables(in: markdown)
            let targets = try #require(tables.first { $0.first?.first == "target" })
            let target = try #require(targets.first { $0[0].hasPrefix("cache bytes(forKey:) hit") })
            let floor = try #require(tables.first { $0.first?.first == "4 KiB read, one thread" })
            let row = try #require(floor.first { $0[0] == "cache `bytes(forKey:)` hit" })
            return (target[1], row[2])
        }
        #expect(try hitRatios([pread, checked, hit]) == ("0.80×", "0.80×"))
        hit.extra = [("paired_vs_posix_read", 0.9)]
        #expect(try hitRatios([pread, checked, hit]) == ("0.90×", "0.90×"))
    }

    @Test func chartHasOnePathPerBackendAndEscapesText() throws {
        let sizes = BenchmarkPreset.allThroughputSizes
        let results = sizes.flatMap { size in
            ["dictionary", "a<b&c", "raw-file"].flatMap { backend in
                ["write", "read"].map {
                    Self.throughput($0, backend, size: size, seconds: Double(size) / 1e9)
                }
            }
        }
        let chart = try #require(Self.report(results).throughputChart())
        let parsed = try SVGCheck.parse(Data(chart.svg().utf8))
        #expect(parsed.series.count == 6)
        #expect(Set(parsed.series.map(\.backend)) == ["dictionary", "a<b&c", "raw-file"])
        #expect(parsed.series.allSatisfy { $0.pointCount == sizes.count })
        #expect(parsed.texts.contains { $0.contains("Test <CPU> & \"co\"") })
        #expect(parsed.texts.contains("4 KiB") && parsed.texts.contains("64 MiB"))
        #expect(parsed.texts.contains("raw-file (baseline)"))
    }

    @Test func noThroughputResultsMeansNoChart() {
        let results = [
            BenchmarkResult(suite: "open", op: "open", backend: "log", bytes: 1, count: 1, seconds: 1)
        ]
        #expect(Self.report(results).throughputChart() == nil)
    }

    @Test func logAxisCoversTheDataInWholeDecades() {
        let axis = LogAxis(values: [3, 420])
        #expect(axis.lower == 0 && axis.upper == 3)
        #expect(axis.position(of: 1) == 0 && axis.position(of: 1000) == 1)
        #expect(axis.ticks.map(\.value) == [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000])
        #expect(axis.ticks.filter(\.labelled).map(\.value) == [1, 10, 100, 1000])
        let flat = LogAxis(values: [100, 100])
        #expect(flat.lower == 2 && flat.upper == 3)
    }

    @Test func formatting() {
        #expect(Formatting.bytes(4096) == "4 KiB")
        #expect(Formatting.bytes(64 << 20) == "64 MiB")
        #expect(Formatting.bytes(1536) == "1.50 KiB")
        #expect(Formatting.duration(0.0123) == "12.3 ms")
        #expect(Formatting.duration(2.5e-6) == "2.50 µs")
        #expect(Formatting.rate(1_234_567) == "1 234 567")
        #expect(Formatting.spread(0.04) == "±4.0%")
        #expect(Formatting.spread(0.25) == "±25%")
        #expect(SVGText.escape("a<b>&\"'\u{1B}") == "a&lt;b&gt;&amp;&quot;&apos; ")
    }
}

@Suite struct SupportTests {
    @Test func rawFileStoreRoundTripsAndReopens() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("store")
        let store = try RawFileStore(directory: url)
        let key = "a/../b\u{0}c é"
        try store.store([1, 2, 3], forKey: key)
        try store.store([], forKey: "empty")
        try store.synchronize()
        #expect(try store.value(forKey: key) == [1, 2, 3])
        #expect(try store.value(forKey: "empty") == [])
        #expect(try store.value(forKey: "missing") == nil)
        let reopened = try RawFileStore(directory: url)
        #expect(reopened.count == 2)
        try reopened.removeAll()
        #expect(reopened.count == 0)
        #expect(try RawFileStore(directory: url).count == 0)
    }

    @Test func rawFileNamesAreHexOfTheKey() {
        #expect(RawFileStore.fileName(forKey: "A/") == "412f")
        #expect(RawFileStore.key(forFileName: "412f") == "A/")
        #expect(RawFileStore.key(forFileName: "41x2") == nil)
        #expect(RawFileStore.key(forFileName: "412") == nil)
    }

    @Test func sampleDataIsDeterministicAndDistinct() {
        #expect(SampleData.bytes(count: 13, seed: 7) == SampleData.bytes(count: 13, seed: 7))
        #expect(SampleData.bytes(count: 13, seed: 7) != SampleData.bytes(count: 13, seed: 8))
        #expect(SampleData.bytes(count: 13, seed: 7).prefix(8) == SampleData.bytes(count: 8, seed: 7)[...])
    }

    @Test func phasesSumWithinARepeatAndKeepTheirOrder() {
        let sampler = Sampler(repeats: 3, warmUp: true)
        var calls: [Int] = []
        let phases = sampler.measurePhases { index, timer in
            calls.append(index)
            timer.record("b", seconds: 1)
            timer.record("a", seconds: Double(index))
            timer.record("b", seconds: 1)
        }
        #expect(calls == [-1, 0, 1, 2])
        #expect(phases.map(\.phase) == ["b", "a"])
        #expect(phases[0].summary.samples == [2, 2, 2])
        #expect(phases[1].summary.median == 1)
    }

    @Test func interleavedRoundsRotateTheFirstWorkAndTimeEachOncePerRound() throws {
        let sampler = Sampler(repeats: 4, warmUp: true)
        var calls: [Int] = []
        let summaries = try sampler.measureInterleaved(
            (0..<3).map { index in { calls.append(index) } })
        // The warm-up runs each work once in order; round r then starts at work r % 3.
        #expect(calls == [0, 1, 2, 0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2])
        #expect(summaries.map(\.samples.count) == [4, 4, 4])
        let failing = Sampler(repeats: 2, warmUp: false)
        #expect(throws: BenchmarkError.self) {
            _ = try failing.measureInterleaved([
                {}, { throw BenchmarkError.verificationFailed(suite: "t", backend: "b", detail: "d") },
            ])
        }
    }

    @Test func progressLineStaysQuietForShortWorkAndWhenDisabled() {
        let lines = LineCollector()
        let progress = ProgressLine(enabled: true) { lines.append($0) }
        progress.begin("task")
        progress.update("step", done: 1, of: 2)
        progress.clear()
        let silent = ProgressLine(enabled: false) { lines.append($0) }
        silent.begin("task")
        silent.update("step")
        silent.clear()
        #expect(lines.all.isEmpty)
    }

    @Test func purgeAndPresetsAreConsistent() {
        for preset in [BenchmarkPreset.full, .quick, .smoke] {
            #expect(preset.purgeEntries % 2 == 0)
            #expect(preset.throughputSizes.allSatisfy { preset.throughputCount(forSize: $0) >= 1 })
            #expect(preset.repeats >= 2)
        }
        #expect(BenchmarkPreset.full.protocolCounts == [10, 100, 1000])
        #expect(BenchmarkPreset.full.openCounts == [1000, 10_000, 100_000])
        #expect(BenchmarkPreset.full.throughputSizes.first == 4096)
        #expect(BenchmarkPreset.full.throughputSizes.last == 64 << 20)
    }
}

/// Collects what a progress line writes.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
