import Benchmarks

/// What bounds the 4 KiB read targets: the same bytes copied out of a mapping with no lookup,
/// with and without their record checksum, beside `pread` and the store's and cache's reads,
/// all from the store suite's interleaved rounds. A verified get copies, checks and looks the
/// key up, so it cannot run faster than the checked copy; the table shows how far the targets
/// against `pread` sit from that floor on the machine of the run.
extension BenchmarkReport {
    /// The table, or nil when the run did not measure the floor.
    func readFloorSection() -> String? {
        guard let pread = storeResult("posix_read"), pread.opsPerSecond > 0,
            storeResult("mapped_copy_checked") != nil
        else { return nil }
        let reads: [(String, String)] = [
            ("posix_read", "`pread` of the raw file"),
            ("posix_read_log", "`pread` of the same values in the log, at their records' offsets"),
            ("mapped_copy", "copy out of a mapping of the raw file, no lookup"),
            ("mapped_copy_checked", "the same copy and its record checksum, no lookup"),
            ("get", "store get, verified"),
            ("cache_with_value", "cache `withValue(forKey:)` hit"),
            ("cache_get", "cache `bytes(forKey:)` hit"),
        ]
        // Runs from before the log's own `pread` was measured have no second ratio.
        let preadOfLog = storeResult("posix_read_log").flatMap { $0.opsPerSecond > 0 ? $0 : nil }
        let rows = reads.compactMap { op, name -> [String]? in
            guard let read = storeResult(op) else { return nil }
            var row = [
                name, Formatting.rate(read.opsPerSecond) + " " + Formatting.spread(read.spread),
                String(format: "%.2f×", BenchmarkReport.rateRatio(of: read, over: pread)),
            ]
            if let preadOfLog {
                row.append(String(format: "%.2f×", BenchmarkReport.rateRatio(of: read, over: preadOfLog)))
            }
            return row
        }
        var columns = [
            MarkdownTable.Column("4 KiB read, one thread", .left), MarkdownTable.Column("ops/s"),
            MarkdownTable.Column("÷ pread"),
        ]
        if preadOfLog != nil { columns.append(MarkdownTable.Column("÷ pread in the log")) }
        let table = MarkdownTable(columns: columns, rows: rows)
        return "The floor under the 4 KiB read targets: a verified get copies the value out of the mapping, "
            + "computes its record checksum and looks the key up, so it cannot run faster than the checked "
            + "copy alone. The targets divide by the first row, `pread` of a raw file that holds each value at "
            + "a page-aligned offset; the second reads the values where the log holds them, after each "
            + "record's header and key.\n\n" + table.render()
    }
}
