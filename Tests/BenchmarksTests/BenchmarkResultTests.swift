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
}
