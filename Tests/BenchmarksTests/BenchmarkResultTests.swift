import Benchmarks
import Foundation
import Testing

@Suite struct BenchmarkResultTests {
    @Test func jsonLineHasTheStandardFieldsInOrder() throws {
        let result = BenchmarkResult(
            suite: "store", op: "put", backend: "log", bytes: 4096 * 1000, count: 1000,
            seconds: 0.01, spread: 0.1, repeats: 5)
        let line = result.jsonLine
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["suite"] as? String == "store")
        #expect(object["backend"] as? String == "log")
        #expect((object["ops_per_s"] as? NSNumber)?.doubleValue == 100_000)
        #expect(abs(((object["mb_per_s"] as? NSNumber)?.doubleValue ?? 0) - 409.6) < 1e-9)
        let order = ["suite", "op", "backend", "bytes", "count", "seconds", "ops_per_s", "mb_per_s"]
        let positions = order.map { line.range(of: "\"\($0)\"")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func jsonEscapesFileNames() throws {
        let line = BenchmarkResult(
            suite: "png", op: "decode", file: "a \"b\"\n.png", bytes: 1, count: 1, seconds: 1
        ).jsonLine
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "a \"b\"\n.png")
    }

    @Test func medianAndSpread() {
        let summary = Summary(samples: [3, 1, 2, 10, 4])
        #expect(summary.median == 3)
        #expect(summary.spread == 3)
        #expect(Summary.percentile(0.99, of: Array(1...100).map(Double.init)) > 99)
    }

    /// Two works timed in the same rounds, while the machine slows down fourfold for the last
    /// three: round by round the second takes 1.2, 1.2, 1.1, 1.1 and 1.0 times the first. The
    /// paired ratio is the median of those, 1.1; the ratio of the two medians (4.0 ÷ 4) misses
    /// it.
    @Test func medianRatioPairsRounds() throws {
        let first: [Double] = [1, 1, 4, 4, 4]
        let second: [Double] = [1.2, 1.2, 4.4, 4.4, 4.0]
        let paired = try #require(Summary.medianRatio(of: second, over: first))
        #expect(abs(paired - 1.1) < 1e-12)
        #expect(Summary(samples: second).median / Summary(samples: first).median == 1)
        #expect(Summary.medianRatio(of: [1, 2], over: [1]) == nil)
        #expect(Summary.medianRatio(of: [], over: []) == nil)
        #expect(Summary.medianRatio(of: [1], over: [0]) == nil)
    }
}
