#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder opened once, through which its entries are listed, inspected, opened and removed
/// by name, so no operation inside it ever follows a symbolic link out of it.
///
/// The folder itself is opened with `O_NOFOLLOW`: a folder that is a symbolic link fails to
/// open with ELOOP (`Spec/backends.md` §1.6). Names are single path components.
public final class Directory: @unchecked Sendable {
    /// The path the folder was opened at, for messages.
    public let path: String
    private let descriptor: Int32

    /// Opens the folder at `path`, without following a symbolic link unless `followingLink`
    /// (for a folder the user named, which may be reached through a link they chose).
    ///
    /// - Throws: ELOOP or ENOTDIR when `path` is a link or not a folder, ENOENT when missing.
    public init(path: String, followingLink: Bool = false) throws(SystemCallError) {
        self.path = path
        descriptor = try FileSystem.open(
            path, flags: O_RDONLY | O_DIRECTORY | (followingLink ? 0 : O_NOFOLLOW))
    }

    deinit { FileSystem.close(descriptor) }

    /// One entry of the folder.
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var kind: FileSystem.Status.Kind
    }

    /// The folder's entries except `.` and `..`, with their kinds (links are not followed).
    public func entries() throws(SystemCallError) -> [Entry] {
        // fdopendir takes ownership of its descriptor, so it gets a duplicate.
        let duplicate = dup(descriptor)
        guard duplicate >= 0 else { throw SystemCallError(operation: "list", path: path, code: errno) }
        guard let stream = fdopendir(duplicate) else {
            let code = errno
            FileSystem.close(duplicate)
            throw SystemCallError(operation: "list", path: path, code: code)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var result: [Entry] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError(operation: "list", path: path, code: errno) }
                break
            }
            let name = Directory.name(of: entry)
            if name == "." || name == ".." { continue }
            // d_type saves an lstat per entry (open lists every entry file); some file systems
            // leave it unknown, and then lstat tells.
            let kind: FileSystem.Status.Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = try status(of: name)?.kind
            default: kind = .other
            }
            if let kind { result.append(Entry(name: name, kind: kind)) }
        }
        return result
    }

    /// The name of an entry `readdir` returned, read in place up to its terminating zero.
    ///
    /// Only the entry's record length (`d_reclen`) is the stream's to read, often less than
    /// `struct dirent`: copying the whole `d_name` array read past the end of the stream's
    /// buffer at its last entry (the address sanitizer reported it).
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let start = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \.d_name)!)
            .assumingMemoryBound(to: CChar.self)
        return String(decoding: UnsafeRawBufferPointer(start: start, count: strlen(start)), as: UTF8.self)
    }

    /// What `name` is, without following a link; nil when it does not exist.
    public func status(of name: String) throws(SystemCallError) -> FileSystem.Status? {
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return FileSystem.Status(info) }
        if errno == ENOENT { return nil }
        throw SystemCallError(operation: "lstat", path: path + "/" + name, code: errno)
    }

    /// The folder's own status (its modification time changes with every creation, rename
    /// and removal in it).
    public func status() throws(SystemCallError) -> FileSystem.Status {
        try FileSystem.status(descriptor, path: path)
    }

    /// Removes the file `name` (a link itself, never its target); a missing file is fine.
    public func removeFile(_ name: String) throws(SystemCallError) {
        try FileSystem.injectFault(.remove, "unlink", path + "/" + name)
        if unlinkat(descriptor, name, 0) == 0 {
            SystemCallHooks.didRemove(path + "/" + name)
        } else if errno != ENOENT {
            throw SystemCallError(operation: "unlink", path: path + "/" + name, code: errno)
        }
    }

    /// Opens the file `name` for `mode` without following a link (`tooManySymbolicLinks` for
    /// a link) and returns the descriptor.
    public func open(
        _ name: String, _ mode: FileSystem.AccessMode, options: FileSystem.OpenOptions = [],
        permissions: FileSystem.Permissions = .fileDefault
    ) throws(SystemCallError) -> Int32 {
        try open(name, flags: mode.flags | options.rawValue, mode: mode_t(permissions.rawValue))
    }

    func open(_ name: String, flags: Int32, mode: mode_t) throws(SystemCallError) -> Int32 {
        if flags & O_CREAT != 0 { try FileSystem.injectFault(.create, "create", path + "/" + name) }
        let existed = SystemCallHooks.willOpen(path + "/" + name, flags: flags)
        while true {
            let fd = openat(descriptor, name, flags | O_CLOEXEC | O_NOFOLLOW, mode)
            if fd >= 0 {
                SystemCallHooks.didOpen(fd, path: path + "/" + name, flags: flags, existedBefore: existed)
                return fd
            }
            if errno != EINTR {
                throw SystemCallError(operation: "open", path: path + "/" + name, code: errno)
            }
        }
    }

    /// The whole regular file `name`, or nil when it does not exist. A link fails with ELOOP.
    public func readFile(_ name: String) throws(SystemCallError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try open(name, .readOnly)
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw error
        }
        defer { FileSystem.close(fd) }
        return try FileSystem.readAll(fd, path: path + "/" + name)
    }

    /// Makes creations, renames and removals in the folder durable.
    public func synchronize(mode: FlushMode = .durable) throws(SystemCallError) {
        try FileSystem.synchronizeFile(descriptor, path: path, mode: mode)
    }
}
