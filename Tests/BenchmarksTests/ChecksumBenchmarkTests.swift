import Benchmarks
import Foundation
import Testing

@Suite struct ChecksumBenchmarkTests {
    /// A tiny run: every algorithm, size and variant reports once, with the fields the JSON
    /// consumers read. Timings are not asserted; only that the figures are there and consistent.
    @Test func tinyRunReportsEveryAlgorithmSizeAndVariant() throws {
        let configuration = ChecksumBenchmark.Configuration(
            sizes: [4_096, 100_000], bytesPerRepeat: 200_000, repeats: 2, poolBytes: 1 << 20)
        let results = try ChecksumBenchmark.run(configuration)
        let ops = ["crc32", "xxh3", "xxh3_chunked"]
        #expect(results.count == ops.count * 2 * 2)
        #expect(Set(results.map(\.op)) == Set(ops))
        for size in [4_096, 100_000] {
            for variant in ["cached", "uncached"] {
                let group = results.filter {
                    $0.variant == variant && $0.extra.contains { $0 == ("value_bytes", Double(size)) }
                }
                #expect(group.map(\.op) == ops, "\(variant) \(size)")
                for result in group {
                    #expect(result.suite == "checksum")
                    #expect(result.count == 200_000 / size)
                    #expect(result.bytes == size * result.count)
                    #expect(result.repeats == 2)
                    #expect(result.seconds > 0)
                }
                let crc = try #require(group.first { $0.op == "crc32" })
                #expect(crc.extra.contains { $0 == ("vs_crc32", 1) })
            }
        }
        let line = try #require(results.first?.jsonLine)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["suite"] as? String == "checksum")
        #expect(object["mb_per_s"] is Double || object["mb_per_s"] is Int)
        #expect(object["spread"] != nil)
    }

    @Test func poolIsDeterministic() {
        let pool = ChecksumBenchmark.makePool(byteCount: 1_000)
        #expect(pool.count == 1_000)
        #expect(pool == ChecksumBenchmark.makePool(byteCount: 1_000))
        #expect(Set(pool).count > 200)
    }
}
