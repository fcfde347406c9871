// The other process of `imagecache bench shared` (Sources/Benchmarks/SharedBenchmark.swift):
// it opens a cache folder shared with the bench's own process and does one thing to it.
//
//     imagecache-bench-sharer write-every-ms FOLDER BACKEND SECONDS
//         prints "ready" once open, then stores a 4 KiB value under key "w" every millisecond
//         for SECONDS
//     imagecache-bench-sharer store FOLDER BACKEND COUNT PREFIX
//         waits for a line on standard input, stores COUNT 4 KiB values as fast as it can,
//         prints the seconds it took
//     imagecache-bench-sharer visibility FOLDER BACKEND COUNT
//         stores value i (its number in the first 8 bytes) under key "v" COUNT times, 2 ms
//         apart, and prints "i returnedNanoseconds" once each store has returned
import Foundation
import ImageCacheKit
import Platform

func fail(_ message: String) -> Never {
    try? StandardStream.error.write(Array((message + "\n").utf8))
    SystemProcess.exit(1)
}

func say(_ line: String) {
    try? StandardStream.output.write(Array((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, let backend = Backend(rawValue: arguments[3]) else {
    fail("usage: imagecache-bench-sharer write-every-ms|store|visibility FOLDER BACKEND …")
}
let cache: ImageCache
do {
    cache = try ImageCache(
        configuration: CacheConfiguration(
            directory: URL(fileURLWithPath: arguments[2]), backend: backend, sharedAcrossProcesses: true))
} catch {
    fail("open: \(error)")
}
var value = [UInt8](repeating: 7, count: 4096)
do {
    switch arguments[1] {
    case "write-every-ms":
        guard let seconds = Double(arguments[4]) else { fail("SECONDS") }
        // Open, and the bench may start measuring: its figure is the steady state beside a
        // writer, not this process's open.
        say("ready")
        let deadline = Date().addingTimeInterval(seconds)
        var round: UInt64 = 0
        while Date() < deadline {
            round += 1
            withUnsafeBytes(of: round) { value.replaceSubrange(0..<8, with: $0) }
            try cache.store(value, forKey: "w")
            Thread.sleep(forTimeInterval: 0.001)
        }
    case "store":
        guard arguments.count == 6, let count = Int(arguments[4]) else { fail("COUNT PREFIX") }
        _ = readLine()
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            withUnsafeBytes(of: UInt64(index)) { value.replaceSubrange(0..<8, with: $0) }
            try cache.store(value, forKey: arguments[5] + String(index))
        }
        say(String(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    case "read":
        // Not used by the bench: reads PREFIX0 … PREFIX(COUNT-1) at random for 3 s and prints
        // the reads per second, to profile a reader beside a writer by hand.
        guard arguments.count == 6, let count = UInt64(arguments[4]) else { fail("COUNT PREFIX") }
        var state: UInt64 = 42
        var reads = 0
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < 3_000_000_000 {
            for _ in 0..<64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                _ = try cache.bytes(forKey: arguments[5] + String((state >> 33) % count))
                reads += 1
            }
        }
        say(String(Double(reads) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)))
    case "visibility":
        guard let count = Int(arguments[4]) else { fail("COUNT") }
        for index in 1...count {
            withUnsafeBytes(of: UInt64(index)) { value.replaceSubrange(0..<8, with: $0) }
            try cache.store(value, forKey: "v")
            say("\(index) \(DispatchTime.now().uptimeNanoseconds)")
            Thread.sleep(forTimeInterval: 0.002)
        }
    default:
        fail("unknown mode \(arguments[1])")
    }
    try cache.close()
} catch {
    fail("\(arguments[1]): \(error)")
}
