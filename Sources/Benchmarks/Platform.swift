// Every operating-system call the benchmarks make lives in this file: the raw-file baseline's
// POSIX I/O, disk-usage measurement, terminal detection and the machine description.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum Platform {
    /// The system's sentence for an `errno` value (`strerror(3)`).
    static func message(forErrorCode code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Whether file descriptor `descriptor` is a terminal (`isatty(3)`).
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Creates or truncates the file at `path` and writes `bytes` to it with plain `write(2)`.
    static func writeFile(atPath path: String, _ bytes: [UInt8]) throws(BenchmarkError) {
        let descriptor = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o644)
        guard descriptor >= 0 else { throw .fileSystem(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(operation: "write", path: path, code: errno)
            }
            written += result
        }
    }

    /// The bytes this process has caused to be written to storage so far (`write_bytes` of
    /// `/proc/self/io`, Linux), or nil where the system does not count them.
    static func bytesWrittenToStorage() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Reads the whole file at `path` with plain `read(2)`; `nil` when it does not exist.
    static func readFile(atPath path: String) throws(BenchmarkError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .fileSystem(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .fileSystem(operation: "fstat", path: path, code: errno)
        }
        let size = Int(status.st_size)
        var failure: BenchmarkError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var filled = 0
            while filled < size {
                let result = read(descriptor, buffer.baseAddress! + filled, size - filled)
                if result < 0 && errno == EINTR { continue }
                if result < 0 {
                    failure = .fileSystem(operation: "read", path: path, code: errno)
                    break
                }
                if result == 0 { break }
                filled += result
            }
            count = filled
        }
        if let failure { throw failure }
        return bytes
    }

    /// Flushes the file or directory at `path` to the disk (`fsync(2)`).
    static func synchronizeFile(atPath path: String) throws(BenchmarkError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .fileSystem(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .fileSystem(operation: "fsync", path: path, code: errno) }
    }

    /// Removes the file at `path`; a missing file is not an error.
    static func removeFile(atPath path: String) throws(BenchmarkError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .fileSystem(operation: "unlink", path: path, code: errno)
        }
    }

    /// The names and sizes of the regular files directly inside `path` (`readdir(3)` + `stat(2)`).
    static func listFiles(atPath path: String) throws(BenchmarkError) -> [(name: String, size: Int)] {
        var files: [(name: String, size: Int)] = []
        for name in try directoryEntries(atPath: path) {
            var status = stat()
            guard stat(path + "/" + name, &status) == 0 else {
                throw .fileSystem(operation: "stat", path: path + "/" + name, code: errno)
            }
            if (status.st_mode & S_IFMT) == S_IFREG { files.append((name, Int(status.st_size))) }
        }
        return files
    }

    /// The names in the directory at `path`, without `.` and `..` (`readdir(3)`).
    private static func directoryEntries(atPath path: String) throws(BenchmarkError) -> [String] {
        guard let directory = opendir(path) else {
            throw .fileSystem(operation: "opendir", path: path, code: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The bytes the file system has allocated for everything under `path` (`st_blocks` × 512),
    /// which is what a purge gives back to the disk.
    static func allocatedBytes(underPath path: String) throws(BenchmarkError) -> Int {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return 0 }
            throw .fileSystem(operation: "lstat", path: path, code: errno)
        }
        var total = Int(status.st_blocks) * 512
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return total }
        for name in try directoryEntries(atPath: path) {
            total += try allocatedBytes(underPath: path + "/" + name)
        }
        return total
    }

    /// The processor's marketing name, when the system tells it.
    static func processorName() -> String? {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        #elseif canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else {
                return nil
            }
            var buffer = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return nil }
            return String(
                decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }

    /// The kernel's name and release, for example `Linux 6.8.0`.
    static func kernel() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown kernel" }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return "\(text(names.sysname)) \(text(names.release))"
    }
}

extension Platform {
    /// Creates the directory at `url` and any missing parents (`mkdir -p`).
    static func makeDirectory(_ url: URL) throws(BenchmarkError) {
        var path = ""
        for component in url.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw .fileSystem(operation: "mkdir", path: path, code: errno)
            }
        }
    }

    /// Removes `url` and everything under it (`rm -rf`); a missing path is not an error.
    static func removeTree(_ url: URL) throws(BenchmarkError) {
        try removeTree(atPath: url.path)
    }

    private static func removeTree(atPath path: String) throws(BenchmarkError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .fileSystem(operation: "lstat", path: path, code: errno)
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            try removeFile(atPath: path)
            return
        }
        for name in try directoryEntries(atPath: path) { try removeTree(atPath: path + "/" + name) }
        guard rmdir(path) == 0 || errno == ENOENT else {
            throw .fileSystem(operation: "rmdir", path: path, code: errno)
        }
    }
}
