import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file-system call the cache makes, in one place (house style: platform calls in one
/// small file). Errors become ``CacheError/ioFailure(operation:path:errno:)`` with the errno.
enum FileSystem {
    /// The whole file, or nil when it does not exist.
    static func readFile(at path: String) throws(CacheError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .ioFailure(operation: "open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .ioFailure(operation: "stat", path: path, errno: errno)
        }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { buffer in
            while filled < size {
                let count = read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }
                filled += count
            }
            return nil
        }
        if let failure { throw .ioFailure(operation: "read", path: path, errno: failure) }
        if filled < size { bytes.removeLast(size - filled) }
        return bytes
    }

    /// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so a reader
    /// sees either the old file or the new one, never a mix (`Spec/backends.md` §1.4).
    ///
    /// - Parameter durable: fsync the file before the rename and the directory after it.
    static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool) throws(CacheError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary =
            directory + "/" + temporaryPrefix + name + "-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .ioFailure(operation: "create", path: temporary, errno: errno) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        if let failure {
            close(descriptor)
            unlink(temporary)
            throw .ioFailure(operation: "write", path: temporary, errno: failure)
        }
        if durable && fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw .ioFailure(operation: "fsync", path: temporary, errno: code)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .ioFailure(operation: "rename", path: path, errno: code)
        }
        if durable { try synchronizeDirectory(at: directory) }
    }

    /// Names of temporary files start with this prefix, which no final file name uses.
    static let temporaryPrefix = ".tmp-"

    static func synchronizeDirectory(at path: String) throws(CacheError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .ioFailure(operation: "open directory", path: path, errno: errno) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw .ioFailure(operation: "fsync directory", path: path, errno: errno)
        }
    }

    /// Flushes a closed file's data to stable storage.
    static func synchronizeFile(at path: String, ignoringMissing: Bool) throws(CacheError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if ignoringMissing && errno == ENOENT { return }
            throw .ioFailure(operation: "open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw .ioFailure(operation: "fsync", path: path, errno: errno) }
    }

    /// Removes a file; a file that is already gone is not an error.
    static func removeFile(at path: String) throws(CacheError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw .ioFailure(operation: "remove", path: path, errno: errno)
        }
    }

    static func fileExists(at path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates the directory and its parents when missing.
    static func createDirectory(at path: String) throws(CacheError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .ioFailure(operation: "create directory", path: path, errno: errno == 0 ? EIO : errno)
        }
    }

    /// The names in a directory (not `.` or `..`); empty when the directory does not exist.
    static func contentsOfDirectory(at path: String) throws(CacheError) -> [String] {
        guard let stream = opendir(path) else {
            if errno == ENOENT { return [] }
            throw .ioFailure(operation: "list", path: path, errno: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Marks the directory as not to be backed up, where the platform has such a flag.
    static func excludeFromBackup(_ url: URL) throws(CacheError) {
        #if canImport(Darwin)
            var url = url
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            do {
                try url.setResourceValues(values)
            } catch {
                throw .ioFailure(operation: "exclude from backup", path: url.path, errno: EIO)
            }
        #endif
    }
}
