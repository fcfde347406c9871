// A process that shares a cache folder with others (`Spec/backends.md` §9), for the
// multi-process tests (Tests/CrashTests/SharingProcessTests): it runs seeded random operations
// for a while and prints one line per operation, with its start and end on the monotonic clock,
// so that the test can check every read against every process's writes.
//
//     sharing-child FOLDER BACKEND WORKER SEED MILLISECONDS MAXIMUM_BYTES
//
// Lines: `S key worker op start end` (a store), `R key start end worker op` or `R key start end
// miss` (a read), `D key start end` (a removal), `Y start end bytes count` (a synchronize, with
// what the cache holds), `C`, `P`, `X` (compact, purge, clear), `E message` (an operation
// failed), `BAD key …` (a read returned bytes no process wrote for that key).
import Foundation
import ImageCacheKit

struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The value `worker`'s operation `op` stores under key number `key`: a 16-byte header naming
/// them, then bytes they determine.
func value(worker: UInt32, op: UInt32, key: UInt32, size: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for field in [worker, op, key, UInt32(size)] { withUnsafeBytes(of: field.littleEndian) { bytes += $0 } }
    var generator = SplitMix(state: UInt64(worker) << 32 | UInt64(op))
    while bytes.count < size { bytes.append(UInt8(truncatingIfNeeded: generator.next())) }
    return Array(bytes.prefix(max(size, 16)))
}

/// (worker, op) when `bytes` is exactly a value some worker stored under `key`.
func origin(of bytes: [UInt8], key: UInt32) -> (UInt32, UInt32)? {
    guard bytes.count >= 16 else { return nil }
    func field(_ index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[index * 4 + $1]) << (8 * $1) }
    }
    let worker = field(0)
    let op = field(1)
    guard field(2) == key, Int(field(3)) == bytes.count || (bytes.count == 16 && field(3) < 16),
        value(worker: worker, op: op, key: key, size: Int(field(3))) == bytes
    else { return nil }
    return (worker, op)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Writes a line at once (no buffer), so a killed process leaves every line it finished.
func print(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let backend = Backend(rawValue: arguments[2]), let worker = UInt32(arguments[3]),
    let seed = UInt64(arguments[4]), let milliseconds = UInt64(arguments[5]),
    let maximumBytes = Int(arguments[6])
else {
    print("E usage: sharing-child FOLDER BACKEND WORKER SEED MILLISECONDS MAXIMUM_BYTES")
    exit(2)
}
let configuration = CacheConfiguration(
    directory: URL(fileURLWithPath: arguments[1]), backend: backend, timeToLive: .seconds(3_600),
    maximumBytes: maximumBytes, externalStorageThreshold: 2_000, sharedAcrossProcesses: true)
let cache: ImageCache
do {
    cache = try ImageCache(configuration: configuration)
} catch {
    print("E open: \(error)")
    exit(1)
}
var random = SplitMix(state: seed)
let keyCount: UInt64 = 24
let deadline = now() + milliseconds * 1_000_000
var op: UInt32 = 0
while now() < deadline {
    op += 1
    let roll = random.next() % 1000
    let key = UInt32(random.next() % keyCount)
    let start = now()
    do {
        switch roll {
        case 0..<450:
            let size = 16 + Int(random.next() % (random.next() % 5 == 0 ? 6_000 : 900))
            try cache.store(Data(value(worker: worker, op: op, key: key, size: size)), forKey: "k\(key)")
            print("S \(key) \(worker) \(op) \(start) \(now())")
        case 450..<850:
            let read = try cache.data(forKey: "k\(key)").map { [UInt8]($0) }
            let end = now()
            if let read {
                if let (writer, writerOp) = origin(of: read, key: key) {
                    print("R \(key) \(start) \(end) \(writer) \(writerOp)")
                } else {
                    print("BAD \(key) \(read.count) bytes")
                }
            } else {
                print("R \(key) \(start) \(end) miss")
            }
        case 850..<930:
            _ = try cache.removeValue(forKey: "k\(key)")
            print("D \(key) \(start) \(now())")
        case 930..<985:
            try cache.synchronize()
            let statistics = cache.statistics
            print("Y \(start) \(now()) \(statistics.bytes) \(statistics.entries)")
        case 985..<993:
            try cache.compact()
            print("C")
        case 993..<998:
            _ = try cache.purgeExpired()
            print("P")
        default:
            try cache.removeAll()
            print("X \(start) \(now())")
        }
    } catch {
        print("E op \(op): \(error)")
    }
}
do {
    try cache.close()
} catch {
    print("E close: \(error)")
}
print("done \(op)")
