import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The reference the cache backends are measured against: one plain file per key, written and
/// read with `write(2)` and `read(2)`, made durable with `fsync(2)`, with no index file. The calls
/// go through Platform's thinnest wrappers and nothing more: no memory advice, no temporary
/// file, no rename.
///
/// This is what a file-per-entry cache does at its simplest, so the gap between a backend and this
/// baseline is what the backend's own bookkeeping costs (or saves). Opening lists the directory
/// and stats every file, which is how such caches rebuild their index at start-up.
///
/// File names are the key's UTF-8 bytes in hexadecimal, so any key is a valid name (keys longer
/// than 127 bytes exceed the usual 255-byte name limit; the benchmarks use short keys).
///
/// Thread-safe: the index is behind a lock, file I/O runs outside it.
public final class RawFileStore: BenchmarkStore, @unchecked Sendable {
    private let directory: String
    private let lock = NSLock()
    private var sizes: [String: Int] = [:]
    private var unsynchronized: Set<String> = []

    /// Opens the store in `directory`, creating it if needed and indexing the files already there.
    public init(directory: URL) throws {
        let path = directory.path
        self.directory = path
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.makeDirectories(directory.standardizedFileURL.path)
            // readdir, then a stat of every name, as such a cache rebuilds its index.
            for entry in try Directory(path: path, followingLink: true).entries() {
                guard let key = RawFileStore.key(forFileName: entry.name),
                    let status = try FileSystem.status(followingLinksAt: path + "/" + entry.name),
                    status.kind == .regular
                else { continue }
                sizes[key] = Int(status.size)
            }
        }
    }

    /// The raw-file baseline as a subject.
    public static let subject = BenchmarkSubject(name: "raw-file", role: .baseline) { settings in
        try RawFileStore(directory: settings.directory)
    }

    public func store(_ value: [UInt8], forKey key: String) throws {
        let name = RawFileStore.fileName(forKey: key)
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.writeFile(value, toPath: directory + "/" + name)
        }
        lock.lock()
        sizes[key] = value.count
        unsynchronized.insert(name)
        lock.unlock()
    }

    public func value(forKey key: String) throws -> [UInt8]? {
        let path = directory + "/" + RawFileStore.fileName(forKey: key)
        return try BenchmarkError.onScratch { () throws(SystemCallError) -> [UInt8]? in
            let fd: Int32
            do throws(SystemCallError) {
                fd = try FileSystem.open(path, .readOnly)
            } catch {
                if error.errno == .noSuchFile { return nil }
                throw error
            }
            defer { FileSystem.close(fd) }
            let size = Int(try FileSystem.size(fd, path: path))
            var failure: SystemCallError?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                do throws(SystemCallError) {
                    count = try FileSystem.readSequentially(
                        fd, into: UnsafeMutableRawBufferPointer(buffer), path: path)
                } catch {
                    failure = error
                    count = 0
                }
            }
            if let failure { throw failure }
            return bytes
        }
    }

    public func removeAll() throws {
        lock.lock()
        let keys = Array(sizes.keys)
        sizes.removeAll()
        unsynchronized.removeAll()
        lock.unlock()
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            for key in keys { try FileSystem.remove(directory + "/" + RawFileStore.fileName(forKey: key)) }
        }
    }

    /// Flushes every file written since the last call, then the directory (so new names last).
    public func synchronize() throws {
        lock.lock()
        let names = unsynchronized
        unsynchronized.removeAll()
        lock.unlock()
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            for name in names {
                let path = directory + "/" + name
                let fd = try FileSystem.open(path, .readOnly)
                defer { FileSystem.close(fd) }
                try FileSystem.synchronizeFile(fd, path: path)
            }
            try FileSystem.synchronizeDirectory(directory)
        }
    }

    /// Nothing to release: every call opens and closes its own file.
    public func close() throws {}

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sizes.count
    }

    /// The files' sizes, and the blocks the folder and its files take.
    public func diskUsage() throws -> DiskUsage {
        lock.lock()
        let valueBytes = sizes.values.reduce(0, +)
        lock.unlock()
        let diskBytes = try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.allocatedBytes(under: directory)
        }
        return DiskUsage(valueBytes: valueBytes, diskBytes: Int(clamping: diskBytes))
    }

    static func fileName(forKey key: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        name.reserveCapacity(key.utf8.count * 2)
        for byte in key.utf8 {
            name.append(digits[Int(byte >> 4)])
            name.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: name, as: UTF8.self)
    }

    static func key(forFileName name: String) -> String? {
        let characters = Array(name.utf8)
        guard !characters.isEmpty, characters.count % 2 == 0 else { return nil }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
