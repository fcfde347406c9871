import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

extension TemporaryDirectory {
    /// `cache/` in the folder: a cache folder that does not exist until a cache creates it.
    var cacheURL: URL { url.appendingPathComponent("cache", isDirectory: true) }
}

/// A small deterministic generator so the tests need no global random state.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `count` pseudo-random bytes determined by `seed`; different seeds give different bytes.
func bytes(seed: UInt64, count: Int) -> [UInt8] {
    var generator = SplitMix64(state: seed &* 0x1000_0001)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
}

/// A configuration for `backend` in `directory` with a manual clock.
func configuration(
    _ backend: Backend, _ directory: TemporaryDirectory, clock: ManualClock,
    timeToLive: Int64? = nil, maximumAge: Int64? = nil, maximumBytes: Int? = nil,
    maximumEntryCount: Int? = nil, memoryCostLimit: Int? = nil, externalStorageThreshold: Int = 128 * 1024
) -> CacheConfiguration {
    CacheConfiguration(
        directory: directory.cacheURL, backend: backend, timeToLive: timeToLive.map { .milliseconds($0) },
        maximumAge: maximumAge.map { .milliseconds($0) },
        maximumBytes: maximumBytes, maximumEntryCount: maximumEntryCount, clock: clock,
        memoryCostLimit: memoryCostLimit, externalStorageThreshold: externalStorageThreshold)
}

/// Whether `error` is `corruptEntry` for `key` (the reason text is for people, not tests).
func isCorruptEntry(_ error: any Error, key: String) -> Bool {
    if case .corruptEntry(let corruptKey, _)? = error as? CacheError { return corruptKey == key }
    return false
}

/// Every regular file under `url`, recursively, as paths.
func allFiles(under url: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return [] }
    var result: [String] = []
    while let relative = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let path = url.path + "/" + relative
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            result.append(path)
        }
    }
    return result.sorted()
}

/// Finds `pattern` in one of the files under `url` and flips one bit in its middle, as a bad
/// sector or a stray write would. Returns the damaged file's path.
@discardableResult
func corrupt(_ pattern: [UInt8], under url: URL) throws -> String {
    for path in allFiles(under: url) {
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard data.count >= pattern.count else { continue }
        for start in 0...(data.count - pattern.count) where data[start] == pattern[0] {
            if data[start..<start + pattern.count].elementsEqual(pattern) {
                data[start + pattern.count / 2] ^= 0x10
                try Data(data).write(to: URL(fileURLWithPath: path))
                return path
            }
        }
    }
    Issue.record("pattern not found under \(url.path)")
    return ""
}

extension DirectoryStorage {
    /// The entry file name of a string key (its UTF-8 bytes, `Spec/backends.md` §1.2).
    static func fileName(forKey key: String) -> String { fileName(forKey: Array(key.utf8)) }
}

extension HybridStorage {
    /// The external file name of a string key's value stored with `accessSequence`.
    static func externalFileName(forKey key: String, accessSequence: UInt64) -> String {
        externalFileName(forKey: Array(key.utf8), accessSequence: accessSequence)
    }
}
