import Foundation
import TestSupport
import Testing

@testable import BenchmarkReporting
@testable import Benchmarks

/// The `sync` suite reports, for each backend, the bytes on disk beside the value bytes after
/// the seeds' workload (issue 22), and the report shows them as a table.
@Suite struct DiskUsageBenchmarkTests {
    @Test func everySubjectReportsItsDiskBytesAfterTheProtocol() throws {
        let scratch = TemporaryDirectory()
        var options = BenchOptions(quick: true, scratchDirectory: scratch.url)
        options.preset = .smoke
        let results = try SynchronizeBenchmark.run(options)
        let last = results.filter { $0.op == "store_synchronize" }
        let subjects = BenchmarkSubjects.backends.map(\.name) + ["raw-file"]
        #expect(Set(last.compactMap(\.backend)) == Set(subjects))
        for result in last {
            let stored = try #require(result.extra("stored_bytes"), "\(result.jsonLine)")
            let disk = try #require(result.extra("disk_bytes"), "\(result.jsonLine)")
            #expect(stored > 0, "\(result.jsonLine)")
            // Every file takes whole blocks, and every store keeps at least the values.
            #expect(disk >= stored, "\(result.jsonLine)")
            #expect(disk.truncatingRemainder(dividingBy: 512) == 0)
            if result.variant == "raw" {
                // The raw data is the same PNG files on every subject.
                #expect(stored == Double(result.bytes), "\(result.jsonLine)")
            }
        }
        // Only the last step carries them.
        #expect(results.filter { $0.extra("disk_bytes") != nil }.count == last.count)
    }

    @Test func theSynchronizeSectionShowsDiskUsageAsATable() throws {
        func result(_ op: String, _ backend: String, extra: [(String, Double)] = []) -> BenchmarkResult {
            BenchmarkResult(
                suite: "sync", op: op, backend: backend, variant: "raw", bytes: 40_000, count: 10,
                seconds: 0.01,
                spread: 0.1, repeats: 3, extra: [("items", 10), ("value_bytes", 4_000)] + extra)
        }
        let results = [
            result("store", "log"),
            result("store_synchronize", "log", extra: [("stored_bytes", 40_000), ("disk_bytes", 53_248)]),
            result("store", "directory"),
            result(
                "store_synchronize", "directory", extra: [("stored_bytes", 40_000), ("disk_bytes", 106_496)]),
        ]
        let tables = try MarkdownCheck.tables(in: BenchmarkReport.synchronizeSection(results))
        #expect(tables.count == 2)
        #expect(tables[1][0] == ["data", "X", "backend", "values", "on disk", "overhead"])
        #expect(tables[1][2] == ["raw", "10", "log", "39.1 KiB", "52 KiB", "1.33×"])
        #expect(tables[1][3] == ["raw", "10", "directory", "39.1 KiB", "104 KiB", "2.66×"])
        // Results of older runs carry no disk figures: no table, no empty rows.
        let old = results.map {
            var plain = $0
            plain.extra = Array(plain.extra.prefix(2))
            return plain
        }
        #expect(try MarkdownCheck.tables(in: BenchmarkReport.synchronizeSection(old)).count == 1)
    }
}
