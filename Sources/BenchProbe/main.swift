// The child process of `imagecache bench open-memory` (Benchmarks/OpenMemoryBenchmark.swift),
// built beside `imagecache`, which finds it there. A process's peak resident memory only ever
// grows, so each open is measured alone, in a fresh process of its own.
//
//   imagecache-bench-probe open-store FOLDER EXPECTED
//       Opens FOLDER/cache.log as a bare LogStore.
//   imagecache-bench-probe open-cache FOLDER EXPECTED
//       Opens FOLDER as a cache on the log backend.
//
// Either prints "SECONDS PEAK_RSS_BYTES": the time the open took and this process's own peak
// resident memory right after it (`SystemProcess.peakResidentBytes()`: `VmHWM` on Linux, not
// `ru_maxrss`, which there starts at the RSS of the parent the probe was forked from; 0 where
// the system does not tell). Exit 0 when the store holds EXPECTED entries, 1 when not or on an
// error ("error …" on standard output), 2 for other words.
import Foundation
import ImageCacheKit
import LogStoreKit
import Platform

/// The process's peak resident memory so far, in bytes; 0 where the system does not tell.
func peakResidentBytes() -> Double {
    Double(SystemProcess.peakResidentBytes() ?? 0)
}

/// Seconds since `start` (`DispatchTime` nanoseconds), as the bench's own clock measures.
func seconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
}

/// Opens, checks the count, prints "SECONDS PEAK_RSS_BYTES"; returns the exit status.
func probe(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let expected = Int(arguments[2]) else { return 2 }
    let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let start = DispatchTime.now().uptimeNanoseconds
    let count: Int
    do {
        switch arguments[0] {
        case "open-store":
            let store = try LogStore(path: folder.path + "/cache.log")
            count = store.count
            print(seconds(since: start), peakResidentBytes())
            try store.close()
        case "open-cache":
            let cache = try ImageCache(configuration: CacheConfiguration(directory: folder, backend: .log))
            count = cache.count
            print(seconds(since: start), peakResidentBytes())
            try cache.close()
        default:
            return 2
        }
    } catch {
        print("error \(error)")
        return 1
    }
    return count == expected ? 0 : 1
}

SystemProcess.exit(probe(Array(CommandLine.arguments.dropFirst())))
