import Foundation
import Platform

/// The directories one suite creates its stores in, all under one root that the suite removes
/// when it finishes (also when it fails), so runs leave nothing behind.
final class ScratchSpace {
    let root: URL
    private var made = 0

    /// A fresh root for `suite` under `options.scratchDirectory`.
    init(_ options: BenchOptions, suite: String) throws {
        let unique =
            "imagecache-bench-\(ProcessInfo.processInfo.processIdentifier)-\(suite)-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        root = options.scratchDirectory.appendingPathComponent(unique, isDirectory: true)
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.makeDirectories(root.standardizedFileURL.path)
        }
    }

    /// A new, empty directory path for one store (the store creates it), named for the reader
    /// who finds it after a crash.
    func directory(_ label: String) -> URL {
        made += 1
        return root.appendingPathComponent("\(made)-\(label)", isDirectory: true)
    }

    /// Deletes a store's directory between repeats, so the disk never holds more than one.
    func remove(_ directory: URL) throws {
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.removeTree(directory.path)
        }
    }

    /// Deletes everything this suite created.
    func removeAll() {
        try? FileSystem.removeTree(root.path)
    }
}
