import Foundation
import ImageCacheKit
import PNG

extension DiskImage {
    /// Writes the state into `root` (an empty folder), with each item's modification time
    /// set from its time: later calls, later times.
    func materialize(at root: String) throws {
        let manager = FileManager.default
        func date(_ time: Int) -> Date { Date(timeIntervalSince1970: 1_600_000_000 + Double(time) / 1000) }
        for folder in folders.keys.sorted(by: { $0.count < $1.count }) {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for (path, file) in files {
            guard manager.createFile(atPath: root + "/" + path, contents: Data(file.bytes)) else {
                throw CocoaError(.fileWriteUnknown)
            }
            try manager.setAttributes([.modificationDate: date(file.time)], ofItemAtPath: root + "/" + path)
        }
        // Folders last, deepest first: creating their files changed their times.
        for (folder, time) in folders.sorted(by: { $0.key.count > $1.key.count }) {
            try manager.setAttributes([.modificationDate: date(time)], ofItemAtPath: root + "/" + folder)
        }
    }
}

/// Opens a disk state as a user would after the power came back (read-only, then writable,
/// then read-only again) and checks every read against the expectation (`Spec/backends.md`
/// §8): every open succeeds, every read returns a value some allowed state holds or a miss
/// some allowed state explains, nothing throws.
enum StateCheck {
    static func problems(
        of image: DiskImage, expectation: Expectation, settings: CacheWorkloadSettings, scratch: String
    ) -> [String] {
        let root = scratch + "/state-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try image.materialize(at: root)
        } catch {
            return ["the state could not be written: \(error)"]
        }
        var problems: [String] = []
        defer {
            // IMAGECACHE_POWER_LOSS_KEEP=DIR keeps every failing state, as the power cut left it.
            if !problems.isEmpty, let keep = ProcessInfo.processInfo.environment["IMAGECACHE_POWER_LOSS_KEEP"]
            {
                let kept = keep + "/state-" + UUID().uuidString
                try? FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
                try? image.materialize(at: kept)
                print("power loss: a failing state is kept in \(kept)")
            }
        }
        for (phase, readOnly) in [
            ("read-only open", true), ("writable open", false), ("second read-only open", true),
        ] {
            let clock = ManualClock(milliseconds: expectation.now)
            let cache: ImageCache
            do {
                cache = try ImageCache(
                    configuration: settings.configuration(root: root, clock: clock, readOnly: readOnly))
            } catch {
                problems.append("\(phase) failed: \(error)")
                return problems
            }
            let keys = Set(cache.keys).union(expectation.candidates.keys)
            for key in keys.sorted() {
                do {
                    let bytes = try cache.data(forKey: key).map { [UInt8]($0) }
                    if !expectation.allows(bytes, forKey: key) {
                        problems.append(
                            "\(phase): \(key) read \(bytes.map { "\($0.count) bytes no allowed state holds" } ?? "a miss"); allowed: \(describe(expectation.candidates[key]))"
                        )
                    } else if let bytes, readOnly, expectation.images.contains(key) {
                        // Only a reader checks variants: a writer would store one, and a store
                        // applies the limits, which may evict entries a later phase then misses
                        // (after a power cut the cache may hold more than its limit).
                        problems += variantProblems(cache, key: key, original: bytes, phase: phase)
                    }
                } catch {
                    problems.append(
                        "\(phase): reading \(key) threw \(error); allowed: \(describe(expectation.candidates[key]))"
                    )
                }
            }
            do {
                try cache.close()
            } catch {
                problems.append("\(phase): close failed: \(error)")
            }
            if !problems.isEmpty { return problems }
        }
        return problems
    }

    /// A variant the cache returns must be the downsample of the original it holds.
    private static func variantProblems(_ cache: ImageCache, key: String, original: [UInt8], phase: String)
        -> [String]
    {
        do {
            let expected = try PNGDecoder().decodeBitmap(original).downsampled(toFit: 16)
            guard let variant = try cache.variant(forKey: key, maximumPixelSize: 16) else {
                return ["\(phase): the variant of \(key) is missing though its original reads"]
            }
            return variant == expected
                ? [] : ["\(phase): the variant of \(key) is not its original's downsample"]
        } catch {
            return ["\(phase): the variant of \(key) threw \(error)"]
        }
    }

    private static func describe(_ states: Set<KeyState>?) -> String {
        (states ?? [.absent]).map {
            switch $0 {
            case .absent: "absent"
            case .value(let digest, let expiresAt):
                "value \(String(UInt(bitPattern: digest) % 100_000)) until \(expiresAt)"
            }
        }.sorted().joined(separator: ", ")
    }
}
