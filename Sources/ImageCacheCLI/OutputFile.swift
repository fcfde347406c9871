#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a command writes (`Spec/cache.md` §12.6), opened before the command's work so a bad
/// destination fails first, and complete or absent afterwards.
///
/// - `-` is standard output.
/// - A path that does not exist or names a regular file is written to a temporary file beside
///   it (`.<name>.imagecache-<pid>-<random>`), which ``commit()`` renames over the path: a
///   failure or a miss leaves the path as it was. A replaced file keeps its permissions.
/// - Any other existing path (a device such as `/dev/null`, a pipe, a link) is written in
///   place; a folder is refused: `cannot write /tmp: Is a directory`.
final class OutputFile {
    let path: String
    private let descriptor: Int32
    /// The temporary file to rename over ``path``, or nil when writing in place.
    private let temporaryPath: String?
    private var isFinished = false

    /// Opens the destination; nothing is visible at `path` until ``commit()``.
    init(_ path: String) throws(CommandLineError) {
        self.path = path
        if path == "-" {
            descriptor = STDOUT_FILENO
            temporaryPath = nil
            return
        }
        var status = stat()
        let exists = lstat(path, &status) == 0
        guard exists || errno == ENOENT else { throw FileAccess.failure("write", path, errno) }
        let kind = status.st_mode & S_IFMT
        if exists && kind == S_IFDIR { throw FileAccess.failure("write", path, EISDIR) }
        if exists && kind != S_IFREG {
            descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else { throw FileAccess.failure("write", path, errno) }
            temporaryPath = nil
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary =
            folder + "." + name + ".imagecache-\(getpid())-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileAccess.failure("write", path, errno) }
        temporaryPath = temporary
        if exists { _ = fchmod(descriptor, status.st_mode & 0o7777) }
    }

    deinit { discard() }

    /// Appends `bytes`, in chunks of at most ``FileAccess/chunkSize``.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CommandLineError) {
        try FileAccess.writeAll(bytes, to: descriptor, name: path == "-" ? "standard output" : path)
    }

    func write(_ bytes: [UInt8]) throws(CommandLineError) {
        try FileAccess.writeAll(bytes, to: descriptor, name: path == "-" ? "standard output" : path)
    }

    /// Makes the written bytes appear at ``path``.
    func commit() throws(CommandLineError) {
        guard !isFinished else { return }
        isFinished = true
        guard descriptor != STDOUT_FILENO else { return }
        let closed = close(descriptor)
        let code = errno
        if let temporaryPath {
            guard closed == 0 else {
                unlink(temporaryPath)
                throw FileAccess.failure("write", path, code)
            }
            guard rename(temporaryPath, path) == 0 else {
                let code = errno
                unlink(temporaryPath)
                throw FileAccess.failure("write", path, code)
            }
        } else if closed != 0 {
            throw FileAccess.failure("write", path, code)
        }
    }

    /// Leaves ``path`` as it was (a file written in place keeps what was written).
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        guard descriptor != STDOUT_FILENO else { return }
        close(descriptor)
        if let temporaryPath { unlink(temporaryPath) }
    }
}
