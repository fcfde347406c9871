// libFuzzer entry point for the cache backends' own files (not a SwiftPM target). Build and run
// it with `Tests/Fuzz/run.sh backends SECONDS`, which compiles it into one module with every
// library folder.
//
// Byte 0 picks the backend and what the rest of the input becomes (`Spec/backends.md`):
//   0  dictionary: the whole `cache.dictionary` file;
//   1  directory: the `index` file, and an entry file for the key "k" (after a 0xFE separator,
//      when there is one);
//   2  hybrid: log values, one per key, split at 0xFE bytes (so the references of §5.2 are
//      fuzzed), written through a LogStore, with an external file holding the input;
//   3  log: the whole `cache.log` file.
// Every input must open or throw a CacheError, never trap; an open cache must list, read (raw
// and as bitmaps), verify, purge, compact and close.
import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import LogStoreKit
#endif

let backendFuzzFolder: String = {
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    return base + "/backend-fuzz-\(getpid())"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func backendFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 1 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let folder = backendFuzzFolder
    try? FileManager.default.removeItem(atPath: folder)
    try? FileManager.default.createDirectory(atPath: folder + "/entries", withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(atPath: folder + "/external", withIntermediateDirectories: true)
    let backend: Backend
    switch data[0] % 4 {
    case 0:
        backend = .dictionary
        FileManager.default.createFile(atPath: folder + "/cache.dictionary", contents: Data(rest))
    case 1:
        backend = .directory
        let parts = rest.split(separator: 0xFE, maxSplits: 1, omittingEmptySubsequences: false)
        FileManager.default.createFile(atPath: folder + "/index", contents: Data(parts[0]))
        if parts.count > 1 {
            let name = DirectoryStorage.fileName(forKey: Array("k".utf8))
            FileManager.default.createFile(atPath: folder + "/entries/" + name, contents: Data(parts[1]))
        }
    case 2:
        backend = .hybrid
        guard let log = try? LogStore(path: folder + "/hybrid.log") else { return 0 }
        for (index, value) in rest.split(separator: 0xFE, omittingEmptySubsequences: false).enumerated() {
            try? log.put(
                Array(value), forKey: "k\(index)",
                metadata: EntryMetadata(createdAt: 0, accessSequence: UInt64(index)))
        }
        try? log.close()
        let name = HybridStorage.externalFileName(forKey: Array("k0".utf8), accessSequence: 0)
        FileManager.default.createFile(atPath: folder + "/external/" + name, contents: Data(rest))
    default:
        backend = .log
        FileManager.default.createFile(atPath: folder + "/cache.log", contents: Data(rest))
    }
    let configuration = CacheConfiguration(
        directory: URL(fileURLWithPath: folder, isDirectory: true), backend: backend,
        clock: ManualClock(milliseconds: 1_000),
        decodingLimits: PNGLimits(maximumPixelCount: 1 << 16, maximumDecompressedBytes: 1 << 20))
    guard let cache = try? ImageCache(configuration: configuration) else { return 0 }
    for key in cache.keys {
        _ = try? cache.bytes(forKey: key)
        _ = try? cache.bitmap(forKey: key)
        _ = try? cache.variant(forKey: key, maximumPixelSize: 4)
    }
    _ = try? cache.verify()
    _ = try? cache.purgeExpired()
    _ = try? cache.compact()
    try? cache.close()
    return 0
}
