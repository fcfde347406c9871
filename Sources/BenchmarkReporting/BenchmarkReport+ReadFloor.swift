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
            ("mapped_copy", "copy out of a mapping of the raw file, no lookup"),
            ("mapped_copy_checked", "the same copy and its record checksum, no lookup"),
            ("get", "store get, verified"),
            ("cache_with_value", "cache `withValue(forKey:)` hit"),
            ("cache_get", "cache `bytes(forKey:)` hit"),
        ]
        let rows = reads.compactMap { op, name -> [String]? in
            guard let read = storeResult(op) else { return nil }
            return [
                name, Formatting.rate(read.opsPerSecond) + " " + Formatting.spread(read.spread),
                String(format: "%.2f×", read.opsPerSecond / pread.opsPerSecond),
            ]
        }
        let table = MarkdownTable(
            columns: [
                MarkdownTable.Column("4 KiB read, one thread", .left), MarkdownTable.Column("ops/s"),
                MarkdownTable.Column("÷ pread"),
            ],
            rows: rows)
        return "The floor under the 4 KiB read targets: a verified get copies the value out of the mapping, "
            + "computes its record checksum and looks the key up, so it cannot run faster than the checked "
            + "copy alone.\n\n" + table.render()
    }
}
