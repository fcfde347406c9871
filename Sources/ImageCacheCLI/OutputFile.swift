import Platform

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
            (descriptor, temporaryPath) = (StandardStream.output.descriptor, nil)
        } else {
            do {
                (descriptor, temporaryPath) = try Self.open(path)
            } catch {
                throw FileAccess.failure("write", path, error)
            }
        }
    }

    /// The descriptor to write and, unless `path` is written in place, the temporary file.
    private static func open(_ path: String) throws(SystemCallError) -> (Int32, String?) {
        let existing = try FileSystem.status(ofPath: path, missingFolderIsAbsence: false)
        if existing?.kind == .directory {
            throw SystemCallError(operation: "open", path: path, errno: .isDirectory)
        }
        if let existing, existing.kind != .regular {
            return (try FileSystem.open(path, .writeOnly, options: [.truncate]), nil)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary =
            folder + "." + name + ".imagecache-\(SystemProcess.identifier)-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = try FileSystem.open(
            temporary, .writeOnly, options: [.exclusiveCreate], permissions: .userFile)
        if existing != nil, let permissions = try? FileSystem.permissions(ofPath: path) {
            try? FileSystem.setPermissions(permissions, of: fd, path: temporary)
        }
        return (fd, temporary)
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
        guard path != "-" else { return }
        do {
            // A file system may report a failed write only when the file is closed.
            try FileSystem.close(descriptor, path: path)
            if let temporaryPath { try FileSystem.rename(temporaryPath, to: path) }
        } catch {
            if let temporaryPath { try? FileSystem.remove(temporaryPath) }
            throw FileAccess.failure("write", path, error)
        }
    }

    /// Leaves ``path`` as it was (a file written in place keeps what was written).
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        guard path != "-" else { return }
        FileSystem.close(descriptor)
        if let temporaryPath { try? FileSystem.remove(temporaryPath) }
    }
}
