import Checksums
import Foundation
import ImageCacheKit
import LogStoreKit
import Platform

/// `imagecache bench store`: the log store against raw POSIX I/O on the same disk, in one run.
///
/// Ops (all with `"backend":"log"`, baselines with `"backend":"posix"`):
/// - `put`, `get` (the writer's handle, reading through its mapping of the file),
///   `get_read_only` (a read-only handle beside it, which maps the file too), `get_unverified`
///   (`get` with no checksum check on read), `get_touch` (get plus an expiry-extending
///   metadata update) at 4 KiB,
///   64 KiB, 1 MiB and 16 MiB values; `posix_write` and `posix_read` at the same sizes;
/// - `cache_get` at 4 KiB and 1 MiB: `ImageCache.bytes(forKey:)` hits on the log backend, one
///   thread (the cache's whole read path: lookup, read, checks and the recorded hit);
///   `cache_with_value` the same hits through `withValue(forKey:_:)`, which lends the bytes;
///   `cache_get_read_only` at 4 KiB through a read-only cache beside the writer, and
///   `cache_get_read_only_following` through it while the writer's hits append touch records;
/// - `posix_read_log` (backend `posix`): `pread` of each value where the log holds it, at the
///   offsets of the store's layout: the same bytes a get returns, read with one system call;
/// - `mapped_copy` and `mapped_copy_checked` (backend `posix`): the raw file's values copied
///   out of a mapping of it, with no lookup, and the same with the record checksum of each copy:
///   the floor under a mapped read and under a verified one;
/// - the reads that the report compares with `pread` (`posix_read`, `posix_read_log`, the two
///   mapped copies, `get`, `get_read_only`, `cache_get` and `cache_with_value` of one size) are
///   timed in interleaved rounds (``Sampler/measureInterleaved(_:)``), so a noisy moment on
///   the shared machine falls on a read and its baseline alike; each carries
///   `paired_vs_posix_read`, `paired_vs_posix_read_log`, `paired_vs_get` and
///   `paired_vs_cache_get` (where those are in its rounds and are not itself): the median over
///   the rounds of the baseline's time over its own (``Summary/medianRatio(of:over:)``), a
///   rate ratio;
/// - `open_snapshot` and `open_scan` at 10,000, 100,000 and 1,000,000 entries;
/// - `compact` (half of 20,000 4-KiB entries expired) and `compact_touched` (every live entry's
///   metadata changed, so each header is rewritten), beside `copy_sequential` of the same
///   number of bytes; `copy_ratio` = compaction MB/s ÷ copy MB/s;
/// - `index_bytes`: `bytes_per_entry` of the index at the largest entry count.
///
/// `STORE_BENCH_ONLY=values|compact|open|open1m` in the environment runs one group;
/// `STORE_BENCH_SIZES=4096,…` keeps only the value sizes listed.
public enum StoreBenchmark {
    public static func run(quick: Bool, directory: String? = nil) throws -> [BenchmarkResult] {
        let base = directory ?? FileManager.default.temporaryDirectory.path
        let root = base + "/imagecache-bench-store-\(SystemProcess.identifier)"
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.removeTree(root)
            try FileSystem.makeDirectories(root)
        }
        defer { try? FileSystem.removeTree(root) }
        let sampler = Sampler(repeats: quick ? 3 : 5)
        var results: [BenchmarkResult] = []
        // 128 MiB per size at most (4 KiB values stay at 20,000 for the per-operation figures):
        // the figures are page-cache rates, and more bytes only wear the disk.
        let sizes: [(size: Int, count: Int)] =
            quick
            ? [(4096, 20_000), (1 << 20, 64)]
            : [(4096, 20_000), (65_536, 2_048), (1 << 20, 128), (16 << 20, 8)]
        let only = ProcessInfo.processInfo.environment["STORE_BENCH_ONLY"] ?? ""
        // STORE_BENCH_SIZES=4096,1048576 keeps only those value sizes (for profiling one).
        let chosen = ProcessInfo.processInfo.environment["STORE_BENCH_SIZES"].map {
            Set($0.split(separator: ",").compactMap { Int($0) })
        }
        if only.isEmpty || only == "values" {
            for (size, count) in sizes where chosen?.contains(size) ?? true {
                results += try measureValues(size: size, count: count, root: root, sampler: sampler)
            }
        }
        if only.isEmpty || only == "compact" {
            results += try measureCompaction(root: root, sampler: sampler)
        }
        if only.isEmpty || only.hasPrefix("open") {
            results += try measureOpen(
                counts: quick
                    ? [10_000, 100_000]
                    : (ProcessInfo.processInfo.environment["STORE_BENCH_ONLY"] == "open1m"
                        ? [1_000_000] : [10_000, 100_000, 1_000_000]), root: root, sampler: sampler)
        }
        return results
    }

    /// The interleaved reads that others are compared with (the report's targets read the
    /// ratios to them).
    static let pairedBaselines: Set<String> = ["posix_read", "posix_read_log", "get", "cache_get"]

    static func key(_ index: Int) -> String { "https://example.com/img/\(index).png" }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset + 8 <= count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                raw.storeBytes(of: state, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
        }
        return bytes
    }

    static func shuffled(_ count: Int) -> [Int] {
        var order = Array(0..<count)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for index in stride(from: count - 1, to: 0, by: -1) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            order.swapAt(index, Int(state % UInt64(index + 1)))
        }
        return order
    }

    static func result(
        _ op: String, backend: String, bytes: Int, count: Int, _ summary: Summary,
        extra: [(String, Double)] = []
    ) -> BenchmarkResult {
        BenchmarkResult(
            suite: "store", op: op, backend: backend, bytes: bytes, count: count, seconds: summary.median,
            spread: summary.spread, repeats: summary.samples.count, extra: extra)
    }

    static func freshStore(_ path: String, options: LogStore.Options = .init(compactionDeadRatio: nil)) throws
        -> LogStore
    {
        for suffix in ["", ".hint", ".compacting"] { try? FileSystem.remove(path + suffix) }
        return try LogStore(path: path, options: options)
    }

    /// One row of reads: its op and backend, and the work one repeat times.
    typealias TimedRead = (op: String, backend: String, work: () throws -> Void)

    // MARK: put / get / get_touch and the POSIX baseline

    static func measureValues(size: Int, count: Int, root: String, sampler: Sampler) throws
        -> [BenchmarkResult]
    {
        let value = randomBytes(size, seed: UInt64(size))
        let keys = (0..<count).map(key)
        let order = shuffled(count)
        // Every read loop takes its inputs in the order it reads them: `pread` its offsets, a
        // get its keys, built in that order so that their bytes lie in sequence too. Fetching
        // the next input is then no cache miss for either. Looked up at random in `keys`, a key
        // cost each get two misses (the array, then the string's bytes) that `pread`'s offset
        // did not: work of the harness, not of the read.
        let keysInReadOrder = order.map(key)
        let path = root + "/values.log"
        let total = size * count
        var results: [BenchmarkResult] = []

        // Raw POSIX: append `count` values with pwrite, then read them back in random order,
        // through Platform's thinnest wrappers (one call each, checked; no test hooks in release).
        let rawPath = root + "/raw.bin"
        let write = try sampler.measure(
            setUp: { () throws(BenchmarkError) -> Int32 in
                try BenchmarkError.onScratch { () throws(SystemCallError) in
                    try FileSystem.remove(rawPath)
                    return try FileSystem.open(rawPath, .readWrite, options: [.create, .truncate])
                }
            },
            { fd in
                defer { FileSystem.close(fd) }
                try value.withUnsafeBytes { bytes in
                    for index in 0..<count {
                        try FileSystem.write(fd, bytes, at: UInt64(index * size), path: rawPath)
                    }
                }
            })
        results.append(result("posix_write", backend: "posix", bytes: total, count: count, write))
        // Puts into the page cache, like the posix_write baseline (no fsync): the previous
        // repeat's store is synchronized and closed in setUp, untimed.
        var previous: LogStore?
        let put = try sampler.measure(
            setUp: { () -> LogStore in
                try previous?.close()
                previous = nil
                return try freshStore(path)
            },
            { store in
                let metadata = EntryMetadata(createdAt: 1_700_000_000_000, expiresAt: .max, accessSequence: 1)
                for index in 0..<count { try store.put(value, forKey: keys[index], metadata: metadata) }
                previous = store
            })
        try previous?.close()
        previous = nil
        results.append(result("put", backend: "log", bytes: total, count: count, put))

        // The reads, in interleaved rounds: pread of the raw file, then the store's handles, then
        // (at two sizes) the cache's hits, each reading every key once in `order`.
        var buffer = [UInt8](repeating: 0, count: size)
        let fd = try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.open(rawPath, .readOnly)
        }
        defer {
            FileSystem.close(fd)
            try? FileSystem.remove(rawPath)
        }
        func preadEvery() throws {
            let got = try buffer.withUnsafeMutableBytes { bytes in
                try order.reduce(0) {
                    try $0 + FileSystem.read(fd, into: bytes, at: UInt64($1 * size), path: rawPath)
                }
            }
            guard got == total else {
                throw BenchmarkError.verificationFailed(
                    suite: "store", backend: "posix", detail: "\(rawPath) read back \(got) of \(total) bytes")
            }
        }
        // The floor under every mapped read: the same bytes copied out of a mapping of the raw
        // file, with no lookup and no lock; `checked` also computes the record checksum of each
        // copy, as a verified get does (`Spec/checksum.md`). A get does all this and looks the
        // key up too, so it cannot be faster than either.
        let rawMapping = try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileMapping.map(fd, length: total, path: rawPath)
        }
        let expectedChecksum = value.withUnsafeBytes { XXH3.checksum(of: $0) }
        func copyEvery(checked: Bool) throws {
            var mismatches = 0
            for index in order {
                let copy = [UInt8](UnsafeRawBufferPointer(start: rawMapping.base + index * size, count: size))
                if checked {
                    if copy.withUnsafeBytes({ XXH3.checksum(of: $0) }) != expectedChecksum { mismatches += 1 }
                } else if copy.count != size || copy.first != value.first {
                    mismatches += 1
                }
            }
            guard mismatches == 0 else {
                throw BenchmarkError.verificationFailed(
                    suite: "store", backend: "posix",
                    detail: "\(mismatches) of \(count) values copied from the mapping of \(rawPath) differ")
            }
        }
        func readEvery(from store: LogStore) throws {
            for key in keysInReadOrder {
                guard try store.value(forKey: key)?.count == size else {
                    throw LogStoreError.truncatedRecord(offset: 0)
                }
            }
        }
        let store = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        let readOnlyStore = try LogStore(path: path, options: .init(readOnly: true))
        // `pread` of the very bytes a get returns: each value where its put record holds it in
        // the log (after the 56-byte header and the key, `Spec/store.md` §3.1), so at the
        // offsets the log's layout gives, not at the raw file's page-aligned ones.
        let logFD = try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.open(path, .readOnly)
        }
        defer { FileSystem.close(logFD) }
        var valueOffsets = [UInt64](repeating: 0, count: count)
        for index in 0..<count {
            guard let info = try store.entryInfo(forKey: Array(keys[index].utf8)),
                info.valueLength == UInt64(size)
            else {
                throw BenchmarkError.verificationFailed(
                    suite: "store", backend: "log", detail: "\(keys[index]) is missing from \(path)")
            }
            valueOffsets[index] = info.recordOffset + 56 + UInt64(keys[index].utf8.count)
        }
        let valueOffsetsInReadOrder = order.map { valueOffsets[$0] }
        func preadEveryFromLog() throws {
            let got = try buffer.withUnsafeMutableBytes { bytes in
                try valueOffsetsInReadOrder.reduce(0) {
                    try $0 + FileSystem.read(logFD, into: bytes, at: $1, path: path)
                }
            }
            guard got == total, buffer == value else {
                throw BenchmarkError.verificationFailed(
                    suite: "store", backend: "posix",
                    detail: "\(path) read back \(got) of \(total) value bytes")
            }
        }
        var reads: [TimedRead] = [
            ("posix_read", "posix", preadEvery),
            ("posix_read_log", "posix", preadEveryFromLog),
            ("mapped_copy", "posix", { try copyEvery(checked: false) }),
            ("mapped_copy_checked", "posix", { try copyEvery(checked: true) }),
            ("get", "log", { try readEvery(from: store) }),
            ("get_read_only", "log", { try readEvery(from: readOnlyStore) }),
        ]
        var caches: CacheReaders?
        if size == 4096 || size == 1 << 20 {
            let readers = try CacheReaders(
                value: value, keys: keys, keysInReadOrder: keysInReadOrder, root: root,
                readOnlyToo: size == 4096)
            caches = readers
            reads += readers.reads
        }
        // More rounds than the other figures take: a round is short, and these are the ratios
        // the targets read.
        let rounds = Sampler(repeats: sampler.repeats * 2 - 1, warmUp: sampler.warmUp)
        let summaries = try rounds.measureInterleaved(reads.map(\.work))
        for (read, summary) in zip(reads, summaries) {
            // Each read's ratio to the baselines it is compared with, paired round by round
            // (`paired_vs_OP`, a rate ratio: above 1, this read is faster).
            var extra: [(String, Double)] = []
            for (baseline, baselineSummary) in zip(reads, summaries)
            where baseline.op != read.op && StoreBenchmark.pairedBaselines.contains(baseline.op) {
                if let ratio = Summary.medianRatio(of: baselineSummary.samples, over: summary.samples) {
                    extra.append(("paired_vs_\(baseline.op)", ratio))
                }
            }
            results.append(
                result(read.op, backend: read.backend, bytes: total, count: count, summary, extra: extra))
        }
        if let read = caches?.readOnlyRead {
            let summary = try sampler.measure(read.work)
            results.append(result(read.op, backend: read.backend, bytes: total, count: count, summary))
        }
        try caches?.close()
        try readOnlyStore.close()
        var sequence: UInt64 = 1
        let touch = try sampler.measure {
            for key in keysInReadOrder {
                guard try store.value(forKey: key)?.count == size else {
                    throw LogStoreError.truncatedRecord(offset: 0)
                }
                sequence += 1
                try store.updateMetadata(
                    EntryMetadata(
                        createdAt: 1_700_000_000_000, expiresAt: 1_800_000_000_000 + Int64(sequence),
                        accessSequence: sequence),
                    forKey: key)
            }
        }
        results.append(result("get_touch", backend: "log", bytes: total, count: count, touch))
        try store.close()
        // `get` without the checksum check on read, to show what the checksum costs.
        let unverifiedStore = try LogStore(
            path: path, options: .init(verifyChecksumsOnRead: false, compactionDeadRatio: nil))
        let unverified = try sampler.measure { try readEvery(from: unverifiedStore) }
        try unverifiedStore.close()
        results.append(result("get_unverified", backend: "log", bytes: total, count: count, unverified))
        return results
    }

    /// The cache's hits on the log backend, in the same random order as the store's reads
    /// (`keysInReadOrder`; the cache is filled in the order of `keys`, as the store is):
    /// `cache_get` through `bytes(forKey:)`; `cache_with_value` through
    /// `withValue(forKey:_:)`, which lends the bytes (the closure only looks at their length
    /// and first byte); with `readOnlyToo`, `cache_get_read_only` through a read-only cache
    /// opened beside the writer (how an app extension reads), and
    /// `cache_get_read_only_following`, the same reads timed in the interleaved rounds, where
    /// each pass first takes up the touch records of the writable cache's hits since the last
    /// (two for each of its reads): an extension reading beside an app that serves hits. The
    /// caches are filled and reopened before any read is timed, so no hit is served from the
    /// memory of the stores.
    final class CacheReaders {
        let folder: URL
        let cache: ImageCache
        let reader: ImageCache?
        let reads: [TimedRead]
        /// Timed on its own, after the others: between interleaved rounds the writable cache's
        /// hits append a touch record each, and a read-only cache that follows them measures
        /// the following, not its reads.
        let readOnlyRead: TimedRead?

        init(value: [UInt8], keys: [String], keysInReadOrder: [String], root: String, readOnlyToo: Bool)
            throws
        {
            folder = URL(fileURLWithPath: root + "/cache", isDirectory: true)
            try? FileSystem.removeTree(folder.path)
            let configuration = CacheConfiguration(directory: folder, backend: .log)
            do {
                let filling = try ImageCache(configuration: configuration)
                for key in keys { try filling.store(value, forKey: key) }
                try filling.close()
            }
            let cache = try ImageCache(configuration: configuration)
            let reader =
                readOnlyToo
                ? try ImageCache(
                    configuration: CacheConfiguration(directory: folder, backend: .log, readOnly: true))
                : nil
            self.cache = cache
            self.reader = reader
            func missed(_ key: String) -> BenchmarkError {
                BenchmarkError.verificationFailed(
                    suite: "store", backend: "log", detail: "\(key) missed in the cache")
            }
            func gets(_ cache: ImageCache) throws {
                for key in keysInReadOrder {
                    guard try cache.bytes(forKey: key)?.count == value.count else {
                        throw missed(key)
                    }
                }
            }
            let first = value.first ?? 0
            let reads: [TimedRead] = [
                ("cache_get", "log", { try gets(cache) }),
                (
                    "cache_with_value", "log",
                    {
                        for key in keysInReadOrder {
                            let matches = try cache.withValue(forKey: key) { bytes in
                                bytes.count == value.count && bytes.first == first
                            }
                            guard matches == true else { throw missed(key) }
                        }
                    }
                ),
            ]
            self.reads =
                reads
                + (reader.map { reader in [("cache_get_read_only_following", "log", { try gets(reader) })] }
                    ?? [])
            readOnlyRead = reader.map { reader in ("cache_get_read_only", "log", { try gets(reader) }) }
        }

        func close() throws {
            try reader?.close()
            try cache.close()
            try? FileSystem.removeTree(folder.path)
        }
    }

    // MARK: compaction and the sequential copy baseline

    static func measureCompaction(root: String, sampler: Sampler) throws -> [BenchmarkResult] {
        let count = 20_000
        let size = 4096
        let value = randomBytes(size, seed: 99)
        let path = root + "/compact.log"
        var results: [BenchmarkResult] = []
        var keptBytes = 0
        for touched in [false, true] {
            var previous: LogStore?
            let summary = try sampler.measure(
                setUp: { () -> LogStore in
                    // Closing is not part of compaction: the previous repeat's store closes here.
                    try previous?.close()
                    previous = nil
                    let store = try freshStore(path)
                    for index in 0..<count {
                        // Every other entry is expired at compaction time.
                        let expiresAt: Int64 = index % 2 == 0 ? 1_000 : .max
                        try store.put(
                            value, forKey: key(index),
                            metadata: EntryMetadata(
                                createdAt: 0, expiresAt: expiresAt, accessSequence: UInt64(index)))
                    }
                    if touched {
                        for index in stride(from: 1, to: count, by: 2) {
                            try store.updateMetadata(
                                EntryMetadata(
                                    createdAt: 0, expiresAt: .max, accessSequence: UInt64(count + index)),
                                forKey: key(index))
                        }
                    }
                    try store.synchronize()
                    return store
                },
                { store in
                    let outcome = try store.compact(now: 2_000)
                    keptBytes = Int(outcome.bytesAfter)
                    previous = store
                })
            try previous?.close()
            results.append(
                result(
                    touched ? "compact_touched" : "compact", backend: "log", bytes: keptBytes, count: count,
                    summary))
        }

        // Copy a file of the compacted size, 1 MiB at a time, with an fsync, like compaction.
        let source = root + "/copy-source.bin"
        let destination = root + "/copy-destination.bin"
        let sourceBytes = randomBytes(keptBytes, seed: 7)
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.writeFile(sourceBytes, toPath: source)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let copy = try sampler.measure {
            let copied = try BenchmarkError.onScratch { () throws(SystemCallError) -> Int in
                let input = try FileSystem.open(source, .readOnly)
                defer { FileSystem.close(input) }
                try FileSystem.remove(destination)
                let output = try FileSystem.open(destination, .writeOnly, options: [.create, .truncate])
                defer { FileSystem.close(output) }
                var failure: SystemCallError?
                let copied = chunk.withUnsafeMutableBytes { bytes in
                    var copied = 0
                    do throws(SystemCallError) {
                        while true {
                            let got = try FileSystem.readSequentially(input, into: bytes, path: source)
                            if got == 0 { break }
                            try FileSystem.writeSequentially(
                                output, UnsafeRawBufferPointer(rebasing: bytes[..<got]), path: destination)
                            copied += got
                        }
                    } catch {
                        failure = error
                    }
                    return copied
                }
                if let failure { throw failure }
                try FileSystem.synchronizeFile(output, path: destination)
                return copied
            }
            guard copied == keptBytes else {
                throw BenchmarkError.verificationFailed(
                    suite: "store", backend: "posix", detail: "copied \(copied) of \(keptBytes) bytes")
            }
        }
        try? FileSystem.remove(source)
        try? FileSystem.remove(destination)
        let copyResult = result("copy_sequential", backend: "posix", bytes: keptBytes, count: 1, copy)
        results.append(copyResult)
        for index in results.indices where results[index].op.hasPrefix("compact") {
            results[index].extra.append(
                ("copy_ratio", results[index].megabytesPerSecond / copyResult.megabytesPerSecond))
        }
        return results
    }

    // MARK: open time and index size

    static func measureOpen(counts: [Int], root: String, sampler: Sampler) throws -> [BenchmarkResult] {
        var results: [BenchmarkResult] = []
        let value = randomBytes(64, seed: 5)
        let path = root + "/open.log"
        var lastStatistics: LogStore.Statistics?
        for count in counts {
            do {
                let store = try freshStore(path)
                let metadata = EntryMetadata(createdAt: 0, expiresAt: .max, accessSequence: 0)
                for index in 0..<count { try store.put(value, forKey: key(index), metadata: metadata) }
                try store.close()
            }
            let fileSize = Int(try FileSystem.status(ofPath: path)?.size ?? 0)
            let openSampler = Sampler(repeats: count >= 1_000_000 ? 3 : sampler.repeats)
            // The snapshot open runs last, so index_bytes describes the index it builds.
            for usesSnapshot in [false, true] {
                var statistics: LogStore.Statistics?
                // Only the open is timed: the previous repeat's store is released in setUp.
                var previous: LogStore?
                let summary = try openSampler.measure(
                    setUp: { () -> LogStore? in
                        try previous?.close()
                        previous = nil
                        return nil
                    },
                    { opened in
                        let store = try LogStore(
                            path: path, options: .init(readOnly: true, usesSnapshot: usesSnapshot))
                        opened = store
                        previous = store
                    })
                if let store = previous {
                    guard store.count == count, store.recovery.usedSnapshot == usesSnapshot else {
                        throw LogStoreError.corruptRecord(offset: 0)
                    }
                    statistics = store.statistics
                    try store.close()
                    previous = nil
                }
                results.append(
                    result(
                        usesSnapshot ? "open_snapshot" : "open_scan", backend: "log", bytes: fileSize,
                        count: count, summary))
                lastStatistics = statistics
            }
        }
        if let statistics = lastStatistics {
            results.append(
                BenchmarkResult(
                    suite: "store", op: "index_bytes", backend: "log", bytes: statistics.indexBytes,
                    count: statistics.entries, seconds: 0,
                    extra: [
                        ("bytes_per_entry", statistics.indexBytesPerEntry),
                        ("key_bytes", Double(key(0).utf8.count)),
                    ]))
        }
        return results
    }
}
