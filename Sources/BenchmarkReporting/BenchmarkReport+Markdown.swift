import Benchmarks

/// The report for people: a heading that names the machine and the run, then one section per
/// suite. Each figure is a median followed by its spread, `12.3 ±4.0%`.
extension BenchmarkReport {
    /// The whole report as Markdown.
    public func markdown(headingLevel: Int = 1) -> String {
        let top = String(repeating: "#", count: headingLevel)
        var text = "\(top) ImageCache benchmarks\n\n"
        text += "- Machine: \(machine.summary).\n"
        text +=
            "- Run: `\(command)` (\(preset) preset), \(dateText), "
            + "\(Formatting.duration(elapsed)) in all"
        if !suiteSeconds.isEmpty {
            text +=
                " ("
                + suiteSeconds.map { "`\($0.suite)` \(Formatting.duration($0.seconds))" }
                .joined(separator: ", ") + ")"
        }
        text += ".\n"
        if let written = diskBytesWritten {
            text +=
                "- Written to the disk by the run: \(Formatting.bytes(written)) (`write_bytes` of `/proc/self/io`"
            if !suiteDiskBytesWritten.isEmpty {
                text +=
                    "; "
                    + suiteSeconds.compactMap { entry in
                        suiteDiskBytesWritten[entry.suite].map { "`\(entry.suite)` \(Formatting.bytes($0))" }
                    }.joined(separator: ", ")
            }
            text += ").\n"
        }
        text +=
            "- Each figure is the median of \(repeatsText) timed repeats; `±` is the spread, "
            + "(max − min) / median. Compare figures within one run: the machine is shared.\n"
        if let targets = targetsSection() {
            text += "\n" + top + "# Targets\n\n" + targets
            if let floor = readFloorSection() { text += "\n" + floor }
        }
        for suite in suites {
            let results = self.results.filter { $0.suite == suite }
            text += "\n" + top + "# " + BenchmarkReport.title(ofSuite: suite) + " (`\(suite)`)\n\n"
            text += BenchmarkReport.section(suite: suite, results: results, headingLevel: headingLevel + 2)
        }
        return text
    }

    /// `5` or `3–5`.
    var repeatsText: String {
        let counts = results.map(\.repeats)
        guard let low = counts.min(), let high = counts.max() else { return "0" }
        return low == high ? "\(low)" : "\(low)–\(high)"
    }

    static func title(ofSuite suite: String) -> String {
        switch suite {
        case SynchronizeBenchmark.suite.name: return "Store, then synchronize"
        case ThroughputBenchmark.suite.name: return "Throughput by value size"
        case OpenBenchmark.suite.name: return "Open time by entry count"
        case PurgeBenchmark.suite.name: return "Purge with half of the entries expired"
        case ConcurrencyBenchmark.suite.name: return "Readers beside a writer"
        case OpenMemoryBenchmark.suite.name: return "Opening a large cache: time and peak memory"
        case "png": return "PNG encode and decode"
        case "store": return "Log store"
        default: return suite.prefix(1).uppercased() + suite.dropFirst()
        }
    }

    static func section(suite: String, results: [BenchmarkResult], headingLevel: Int) -> String {
        switch suite {
        case SynchronizeBenchmark.suite.name: return synchronizeSection(results)
        case ThroughputBenchmark.suite.name: return throughputSection(results, headingLevel: headingLevel)
        case OpenBenchmark.suite.name: return openSection(results)
        case PurgeBenchmark.suite.name: return purgeSection(results)
        case ConcurrencyBenchmark.suite.name: return concurrencySection(results)
        case "png": return pngSection(results)
        default: return genericTable(results).render()
        }
    }

    /// What a suite's table shows, in a sentence or two that name the sizes the run used.
    static func explanation(ofSuite suite: String, _ results: [BenchmarkResult]) -> String {
        let size = results.first.map { Formatting.bytes($0.valueSize) } ?? ""
        switch suite {
        case SynchronizeBenchmark.suite.name:
            let pixels = results.first { $0.variant == SynchronizeBenchmark.Variant.images.rawValue }?
                .valueSize
            let side = pixels.map { Int(Double($0 / 4).squareRoot().rounded()) }
            let images = side.map { "\($0) × \($0) RGBA images" } ?? "images"
            return "The seeds' protocol on X distinct items: build the images from PNG data (images only), "
                + "store all X, synchronize, load all X, clear and synchronize, then store and synchronize "
                + "X times one item at a time. `images` stores \(images) (PNG encode and decode included); "
                + "`raw` stores the same PNG files as bytes. Each cell is the time for the whole step."
        case ThroughputBenchmark.suite.name:
            return "Write: store N distinct values, then synchronize. Read: reopen the store, then read the "
                + "N values. N × size is about the same at every size. `raw-file` is the baseline: one file "
                + "per value with plain `write(2)`/`read(2)`, and `fsync(2)` of each file to synchronize "
                + "(the durability the cache's `synchronize()` promises). The dictionary backend holds every "
                + "value in memory once open, so its reads cost no I/O at all."
        case OpenBenchmark.suite.name:
            return
                "Time to open a store holding N entries of \(size) each (the cache rebuilding its index at "
                + "start-up). The `raw-file` baseline lists the directory and stats every file."
        case PurgeBenchmark.suite.name:
            return "A store of \(size) entries in which half have expired (moved by an injected clock, no "
                + "sleeping): `purgeExpired()` + `synchronize()`, then `compact()` + `synchronize()`. "
                + "Reclaimed is the drop in bytes allocated on disk."
        case ConcurrencyBenchmark.suite.name:
            return
                "One reader thread, then two, fetch random keys while a writer thread replaces a random key "
                + "every millisecond (\(size) values) in one store of the default backend. `vs 1 reader` is "
                + "the reads per second of two readers over those of one, in the same run. Latency is per "
                + "operation, pooled over all repeats."
        default:
            return ""
        }
    }

    /// The column title of a step of the store-then-synchronize protocol.
    static func columnTitle(ofOperation operation: String) -> String {
        switch operation {
        case "build": return "build"
        case "store": return "store"
        case "synchronize": return "synchronize"
        case "load": return "load"
        case "clear_synchronize": return "clear + synchronize"
        case "store_synchronize": return "store + synchronize ×X"
        default: return operation
        }
    }

    /// A median and its spread in one cell: `12.3 ±4.0%`.
    static func cell(_ median: String, _ result: BenchmarkResult) -> String {
        result.repeats > 1 ? median + " " + Formatting.spread(result.spread) : median
    }

    // MARK: Suites

    /// One row per data kind, X and backend; one column per step of the protocol, in ms.
    static func synchronizeSection(_ results: [BenchmarkResult]) -> String {
        var operations: [String] = []
        for result in results where !operations.contains(result.op) { operations.append(result.op) }
        var rows: [[String]] = []
        var rowKeys: [String] = []
        var cells: [String: [String: String]] = [:]
        for result in results {
            let items = Int(result.extra("items") ?? Double(result.count))
            let key = "\(result.variant ?? "")|\(items)|\(result.backend ?? "")"
            if cells[key] == nil {
                rowKeys.append(key)
                rows.append([result.variant ?? "", String(items), result.backend ?? ""])
            }
            cells[key, default: [:]][result.op] = cell(Formatting.milliseconds(result.seconds), result)
        }
        let columns =
            [
                MarkdownTable.Column("data", .left), MarkdownTable.Column("X"),
                MarkdownTable.Column("backend", .left),
            ] + operations.map { MarkdownTable.Column(columnTitle(ofOperation: $0) + " (ms)") }
        let table = MarkdownTable(
            columns: columns,
            rows: zip(rows, rowKeys).map { row, key in row + operations.map { cells[key]?[$0] ?? "" } })
        var text = explanation(ofSuite: SynchronizeBenchmark.suite.name, results) + "\n\n" + table.render()
        if let disk = diskUsageTable(results) {
            text +=
                "\nOn disk after the protocol: the stored values' bytes beside the bytes allocated to the "
                + "store's files (`CacheStatistics.diskBytes`; for `raw-file` the same count of its folder). "
                + "Overhead is disk ÷ values: the index or record headers, and whole file-system blocks.\n\n"
                + disk.render()
        }
        return text
    }

    /// One row per data kind, X and backend: value bytes, disk bytes and their ratio, from the
    /// extras of the `store_synchronize` results; nil when the results carry none.
    static func diskUsageTable(_ results: [BenchmarkResult]) -> MarkdownTable? {
        let rows = results.filter { $0.op == "store_synchronize" }.compactMap { result -> [String]? in
            guard let stored = result.extra("stored_bytes"), let disk = result.extra("disk_bytes") else {
                return nil
            }
            return [
                result.variant ?? "", String(Int(result.extra("items") ?? Double(result.count))),
                result.backend ?? "", Formatting.bytes(Int(stored)), Formatting.bytes(Int(disk)),
                stored > 0 ? String(format: "%.2f×", disk / stored) : "",
            ]
        }
        guard !rows.isEmpty else { return nil }
        return MarkdownTable(
            columns: [
                MarkdownTable.Column("data", .left), MarkdownTable.Column("X"),
                MarkdownTable.Column("backend", .left), MarkdownTable.Column("values"),
                MarkdownTable.Column("on disk"), MarkdownTable.Column("overhead"),
            ],
            rows: rows)
    }

    /// Two tables, write then read: one row per value size, one column per backend, in MB/s.
    static func throughputSection(_ results: [BenchmarkResult], headingLevel: Int) -> String {
        let backends = backends(of: results)
        var text = explanation(ofSuite: ThroughputBenchmark.suite.name, results) + "\n"
        for operation in ["write", "read"] {
            let selected = results.filter { $0.op == operation }
            guard !selected.isEmpty else { continue }
            var sizes: [Int] = []
            for result in selected where !sizes.contains(result.valueSize) { sizes.append(result.valueSize) }
            let rows = sizes.sorted().map { size -> [String] in
                [Formatting.bytes(size)]
                    + backends.map { backend in
                        guard
                            let result = selected.first(where: {
                                $0.valueSize == size && $0.backend == backend
                            })
                        else { return "" }
                        return cell(Formatting.rate(result.megabytesPerSecond), result)
                    }
            }
            let table = MarkdownTable(
                columns: [MarkdownTable.Column("value size")] + backends.map { MarkdownTable.Column($0) },
                rows: rows)
            text += "\n" + String(repeating: "#", count: headingLevel) + " \(operation.capitalized), MB/s\n\n"
            text += table.render()
        }
        return text
    }

    /// One row per entry count, one column per backend, in ms.
    static func openSection(_ results: [BenchmarkResult]) -> String {
        let backends = backends(of: results)
        var counts: [Int] = []
        for result in results where !counts.contains(result.count) { counts.append(result.count) }
        let rows = counts.sorted().map { count -> [String] in
            [String(count)]
                + backends.map { backend in
                    guard let result = results.first(where: { $0.count == count && $0.backend == backend })
                    else { return "" }
                    return cell(Formatting.milliseconds(result.seconds), result)
                }
        }
        let table = MarkdownTable(
            columns: [MarkdownTable.Column("entries")] + backends.map { MarkdownTable.Column("\($0) (ms)") },
            rows: rows)
        return explanation(ofSuite: OpenBenchmark.suite.name, results) + "\n\n" + table.render()
    }

    /// One row per backend: the purge and the compaction after it, each with its time and the
    /// disk space it gave back.
    static func purgeSection(_ results: [BenchmarkResult]) -> String {
        let rows = backends(of: results).map { backend -> [String] in
            let purge = results.first { $0.backend == backend && $0.op == "purge" }
            let compact = results.first { $0.backend == backend && $0.op == "compact" }
            func reclaimed(_ result: BenchmarkResult?) -> String {
                (result?.extra("bytes_reclaimed")).map { Formatting.bytes(Int($0)) } ?? ""
            }
            return [
                backend,
                (purge?.extra("entries")).map { String(Int($0)) } ?? "",
                purge.map { String($0.count) } ?? "",
                purge.map { cell(Formatting.milliseconds($0.seconds), $0) } ?? "",
                reclaimed(purge),
                compact.map { cell(Formatting.milliseconds($0.seconds), $0) } ?? "",
                reclaimed(compact),
            ]
        }
        let table = MarkdownTable(
            columns: [
                MarkdownTable.Column("backend", .left), MarkdownTable.Column("entries"),
                MarkdownTable.Column("expired"), MarkdownTable.Column("purge (ms)"),
                MarkdownTable.Column("reclaimed by purge"), MarkdownTable.Column("compact (ms)"),
                MarkdownTable.Column("reclaimed by compact"),
            ],
            rows: rows)
        return explanation(ofSuite: PurgeBenchmark.suite.name, results) + "\n\n" + table.render()
    }

    /// One row per kind of operation: throughput and latency percentiles.
    static func concurrencySection(_ results: [BenchmarkResult]) -> String {
        let rows = results.map { result -> [String] in
            [
                result.op, result.backend ?? "",
                result.extra("readers").map { String(Int($0)) } ?? "",
                result.extra("threads").map { String(Int($0)) } ?? "",
                cell(Formatting.rate(result.opsPerSecond), result),
                result.extra("scaling").map { String(format: "%.2f×", $0) } ?? "",
                result.p50.map(Formatting.duration) ?? "", result.p99.map(Formatting.duration) ?? "",
            ]
        }
        let table = MarkdownTable(
            columns: [
                MarkdownTable.Column("op", .left), MarkdownTable.Column("backend", .left),
                MarkdownTable.Column("readers"), MarkdownTable.Column("threads"),
                MarkdownTable.Column("ops/s"),
                MarkdownTable.Column("vs 1 reader"), MarkdownTable.Column("p50 latency"),
                MarkdownTable.Column("p99 latency"),
            ],
            rows: rows)
        return explanation(ofSuite: ConcurrencyBenchmark.suite.name, results) + "\n\n" + table.render()
    }

    /// The PNG suite: its own measurements in the generic table, then one row per file for
    /// each comparison with the C libraries (`PNGBenchmark+Peers.swift`), our MB/s and each
    /// library's, and ours ÷ each (above 1: we are faster).
    static func pngSection(_ results: [BenchmarkResult]) -> String {
        let own = results.filter { !$0.op.hasPrefix("compare-") }
        var text = own.isEmpty ? "" : genericTable(own).render()
        for (op, title) in [
            ("compare-decode", "PNG decode"), ("compare-inflate", "inflate alone (the IDAT stream)"),
        ] {
            let lines = results.filter { $0.op == op }
            var peers: [String] = []
            for line in lines where line.backend != "imagecache" {
                if let name = line.backend, !peers.contains(name) { peers.append(name) }
            }
            let ours = lines.filter { $0.backend == "imagecache" }
            guard !ours.isEmpty else { continue }
            var columns = [MarkdownTable.Column("file", .left), MarkdownTable.Column("ours MB/s")]
            for peer in peers { columns.append(MarkdownTable.Column("\(peer) MB/s")) }
            for peer in peers {
                columns.append(MarkdownTable.Column("÷ \(peer.split(separator: " ").first ?? "")"))
            }
            let rows = ours.map { line -> [String] in
                var row = [line.file ?? "", cell(Formatting.rate(line.megabytesPerSecond), line)]
                let theirs = lines.filter { $0.file == line.file }
                for peer in peers {
                    row.append(
                        theirs.first { $0.backend == peer }.map {
                            cell(Formatting.rate($0.megabytesPerSecond), $0)
                        } ?? "")
                }
                for peer in peers {
                    let family = String(peer.split(separator: " ").first ?? "")
                    row.append(line.extra("ratio_vs_\(family)").map { String(format: "%.2f×", $0) } ?? "")
                }
                return row
            }
            if !text.isEmpty { text += "\n" }
            text +=
                "\(title), beside the C libraries, one core, medians of interleaved rounds; "
                + "MB/s of our output for every column, so the ratios are those of the times:\n\n"
                + MarkdownTable(columns: columns, rows: rows).render()
        }
        return text
    }

    /// Any other suite (`store`, …): every field of every result.
    static func genericTable(_ results: [BenchmarkResult]) -> MarkdownTable {
        let showBackend = results.contains { $0.backend != nil }
        let showVariant = results.contains { $0.variant != nil }
        let showFile = results.contains { $0.file != nil }
        let showLatency = results.contains { $0.p50 != nil || $0.p99 != nil }
        var columns = [MarkdownTable.Column("op", .left)]
        if showBackend { columns.append(MarkdownTable.Column("backend", .left)) }
        if showVariant { columns.append(MarkdownTable.Column("data", .left)) }
        if showFile { columns.append(MarkdownTable.Column("file", .left)) }
        columns += [
            MarkdownTable.Column("bytes"), MarkdownTable.Column("count"), MarkdownTable.Column("time"),
            MarkdownTable.Column("ops/s"), MarkdownTable.Column("MB/s"),
        ]
        if showLatency { columns += [MarkdownTable.Column("p50"), MarkdownTable.Column("p99")] }
        let rows = results.map { result -> [String] in
            var row = [result.op]
            if showBackend { row.append(result.backend ?? "") }
            if showVariant { row.append(result.variant ?? "") }
            if showFile { row.append(result.file ?? "") }
            row += [
                Formatting.bytes(result.bytes), String(result.count),
                cell(Formatting.duration(result.seconds), result),
                Formatting.rate(result.opsPerSecond), Formatting.rate(result.megabytesPerSecond),
            ]
            if showLatency {
                row += [result.p50.map(Formatting.duration) ?? "", result.p99.map(Formatting.duration) ?? ""]
            }
            return row
        }
        return MarkdownTable(columns: columns, rows: rows)
    }
}
