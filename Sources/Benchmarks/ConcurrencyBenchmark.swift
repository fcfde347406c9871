import Foundation

/// Experiment 5: one reader thread, then two, share one store of the default backend with a
/// writer for a fixed time; reads per second, how two readers scale over one, and the latency
/// of each operation.
///
/// The store is filled once (untimed). Each repeat opens it, starts the threads together, and
/// lets each run until the same deadline: readers fetch random keys (fixed seeds) and check the
/// value's length; the writer replaces a random key every millisecond (a cache is read far
/// more than it is written; a writer that never paused would take a core of its own and leave
/// two readers one core between them on a two-core machine). Throughput is the median over the
/// repeats; the latency percentiles pool every operation of every repeat.
public enum ConcurrencyBenchmark {
    public static let suite = BenchSuite(
        name: "concurrency",
        summary: "1 and 2 reader threads beside a writer on the default backend: reads/s, scaling, p50, p99",
        run: run)

    /// The reader counts measured; the scaling is the last over the first.
    static let readerCounts = [1, 2]
    /// The writer's pause between two stores, in seconds.
    static let writeInterval = 0.001

    @Sendable public static func run(_ options: BenchOptions) throws -> [BenchmarkResult] {
        let preset = options.preset
        let subject = try BenchmarkSubjects.concurrencySubject(options)
        let scratch = try ScratchSpace(options, suite: "concurrency")
        defer { scratch.removeAll() }
        options.progress.begin("concurrency")
        let directory = scratch.directory(subject.name)
        try OpenBenchmark.fill(
            subject, directory, 0..<preset.concurrencyEntries, valueSize: preset.concurrencyValueSize,
            options.progress)
        let writes = (0..<64).map {
            SampleData.bytes(count: preset.concurrencyValueSize, seed: 1 << 40 | UInt64($0))
        }

        var results: [BenchmarkResult] = []
        var readRates: [Int: Double] = [:]
        for readers in readerCounts {
            var runs: [Run] = []
            let sampler = preset.sampler()
            for index in (sampler.warmUp ? -1 : 0)..<sampler.repeats {
                options.progress.update(
                    "\(subject.name), \(readers) reader\(readers == 1 ? "" : "s"), repeat \(index + 1)",
                    done: index + 1, of: sampler.repeats)
                let store = try subject.open(StoreSettings(directory: directory))
                let run = try Run.execute(
                    store: store, backend: subject.name, readers: readers, entries: preset.concurrencyEntries,
                    valueSize: preset.concurrencyValueSize,
                    writes: writes, duration: preset.concurrencyDuration, seed: UInt64(index + 1))
                try store.close()
                if index >= 0 { runs.append(run) }
            }
            for (operation, threads) in [("read", readers), ("write", 1)] {
                let latencies = runs.flatMap { operation == "read" ? $0.readLatencies : $0.writeLatencies }
                let rates = Summary(
                    samples: runs.map { Double(operation == "read" ? $0.reads : $0.writes) / $0.elapsed })
                let seconds = Summary(samples: runs.map(\.elapsed)).median
                let count = Int((rates.median * seconds).rounded())
                var extra: [(String, Double)] = [
                    ("threads", Double(threads)), ("readers", Double(readers)),
                    ("entries", Double(preset.concurrencyEntries)),
                    ("value_bytes", Double(preset.concurrencyValueSize)),
                ]
                if operation == "read" {
                    readRates[readers] = rates.median
                    if let one = readRates[readerCounts[0]], readers != readerCounts[0], one > 0 {
                        extra.append(("scaling", rates.median / one))
                    }
                }
                results.append(
                    BenchmarkResult(
                        suite: "concurrency", op: operation, backend: subject.name,
                        bytes: count * preset.concurrencyValueSize, count: count, seconds: seconds,
                        spread: rates.spread, repeats: runs.count,
                        p50: latencies.isEmpty ? nil : Summary.percentile(0.5, of: latencies),
                        p99: latencies.isEmpty ? nil : Summary.percentile(0.99, of: latencies),
                        extra: extra))
            }
        }
        options.progress.clear()
        return results
    }

    /// What one repeat measured.
    struct Run {
        var reads = 0
        var writes = 0
        var readLatencies: [Double] = []
        var writeLatencies: [Double] = []
        /// Seconds from the start signal until the last thread stopped.
        var elapsed = 0.0

        /// Runs the readers and the writer on their own threads until `duration` has passed.
        static func execute(
            store: any BenchmarkStore, backend: String, readers: Int, entries: Int, valueSize: Int,
            writes: [[UInt8]], duration: Double, seed: UInt64
        ) throws -> Run {
            let log = LatencyLog()
            let ready = DispatchSemaphore(value: 0)
            let start = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            let deadline = Deadline()
            func spawn(_ name: String, _ body: @escaping @Sendable (UInt64) throws -> [Double]) {
                finished.enter()
                let thread = Thread {
                    ready.signal()
                    start.wait()
                    do {
                        log.add(name, try body(deadline.value))
                    } catch {
                        log.fail(error)
                    }
                    finished.leave()
                }
                thread.name = "bench-\(name)"
                thread.start()
            }
            for reader in 0..<readers {
                spawn("read") { deadline in
                    var generator = SplitMix64(seed: seed << 8 | UInt64(reader))
                    var latencies: [Double] = []
                    var now = MonotonicClock.now()
                    while now < deadline {
                        let key = SampleData.key("o", Int(generator.next() % UInt64(entries)))
                        let value = try store.value(forKey: key)
                        guard value?.count == valueSize else {
                            throw BenchmarkError.verificationFailed(
                                suite: "concurrency", backend: backend,
                                detail: "\(key) read back wrong during writes")
                        }
                        let end = MonotonicClock.now()
                        latencies.append(Double(end &- now) / 1e9)
                        now = end
                    }
                    return latencies
                }
            }
            spawn("write") { deadline in
                var generator = SplitMix64(seed: seed << 8 | 0xFF)
                var latencies: [Double] = []
                var now = MonotonicClock.now()
                var next = 0
                while now < deadline {
                    let key = SampleData.key("o", Int(generator.next() % UInt64(entries)))
                    try store.store(writes[next % writes.count], forKey: key)
                    next += 1
                    let end = MonotonicClock.now()
                    latencies.append(Double(end &- now) / 1e9)
                    Thread.sleep(forTimeInterval: writeInterval)
                    now = MonotonicClock.now()
                }
                return latencies
            }
            for _ in 0...readers { ready.wait() }
            let begin = MonotonicClock.now()
            deadline.value = begin &+ UInt64(duration * 1e9)
            for _ in 0...readers { start.signal() }
            finished.wait()
            var run = Run()
            run.elapsed = MonotonicClock.seconds(since: begin)
            if let failure = log.failure { throw failure }
            run.readLatencies = log.latencies(of: "read")
            run.writeLatencies = log.latencies(of: "write")
            run.reads = run.readLatencies.count
            run.writes = run.writeLatencies.count
            return run
        }
    }

    /// The deadline, set once by the starting thread before it releases the workers.
    private final class Deadline: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: UInt64 = 0
        var value: UInt64 {
            get {
                lock.lock()
                defer { lock.unlock() }
                return stored
            }
            set {
                lock.lock()
                stored = newValue
                lock.unlock()
            }
        }
    }

    /// The threads' latencies and the first error, gathered under a lock.
    private final class LatencyLog: @unchecked Sendable {
        private let lock = NSLock()
        private var latencies: [String: [Double]] = [:]
        private var firstFailure: (any Error)?

        /// Every latency recorded for `operation`, in seconds.
        func latencies(of operation: String) -> [Double] {
            lock.lock()
            defer { lock.unlock() }
            return latencies[operation] ?? []
        }

        /// The first error a thread reported.
        var failure: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return firstFailure
        }

        func add(_ operation: String, _ values: [Double]) {
            lock.lock()
            latencies[operation, default: []] += values
            lock.unlock()
        }

        func fail(_ error: any Error) {
            lock.lock()
            if firstFailure == nil { firstFailure = error }
            lock.unlock()
        }
    }
}
