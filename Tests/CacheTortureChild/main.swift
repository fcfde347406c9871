// The child process of the cache crash tests (`Tests/CrashTests`). Not part of the product.
//
//   cache-torture-child torture BACKEND FOLDER SEED
//       Runs TortureWorkload operations 0, 1, 2, … of SEED on a cache in FOLDER until killed,
//       printing "synced N" each time synchronize() returns after operations 0 ..< N.
//   cache-torture-child hold-lock BACKEND FOLDER
//       Opens a writable cache, prints "open", and holds it until standard input ends.
//   cache-torture-child exit-without-close BACKEND FOLDER COUNT
//       Stores COUNT values, prints "stored", and exits without closing the cache.
import Foundation
import ImageCacheKit
import TortureWorkload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line straight to the file descriptor, so a kill right after cannot lose it.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

func open(_ backend: String, _ folder: String) throws -> ImageCache {
    guard let backend = Backend(rawValue: backend) else {
        FileHandle.standardError.write(Data("unknown backend \(backend)\n".utf8))
        exit(2)
    }
    return try ImageCache(
        configuration: CacheConfiguration(
            directory: URL(fileURLWithPath: folder, isDirectory: true), backend: backend,
            externalStorageThreshold: TortureWorkload.hybridThreshold))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.count) {
    case ("torture", 4):
        let cache = try open(arguments[1], arguments[2])
        let seed = UInt64(arguments[3]) ?? 1
        var number = 0
        while true {
            switch TortureWorkload.operation(number, seed: seed) {
            case .store(let key, let size):
                let value = TortureWorkload.value(key: key, size: size, operation: number, seed: seed)
                try cache.store(value, forKey: TortureWorkload.key(key))
            case .remove(let key):
                try cache.removeValue(forKey: TortureWorkload.key(key))
            case .read(let key):
                _ = try cache.bytes(forKey: TortureWorkload.key(key))
            case .synchronize:
                try cache.synchronize()
                say("synced \(number)")
            case .compact:
                try cache.compact()
            case .purge:
                try cache.purgeExpired()
            }
            number += 1
        }
    case ("hold-lock", 3):
        let cache = try open(arguments[1], arguments[2])
        say("open")
        _ = FileHandle.standardInput.readDataToEndOfFile()
        try cache.close()
    case ("exit-without-close", 4):
        let cache = try open(arguments[1], arguments[2])
        for index in 0..<(Int(arguments[3]) ?? 0) {
            try cache.store(
                TortureWorkload.value(key: index, size: 64, operation: index, seed: 7), forKey: "k\(index)")
        }
        say("stored")
        exit(0)
    default:
        FileHandle.standardError.write(
            Data("usage: cache-torture-child torture|hold-lock|exit-without-close …\n".utf8))
        exit(2)
    }
} catch {
    say("error \(error)")
    exit(1)
}
