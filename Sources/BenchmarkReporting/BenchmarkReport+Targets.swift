import Benchmarks

/// The targets the issues set, as ratios read off one run (issue 11: "bench.md shows each ratio
/// as a column, so it can be read off directly"). A target whose measurements are not in the
/// run (a single suite was run, or a peer is missing) is left out.
extension BenchmarkReport {
    /// One target: what is compared with what, and the ratio it must reach.
    struct Target {
        var name: String
        var measured: BenchmarkResult
        var baseline: BenchmarkResult?
        /// The figure compared (ops/s, MB/s or a precomputed ratio).
        var ratio: Double
        var goal: Double
        /// true: the ratio must be at least the goal; false: at most.
        var atLeast: Bool

        var met: Bool { atLeast ? ratio >= goal : ratio <= goal }
    }

    /// How many times `baseline`'s rate `measured` runs at: for two reads timed in the same
    /// rounds, the median over the rounds of their ratio (the store suite's `paired_vs_OP`),
    /// and otherwise the ratio of their medians. `baseline` must have a rate above 0.
    static func rateRatio(of measured: BenchmarkResult, over baseline: BenchmarkResult) -> Double {
        measured.extra("paired_vs_\(baseline.op)") ?? measured.opsPerSecond / baseline.opsPerSecond
    }

    /// Every target this run can answer.
    var targets: [Target] {
        var targets: [Target] = []
        func first(
            _ suite: String, _ op: String, backend: String? = nil, valueBytes: Double? = nil,
            variant: String? = nil
        ) -> BenchmarkResult? {
            results.first {
                $0.suite == suite && $0.op == op && (backend == nil || $0.backend == backend)
                    && (valueBytes == nil || $0.extra("value_bytes") == valueBytes)
                    && (variant == nil || $0.variant == variant)
            }
        }
        func rateRatio(
            _ name: String, _ measured: BenchmarkResult?, _ baseline: BenchmarkResult?, goal: Double
        ) {
            guard let measured, let baseline, baseline.opsPerSecond > 0 else { return }
            targets.append(
                Target(
                    name: name, measured: measured, baseline: baseline,
                    ratio: BenchmarkReport.rateRatio(of: measured, over: baseline), goal: goal, atLeast: true)
            )
        }
        // Reads of large values against raw files (throughput suite).
        for size in [1 << 20, 16 << 20] {
            let raw = first("throughput", "read", backend: "raw-file", valueBytes: Double(size))
            for backend in ["log", "hybrid"] {
                rateRatio(
                    "cache read, \(Formatting.bytes(size)) values, \(backend) ÷ raw-file read",
                    first("throughput", "read", backend: backend, valueBytes: Double(size)), raw, goal: 0.5)
            }
        }
        // Reads against pread of the same bytes (store suite, issue 20), and read-only handles
        // against writable ones.
        let pread = storeResult("posix_read")
        rateRatio("store get, 4 KiB, verified ÷ pread", storeResult("get"), pread, goal: 1.0)
        rateRatio("store get + expiry update, 4 KiB ÷ pread", storeResult("get_touch"), pread, goal: 0.5)
        rateRatio(
            "cache bytes(forKey:) hit, 4 KiB, one thread ÷ pread", storeResult("cache_get"), pread, goal: 0.8)
        rateRatio(
            "store get, 4 KiB, read-only handle ÷ writable handle", storeResult("get_read_only"),
            storeResult("get"),
            goal: 0.9)
        rateRatio(
            "cache hit, 4 KiB, read-only cache ÷ writable cache", storeResult("cache_get_read_only"),
            storeResult("cache_get"), goal: 0.9)
        rateRatio(
            "cache withValue(forKey:) hit, 4 KiB ÷ pread", storeResult("cache_with_value"), pread, goal: 0.8)
        rateRatio(
            "cache withValue(forKey:) hit, 1 MiB ÷ bytes(forKey:) hit",
            storeResult("cache_with_value", valueSize: 1 << 20),
            storeResult("cache_get", valueSize: 1 << 20), goal: 1.0)
        // Two readers over one, with a writer running.
        if let two = results.first(where: {
            $0.suite == "concurrency" && $0.op == "read" && $0.extra("scaling") != nil
        }),
            let scaling = two.extra("scaling")
        {
            targets.append(
                Target(
                    name: "2 reader threads ÷ 1 reader thread, writer running", measured: two, baseline: nil,
                    ratio: scaling, goal: 1.6, atLeast: true))
        }
        // Opening the cache against its LogStore alone.
        if let cache = first("open-memory", "open_cache") {
            for (what, key) in [("time", "time_ratio"), ("peak memory", "memory_ratio")] {
                if let ratio = cache.extra(key) {
                    targets.append(
                        Target(
                            name: "cache open, \(cache.count) entries, \(what) ÷ LogStore open",
                            measured: cache,
                            baseline: first("open-memory", "open_store"), ratio: ratio, goal: 1.5,
                            atLeast: false))
                }
            }
        }
        // Thumbnails (issue 13): the downsampler against Pillow's BOX resize, and a later
        // variant request against reading and decoding the same PNG.
        for line in results where line.suite == "thumbnail" && line.backend == "imagecache" {
            if let speedup = line.extra("speedup_vs_pillow_box") {
                targets.append(
                    Target(
                        name: "downsample, \(line.op) ÷ Pillow resize BOX (pixels/s)", measured: line,
                        baseline: nil,
                        ratio: speedup, goal: 1, atLeast: true))
            }
        }
        if let later = results.first(where: { $0.suite == "thumbnail" && $0.extra("cost_vs_bitmap") != nil }),
            let cost = later.extra("cost_vs_bitmap")
        {
            targets.append(
                Target(
                    name: "variant, later request ÷ reading and decoding its PNG (time)", measured: later,
                    baseline: nil, ratio: cost, goal: 1.1, atLeast: false))
        }
        // Processes sharing a folder (issue 19), per backend that can share.
        for backend in ["log", "hybrid"] {
            func shared(_ op: String) -> BenchmarkResult? { first("shared", op, backend: backend) }
            rateRatio(
                "\(backend) shared: reads beside a writing process ÷ reads alone",
                shared("reads_beside_writer"),
                shared("reads_alone"), goal: 0.8)
            rateRatio(
                "\(backend) shared: stores of two writer processes ÷ one", shared("stores_two_writers"),
                shared("stores_one_writer"), goal: 0.8)
            rateRatio(
                "\(backend): reads of a process alone, shared ÷ not shared", shared("reads_alone"),
                shared("reads_not_shared"), goal: 0.9)
            rateRatio(
                "\(backend): stores of a process alone, shared ÷ not shared", shared("stores_shared"),
                shared("stores_not_shared"), goal: 0.9)
        }
        // PNG decode against libspng on every file of the set, and inflate alone against
        // libdeflate on the photo-like image's IDAT stream (issue 20), from the same run on one
        // core; a missing peer leaves its targets out.
        for line in results where line.suite == "png" && line.backend == "imagecache" {
            guard let file = line.file else { continue }
            if line.op == "compare-decode", let ratio = line.extra("ratio_vs_libspng") {
                targets.append(
                    Target(
                        name: "PNG decode ÷ libspng, \(file)", measured: line, baseline: nil, ratio: ratio,
                        goal: 1.3, atLeast: true))
            }
            if line.op == "compare-inflate", file.hasPrefix("photo-like"),
                let ratio = line.extra("ratio_vs_libdeflate")
            {
                targets.append(
                    Target(
                        name: "inflate ÷ libdeflate, \(file) IDAT stream", measured: line, baseline: nil,
                        ratio: ratio, goal: 1.0, atLeast: true))
            }
        }
        // The record checksum against CRC-32.
        for size in [4096.0, Double(1 << 20)] {
            if let xxh3 = first("checksum", "xxh3", valueBytes: size, variant: "cached"),
                let crc = first("checksum", "crc32", valueBytes: size, variant: "cached"),
                crc.megabytesPerSecond > 0
            {
                targets.append(
                    Target(
                        name: "XXH3-64 ÷ CRC-32, \(Formatting.bytes(Int(size))) in cache", measured: xxh3,
                        baseline: crc,
                        ratio: xxh3.megabytesPerSecond / crc.megabytesPerSecond, goal: 3, atLeast: true))
            }
        }
        return targets
    }

    /// The store suite's result of `op` at values of `valueSize` bytes, if the run measured it.
    func storeResult(_ op: String, valueSize: Int = 4096) -> BenchmarkResult? {
        results.first { $0.suite == "store" && $0.op == op && $0.bytes / max($0.count, 1) == valueSize }
    }

    /// The targets as a Markdown table, or nil when the run answers none.
    func targetsSection() -> String? {
        let targets = self.targets
        guard !targets.isEmpty else { return nil }
        let rows = targets.map { target -> [String] in
            [
                target.name, String(format: "%.2f×", target.ratio),
                (target.atLeast ? "≥ " : "≤ ") + String(format: "%.1f×", target.goal),
                target.met ? "met" : "**not met**",
            ]
        }
        let table = MarkdownTable(
            columns: [
                MarkdownTable.Column("target", .left), MarkdownTable.Column("ratio"),
                MarkdownTable.Column("goal"),
                MarkdownTable.Column("met?", .left),
            ],
            rows: rows)
        return "Ratios of figures measured in this run (the tables below hold the figures themselves).\n\n"
            + table.render()
    }
}
