import Foundation
import Platform

/// The system calls that a store in a shared cache makes and a store in a cache that does not
/// share does not (`Spec/store.md` §12.3), timed alone in the same run, so the report can show
/// how far sharing can come at best:
///
/// - `lock_pair`: the lock of changes taken and released (`flock` exclusive, then unlock) with
///   no one else waiting;
/// - `record_append`: one record of a 4 KiB value written at the end of the log before the
///   store returns (a 4,200-byte `pwrite`, each into new pages of the page cache);
/// - `record_in_large_writes`: the same bytes per record when written 1 MiB at a time, as a
///   cache that does not share writes its buffer.
extension SharedBenchmark {
    /// About the bytes a cache store of a 4 KiB value appends to the log: header, key and value.
    public static let recordBytes = 4_200

    static func systemCallBaselines(_ scratch: ScratchSpace, repeats: Int, quick: Bool) throws
        -> [BenchmarkResult]
    {
        let folder = scratch.directory("system-calls").path
        let lockPath = folder + "/lock"
        let logPath = folder + "/log"
        let records = quick ? 5_000 : 20_000
        let perWrite = (1 << 20) / recordBytes
        // One buffer: a record is its first `recordBytes`, a large write all of it.
        let large = UnsafeMutableRawBufferPointer.allocate(byteCount: perWrite * recordBytes, alignment: 64)
        large.initializeMemory(as: UInt8.self, repeating: 0x5A)
        defer { large.deallocate() }
        let record = UnsafeRawBufferPointer(rebasing: large[0..<recordBytes])
        var samples: [String: [Double]] = [:]
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.makeDirectories(folder)
            let lock = try FileSystem.open(lockPath, .readWrite, options: [.create])
            defer { FileSystem.close(lock) }
            let log = try FileSystem.open(logPath, .readWrite, options: [.create])
            defer { FileSystem.close(log) }
            for _ in 0..<repeats {
                var start = MonotonicClock.now()
                for _ in 0..<records {
                    try FileLock.lockExclusively(lock, path: lockPath)
                    FileLock.unlock(lock)
                }
                samples["lock_pair", default: []].append(
                    MonotonicClock.seconds(since: start) / Double(records))

                try FileSystem.truncate(log, to: 0, path: logPath)
                start = MonotonicClock.now()
                for index in 0..<records {
                    try FileSystem.write(log, record, at: UInt64(index * recordBytes), path: logPath)
                }
                samples["record_append", default: []].append(
                    MonotonicClock.seconds(since: start) / Double(records))

                try FileSystem.truncate(log, to: 0, path: logPath)
                let writes = records / perWrite
                start = MonotonicClock.now()
                for index in 0..<writes {
                    try FileSystem.write(
                        log, UnsafeRawBufferPointer(large), at: UInt64(index * large.count), path: logPath)
                }
                samples["record_in_large_writes", default: []].append(
                    MonotonicClock.seconds(since: start) / Double(writes * perWrite))
            }
            try FileSystem.truncate(log, to: 0, path: logPath)
        }
        return samples.sorted { $0.key < $1.key }.map { op, seconds in
            let summary = Summary(samples: seconds)
            return BenchmarkResult(
                suite: "shared", op: op, backend: "system", bytes: op == "lock_pair" ? 0 : recordBytes,
                count: 1, seconds: summary.median, spread: summary.spread, repeats: seconds.count)
        }
    }
}
