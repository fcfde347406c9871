import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// `imagecache bench checksum`: the record checksum, XXH3-64 (`Spec/checksum.md`), against
/// CRC-32, which it replaces for store records (issue 11).
///
/// Ops, one per algorithm: `crc32`, `xxh3` (one-shot) and `xxh3_chunked` (the streaming API fed
/// 64 KiB pieces, as a reader that checks while it copies would). Each is measured at
/// 4 KiB, 64 KiB, 1 MiB and 16 MiB values, in two variants:
/// - `cached`: the same value hashed again and again, so it sits in the CPU caches (16 MiB
///   fits the 32 MiB L3 of the machine this was written on);
/// - `uncached`: each call takes the next value from a pool far larger than any cache
///   (256 MiB, 128 MiB with `--quick`), so the bytes come from memory.
///
/// One repeat hashes about `bytesPerRepeat` bytes; the algorithms take turns within each repeat,
/// so a slow moment on the shared machine hits all of them alike. `seconds` is the median
/// repeat, `spread` (max − min) / median; `value_bytes` is the value size and `vs_crc32` the
/// speed relative to CRC-32 in the same variant and size.
public enum ChecksumBenchmark {
    public static let suite = BenchSuite(
        name: "checksum",
        summary: "CRC-32 and the record checksum XXH3-64 at 4 KiB to 16 MiB, in and out of CPU caches",
        run: { options in try run(options.quick ? .quick : .full) })

    /// The sizes and repeats of one run.
    public struct Configuration: Sendable {
        public var sizes: [Int]
        /// Bytes hashed by one repeat of one algorithm at one size (at least one value).
        public var bytesPerRepeat: Int
        public var repeats: Int
        /// The `uncached` variant's pool; it should be several times the last-level cache.
        public var poolBytes: Int

        public init(sizes: [Int], bytesPerRepeat: Int, repeats: Int, poolBytes: Int) {
            self.sizes = sizes
            self.bytesPerRepeat = bytesPerRepeat
            self.repeats = repeats
            self.poolBytes = poolBytes
        }

        /// Short repeats, many of them: on a shared machine a repeat of a millisecond or two
        /// usually runs in one time slice, so the median is the speed of the code, not of the
        /// neighbours.
        public static let full = Configuration(
            sizes: [4_096, 65_536, 1 << 20, 16 << 20], bytesPerRepeat: 4 << 20, repeats: 41,
            poolBytes: 256 << 20)
        public static let quick = Configuration(
            sizes: [4_096, 65_536, 1 << 20, 16 << 20], bytesPerRepeat: 2 << 20, repeats: 15,
            poolBytes: 128 << 20)
    }

    /// One measured algorithm: a name for the `op` field and a digest widened to 64 bits.
    struct Algorithm: Sendable {
        var name: String
        var digest: @Sendable (UnsafeRawBufferPointer) -> UInt64
    }

    /// The piece size of `xxh3_chunked`.
    static let chunkSize = 65_536

    static let algorithms: [Algorithm] = [
        Algorithm(name: "crc32") { UInt64(CRC32.checksum(of: $0)) },
        Algorithm(name: "xxh3") { XXH3.checksum(of: $0) },
        Algorithm(name: "xxh3_chunked") { bytes in
            var hasher = XXH3()
            var start = 0
            repeat {
                let end = min(start + chunkSize, bytes.count)
                hasher.update(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            } while start < bytes.count
            return hasher.value
        },
    ]

    /// Runs the suite.
    ///
    /// - Throws: `BenchmarkError.verificationFailed` if the chunked XXH3 disagrees with the
    ///   one-shot XXH3 on any value hashed, since the timings of a wrong hash mean nothing.
    public static func run(_ configuration: Configuration) throws -> [BenchmarkResult] {
        let largest = configuration.sizes.max() ?? 0
        let pool = makePool(byteCount: max(configuration.poolBytes, largest))
        var results: [BenchmarkResult] = []
        try pool.withUnsafeBytes { pool in
            try verifyChunkedAgreesWithOneShot(pool, sizes: configuration.sizes)
            var cursor = 0
            for size in configuration.sizes {
                for cached in [true, false] {
                    let count = max(1, configuration.bytesPerRepeat / size)
                    // The next value: always the first for `cached`, else the pool walked in order.
                    let nextValue = { () -> UnsafeRawBufferPointer in
                        guard !cached else { return UnsafeRawBufferPointer(rebasing: pool[0..<size]) }
                        if cursor + size > pool.count { cursor = 0 }
                        defer { cursor += size }
                        return UnsafeRawBufferPointer(rebasing: pool[cursor..<cursor + size])
                    }
                    var samples = [[Double]](repeating: [], count: algorithms.count)
                    var sink: UInt64 = 0
                    for round in 0...configuration.repeats {
                        for (index, algorithm) in algorithms.enumerated() {
                            let start = MonotonicClock.now()
                            for _ in 0..<count { sink &+= algorithm.digest(nextValue()) }
                            let seconds = MonotonicClock.seconds(since: start)
                            // Round 0 warms caches and pages and is not timed.
                            if round > 0 { samples[index].append(seconds) }
                        }
                    }
                    let summaries = samples.map(Summary.init(samples:))
                    let baseline = summaries[0].median
                    for (algorithm, summary) in zip(algorithms, summaries) {
                        results.append(
                            BenchmarkResult(
                                suite: "checksum", op: algorithm.name,
                                variant: cached ? "cached" : "uncached",
                                bytes: size * count, count: count, seconds: summary.median,
                                spread: summary.spread, repeats: configuration.repeats,
                                extra: [
                                    ("value_bytes", Double(size)),
                                    ("vs_crc32", summary.median > 0 ? baseline / summary.median : 0),
                                ]))
                    }
                    // Keeps the digests alive, so no optimizer can drop the work it feeds.
                    if sink == 0x5EED { FileHandle.standardError.write(Data()) }
                }
            }
        }
        return results
    }

    /// Pseudo-random bytes (xorshift64), written eight at a time; the same on every run.
    public static func makePool(byteCount: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            while offset < byteCount {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                withUnsafeBytes(of: state.littleEndian) { word in
                    let take = min(8, byteCount - offset)
                    raw.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: take)
                }
                offset += 8
            }
            initialized = byteCount
        }
    }

    static func verifyChunkedAgreesWithOneShot(_ pool: UnsafeRawBufferPointer, sizes: [Int]) throws {
        let oneShot = algorithms.first { $0.name == "xxh3" }!
        let chunked = algorithms.first { $0.name == "xxh3_chunked" }!
        for size in sizes where size <= pool.count {
            let value = UnsafeRawBufferPointer(rebasing: pool[(pool.count - size)...])
            let expected = oneShot.digest(value)
            let computed = chunked.digest(value)
            guard computed == expected else {
                throw BenchmarkError.verificationFailed(
                    suite: "checksum", backend: chunked.name,
                    detail: "XXH3 of \(size) bytes fed in \(chunkSize)-byte pieces is "
                        + "\(String(computed, radix: 16)), one-shot \(String(expected, radix: 16))")
            }
        }
    }
}
