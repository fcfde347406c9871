import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import Platform
#endif

/// Caches that share their folder across processes (`Spec/backends.md` §9), on `log` and
/// `hybrid`, with 4 KiB values. A second process (`imagecache-bench-sharer`) writes beside this
/// one. Each figure is the median of the repeats, all in one run:
///
/// - `reads_alone` and `reads_beside_writer`: random reads for a fixed time in this process,
///   alone, then while the other process stores a value every millisecond;
/// - `reads_not_shared`, `stores_not_shared`, `stores_shared`: one process, the same work with
///   and without sharing (what sharing costs a process alone);
/// - `stores_one_writer`, `stores_two_writers`: one sharer process storing, then two at once
///   (their total rate);
/// - `visibility`: the time from the return of a store in the other process to the moment a
///   read here first sees it (p50, p99).
///
/// Figures that are compared with each other are taken in alternating slices (the reads and the
/// stores with and without sharing), or in an order that alternates from one repeat to the
/// next (one writer and two): on a shared, noisy machine a slow moment then falls on both sides
/// of a ratio, and neither side always runs first.
public enum SharedBenchmark {
    public static let suite = BenchSuite(
        name: "shared",
        summary:
            "processes sharing a folder: reads beside a writer, two writers, the cost of sharing, visibility",
        run: run)

    static let valueSize = 4096
    static let entries = 1000
    static let sharerName = "imagecache-bench-sharer"

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let scratch = try ScratchSpace(options, suite: "shared")
        defer { scratch.removeAll() }
        let sharer = try OpenMemoryBenchmark.siblingExecutable(sharerName, suite: "shared")
        let duration = options.quick ? 0.3 : 1.0
        let storeCount = options.quick ? 2_000 : 10_000
        let repeats = options.preset.repeats
        var results: [BenchmarkResult] = []
        let subjects = try BenchmarkSubjects.selected(options)
        guard subjects.contains(where: { Backend(rawValue: $0.name)?.canBeShared == true }) else {
            // Said rather than left as an empty report: the user asked only for backends that
            // refuse to share (`Spec/backends.md` §9.1).
            let names = subjects.map(\.name).joined(separator: ", ")
            try? StandardStream.error.write(
                Array("bench shared: nothing measured: \(names) cannot be shared (log and hybrid can)\n".utf8)
            )
            return []
        }
        for subject in subjects {
            guard let backend = Backend(rawValue: subject.name), backend.canBeShared else { continue }
            var samples: [String: [Double]] = [:]
            var latencies: [Double] = []
            for round in 0..<repeats {
                options.progress.update("\(backend), repeat \(round + 1)", done: round + 1, of: repeats)
                let shared = scratch.directory("\(backend)-shared-\(round)")
                let alone = scratch.directory("\(backend)-alone-\(round)")
                let cache = try open(shared, backend, shared: true)
                let lone = try open(alone, backend, shared: false)
                try fill(cache)
                try fill(lone)
                let reads = try interleavedReadRates(
                    [cache, lone], seconds: duration, startingWith: round % 2)
                samples["reads_alone", default: []].append(reads[0])
                samples["reads_not_shared", default: []].append(reads[1])
                let writer = try start(
                    sharer, ["write-every-ms", shared.path, backend.rawValue, String(duration + 0.3)])
                try waitUntilReady(writer, backend)
                samples["reads_beside_writer", default: []].append(
                    try interleavedReadRates([cache], seconds: duration, startingWith: 0)[0])
                try finish(writer, backend)
                // The reads appended a touch record per hit: without this, the first store of
                // each cache would run the compaction they made due, and time that rather than
                // stores (about a third of a cache's store time in a quick run, more for the one
                // that does not share).
                try cache.compact()
                try lone.compact()
                let stores = try interleavedStoreRates(
                    [cache, lone], count: storeCount, prefix: "s\(round)", startingWith: round % 2)
                samples["stores_shared", default: []].append(stores[0])
                samples["stores_not_shared", default: []].append(stores[1])
                try cache.close()
                try lone.close()
                for writers in round % 2 == 0 ? [1, 2] : [2, 1] {
                    samples[writers == 1 ? "stores_one_writer" : "stores_two_writers", default: []].append(
                        try writersRate(
                            sharer, shared, backend, writers: writers, count: storeCount, round: round))
                }
                latencies += try visibility(sharer, shared, backend, count: options.quick ? 50 : 200)
                try scratch.remove(shared)
                try scratch.remove(alone)
            }
            for (op, rates) in samples.sorted(by: { $0.key < $1.key }) {
                let summary = Summary(samples: rates.map { 1 / $0 })
                results.append(
                    BenchmarkResult(
                        suite: "shared", op: op, backend: backend.rawValue, bytes: valueSize, count: 1,
                        seconds: summary.median, spread: summary.spread, repeats: rates.count))
            }
            latencies.sort()
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            results.append(
                BenchmarkResult(
                    suite: "shared", op: "visibility", backend: backend.rawValue, bytes: valueSize,
                    count: latencies.count, seconds: p50, repeats: repeats, p50: p50, p99: p99))
        }
        options.progress.clear()
        return results
    }

    static func open(_ folder: URL, _ backend: Backend, shared: Bool) throws -> ImageCache {
        try ImageCache(
            configuration: CacheConfiguration(
                directory: folder, backend: backend, sharedAcrossProcesses: shared))
    }

    static func fill(_ cache: ImageCache) throws {
        for index in 0..<entries {
            try cache.store(
                SampleData.bytes(count: valueSize, seed: UInt64(index)), forKey: SampleData.key("e", index))
        }
        try cache.synchronize()
    }

    /// How many slices ``interleavedReadRates`` and ``interleavedStoreRates`` cut their work in.
    static let slices = 10

    /// Reads of random entries per second of each cache, each read checked: `seconds` of reads
    /// each, in slices that alternate between the caches (the first slice is
    /// `caches[startingWith]`'s, and each slice starts with the other cache than the last).
    static func interleavedReadRates(_ caches: [ImageCache], seconds: Double, startingWith first: Int) throws
        -> [Double]
    {
        var randoms = caches.map { _ in SplitMix64(seed: 42) }
        var reads = [Int](repeating: 0, count: caches.count)
        var times = [Double](repeating: 0, count: caches.count)
        for slice in 0..<slices {
            for step in caches.indices {
                let index = (first + slice + step) % caches.count
                let start = MonotonicClock.now()
                while MonotonicClock.seconds(since: start) < seconds / Double(slices) {
                    for _ in 0..<64 {
                        let entry = Int(randoms[index].next() % UInt64(entries))
                        guard try caches[index].bytes(forKey: SampleData.key("e", entry))?.count == valueSize
                        else {
                            throw BenchmarkError.verificationFailed(
                                suite: "shared", backend: "", detail: "a read missed")
                        }
                        reads[index] += 1
                    }
                }
                times[index] += MonotonicClock.seconds(since: start)
            }
        }
        return caches.indices.map { Double(reads[$0]) / times[$0] }
    }

    /// Stores per second of new 4 KiB values in each cache: `count` each, in slices that
    /// alternate between the caches as ``interleavedReadRates`` does.
    static func interleavedStoreRates(
        _ caches: [ImageCache], count: Int, prefix: String, startingWith first: Int
    ) throws -> [Double] {
        let value = SampleData.bytes(count: valueSize, seed: 7)
        let perSlice = max(1, count / slices)
        var times = [Double](repeating: 0, count: caches.count)
        var stored = [Int](repeating: 0, count: caches.count)
        for slice in 0..<slices {
            for step in caches.indices {
                let index = (first + slice + step) % caches.count
                let start = MonotonicClock.now()
                for _ in 0..<perSlice {
                    try caches[index].store(value, forKey: SampleData.key(prefix, stored[index]))
                    stored[index] += 1
                }
                times[index] += MonotonicClock.seconds(since: start)
            }
        }
        return caches.indices.map { Double(stored[$0]) / times[$0] }
    }

    /// The total stores per second of `writers` sharer processes storing `count` values each,
    /// started together.
    static func writersRate(
        _ sharer: URL, _ folder: URL, _ backend: Backend, writers: Int, count: Int, round: Int
    ) throws -> Double {
        let processes = try (0..<writers).map { writer in
            try start(
                sharer,
                ["store", folder.path, backend.rawValue, String(count), "w\(round)-\(writers)-\(writer)-"])
        }
        Thread.sleep(forTimeInterval: 0.2)  // every writer opened and waits
        for process in processes { process.input.fileHandleForWriting.write(Data("go\n".utf8)) }
        var slowest = 0.0
        for process in processes {
            let lines = try finish(process, backend)
            guard let seconds = lines.first.flatMap(Double.init) else {
                throw BenchmarkError.verificationFailed(
                    suite: "shared", backend: backend.rawValue, detail: "no time")
            }
            slowest = max(slowest, seconds)
        }
        return Double(writers * count) / slowest
    }

    /// Seconds from the return of each store in the other process to the first read here that
    /// sees it (0 when a read saw it before the store returned).
    static func visibility(_ sharer: URL, _ folder: URL, _ backend: Backend, count: Int) throws -> [Double] {
        let cache = try open(folder, backend, shared: true)
        defer { try? cache.close() }
        let process = try start(sharer, ["visibility", folder.path, backend.rawValue, String(count)])
        var seen: [UInt64: UInt64] = [:]
        var last: UInt64 = 0
        let deadline = Date().addingTimeInterval(Double(count) * 0.01 + 5)
        while last < UInt64(count) && Date() < deadline {
            if let bytes = try cache.bytes(forKey: "v"), bytes.count >= 8 {
                let index = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                if index > last {
                    seen[index] = DispatchTime.now().uptimeNanoseconds
                    last = index
                }
            }
        }
        let lines = try finish(process, backend)
        var latencies: [Double] = []
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let index = UInt64(fields[0]), let returned = UInt64(fields[1]),
                let first = seen[index]
            else { continue }
            latencies.append(first > returned ? Double(first - returned) / 1e9 : 0)
        }
        // On a loaded machine this process may not run between two stores and miss some;
        // each store it saw is one sample. Seeing none at all would be a fault.
        guard latencies.count * 10 >= count else {
            throw BenchmarkError.verificationFailed(
                suite: "shared", backend: backend.rawValue,
                detail: "saw \(latencies.count) of \(count) stores of the other process")
        }
        return latencies
    }

    struct Running {
        let process: Process
        let input: Pipe
        let output: Pipe
    }

    static func start(_ executable: URL, _ arguments: [String]) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return Running(process: process, input: input, output: output)
    }

    /// Waits for the other process's first line, which it prints once its cache is open.
    static func waitUntilReady(_ running: Running, _ backend: Backend) throws {
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            let chunk = running.output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                throw BenchmarkError.verificationFailed(
                    suite: "shared", backend: backend.rawValue,
                    detail: "\(sharerName) ended before it was open")
            }
            line += chunk
        }
    }

    @discardableResult
    static func finish(_ running: Running, _ backend: Backend) throws -> [String] {
        let data = running.output.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        guard running.process.terminationStatus == 0 else {
            throw BenchmarkError.verificationFailed(
                suite: "shared", backend: backend.rawValue, detail: "\(sharerName) failed")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
