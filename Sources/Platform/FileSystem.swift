// Every file-system call the package makes, in one place (house style: platform calls live in
// one small module). Each function retries EINTR, completes short transfers in bounded
// chunks, and reports a failure as a `SystemCallError` carrying the errno of the failing call.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// POSIX file operations with errors that name the operation, the path and the errno.
public enum FileSystem {
    /// The most bytes one `read`/`write` call moves. Linux moves at most 2^31 − 4096 per call
    /// and Darwin refuses counts above `INT_MAX`, so larger transfers loop in pieces.
    public static let transferChunk = 1 << 30

    /// What a path or descriptor refers to.
    public struct Status: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case regular, directory, symbolicLink, other
        }

        public var kind: Kind
        public var size: UInt64
        public var device: UInt64
        public var inode: UInt64
        /// Last data modification, in nanoseconds since the epoch.
        public var modificationTime: Int64

        init(_ info: stat) {
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .regular
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
            size = UInt64(max(0, info.st_size))
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            #if canImport(Darwin)
                modificationTime =
                    Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            #else
                modificationTime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            #endif
        }

        /// Identifies the file itself, whatever its name.
        public var identity: Identity { Identity(device: device, inode: inode) }
    }

    /// Identity of a file, to notice that a path now names a different file.
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    // MARK: Descriptors

    /// Opens `path` for `mode` (close-on-exec always) and returns the descriptor.
    /// - Throws: the failure with its errno, for example `noSuchFile`, `fileExists` (an
    ///   `exclusiveCreate` of an existing name) or `tooManySymbolicLinks` (`noFollow` on a link).
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: Permissions = .fileDefault
    ) throws(SystemCallError) -> Int32 {
        try open(path, flags: mode.flags | options.rawValue, mode: mode_t(permissions.rawValue))
    }

    /// Opens `path` with raw `flags` (close-on-exec always). `O_CREAT` counts as a creation for
    /// fault injection.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(SystemCallError) -> Int32 {
        if flags & O_CREAT != 0 { try injectFault(.create, "create", path) }
        let existed = SystemCallHooks.willOpen(path, flags: flags)
        while true {
            let fd = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 {
                SystemCallHooks.didOpen(fd, path: path, flags: flags, existedBefore: existed)
                return fd
            }
            if errno != EINTR { throw SystemCallError(operation: "open", path: path, code: errno) }
        }
    }

    /// A second descriptor of the file `fd` is open on (close-on-exec), sharing its open file
    /// description: its offset, and the writeback errors that description has yet to report.
    public static func duplicate(_ fd: Int32, path: String) throws(SystemCallError) -> Int32 {
        while true {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            if copy >= 0 {
                SystemCallHooks.didDuplicate(fd, as: copy)
                return copy
            }
            if errno != EINTR { throw SystemCallError(operation: "dup", path: path, code: errno) }
        }
    }

    public static func close(_ fd: Int32) {
        SystemCallHooks.willClose(fd)
        #if canImport(Darwin)
            _ = Darwin.close(fd)
        #else
            _ = Glibc.close(fd)
        #endif
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    public static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, path: String
    ) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            let result = pread(
                fd, buffer.baseAddress! + done, min(buffer.count - done, transferChunk),
                off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                throw SystemCallError(operation: "pread", path: path, code: errno)
            }
        }
        return done
    }

    /// Reads `head` and then `value` from `offset` with one vector read where the platform
    /// allows; `true` when both were filled completely (`false`: the file ends first).
    public static func read(
        _ fd: Int32, head: UnsafeMutableRawBufferPointer, value: UnsafeMutableRawBufferPointer,
        at offset: UInt64, path: String
    ) throws(SystemCallError) -> Bool {
        let total = head.count + value.count
        if total <= transferChunk {
            let result = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
                vectors[0] = iovec(iov_base: head.baseAddress, iov_len: head.count)
                vectors[1] = iovec(iov_base: value.baseAddress, iov_len: value.count)
                return preadv(fd, vectors.baseAddress, value.count > 0 ? 2 : 1, off_t(offset))
            }
            if result == total { return true }
            if result < 0 && errno != EINTR {
                throw SystemCallError(operation: "preadv", path: path, code: errno)
            }
        }
        // A short, interrupted or very large vector read: finish with plain reads.
        guard try read(fd, into: head, at: offset, path: path) == head.count else { return false }
        return try read(fd, into: value, at: offset + UInt64(head.count), path: path) == value.count
    }

    /// Writes all of `bytes` at `offset`.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64, path: String)
        throws(SystemCallError)
    {
        try injectFault(.write, "pwrite", path)
        var done = 0
        while done < bytes.count {
            let result = pwrite(
                fd, bytes.baseAddress! + done, min(bytes.count - done, transferChunk),
                off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result < 0 && errno != EINTR {
                throw SystemCallError(operation: "pwrite", path: path, code: errno)
            } else if result == 0 {
                throw SystemCallError(operation: "pwrite", path: path, code: EIO)
            }
        }
        SystemCallHooks.didWrite(fd, bytes, at: offset)
    }

    /// Writes all of `bytes` at the descriptor's current position: for pipes, terminals and
    /// files opened for appending.
    public static func writeSequentially(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String)
        throws(SystemCallError)
    {
        try injectFault(.write, "write", path)
        var done = 0
        while done < bytes.count {
            let result = systemWrite(fd, bytes.baseAddress! + done, min(bytes.count - done, transferChunk))
            if result > 0 {
                done += result
            } else if result < 0 && errno != EINTR {
                throw SystemCallError(operation: "write", path: path, code: errno)
            } else if result == 0 {
                throw SystemCallError(operation: "write", path: path, code: EIO)
            }
        }
    }

    /// Reads at the descriptor's current position until `buffer` is full or the input ends;
    /// returns the bytes read. For pipes and standard input.
    public static func readSequentially(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String)
        throws(SystemCallError) -> Int
    {
        var done = 0
        while done < buffer.count {
            let result = systemRead(fd, buffer.baseAddress! + done, min(buffer.count - done, transferChunk))
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                throw SystemCallError(operation: "read", path: path, code: errno)
            }
        }
        return done
    }

    /// Makes the file's data (and its size) durable: `fdatasync` where it exists; on Darwin
    /// what `mode` asks for (``FlushMode``).
    public static func synchronizeData(_ fd: Int32, path: String, mode: FlushMode = .durable)
        throws(SystemCallError)
    {
        try injectSynchronizationFault(fd, "fdatasync", path)
        while true {
            #if canImport(Darwin)
                let result = darwinFlush(fd, mode)
            #else
                let result = fdatasync(fd)
            #endif
            if result == 0 {
                SystemCallHooks.didSynchronize(fd)
                SynchronizationCounter.increment()
                return
            }
            if errno != EINTR {
                let code = errno
                SystemCallHooks.didFailToSynchronize(fd)
                throw SystemCallError(operation: "fdatasync", path: path, code: code)
            }
        }
    }

    /// Makes the file's data and metadata durable (`fsync`; on Darwin what `mode` asks for),
    /// or, for a folder, the names created, renamed and removed in it.
    public static func synchronizeFile(_ fd: Int32, path: String, mode: FlushMode = .durable)
        throws(SystemCallError)
    {
        try injectSynchronizationFault(fd, "fsync", path)
        while true {
            #if canImport(Darwin)
                let result = darwinFlush(fd, mode)
            #else
                let result = fsync(fd)
            #endif
            if result == 0 {
                SystemCallHooks.didSynchronize(fd)
                SynchronizationCounter.increment()
                return
            }
            // Some file systems cannot sync a directory; that is not a failure of the data.
            if errno == EINVAL { return }
            if errno != EINTR {
                let code = errno
                SystemCallHooks.didFailToSynchronize(fd)
                throw SystemCallError(operation: "fsync", path: path, code: code)
            }
        }
    }

    /// Makes a rename, creation or removal in `directory` durable.
    public static func synchronizeDirectory(_ directory: String, mode: FlushMode = .durable)
        throws(SystemCallError)
    {
        let fd = try open(directory, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try synchronizeFile(fd, path: directory, mode: mode)
    }

    #if canImport(Darwin)
        /// Darwin's `fsync` hands the data to the drive, which may keep it in its cache and
        /// write it in another order; `F_FULLFSYNC` waits until it is on stable storage and
        /// `F_BARRIERFSYNC` keeps the order without waiting. A file system that supports
        /// neither (some network and external volumes) gets a plain `fsync`.
        private static func darwinFlush(_ fd: Int32, _ mode: FlushMode) -> Int32 {
            let command = mode == .durable ? F_FULLFSYNC : F_BARRIERFSYNC
            if fcntl(fd, command) == 0 { return 0 }
            if errno == EINTR { return -1 }
            return fsync(fd)
        }
    #endif

    /// Takes an advisory whole-file lock without waiting; `false` if another open file holds it.
    /// (Prefer ``ExclusiveLock``, which also knows the locks this process holds.)
    public static func lock(_ fd: Int32, exclusive: Bool, path: String) throws(SystemCallError) -> Bool {
        while true {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return true }
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw SystemCallError(operation: "flock", path: path, code: errno) }
        }
    }

    public static func truncate(_ fd: Int32, to length: UInt64, path: String) throws(SystemCallError) {
        try injectFault(.truncate, "ftruncate", path)
        while true {
            if ftruncate(fd, off_t(length)) == 0 {
                SystemCallHooks.didTruncate(fd, to: length)
                return
            }
            if errno != EINTR { throw SystemCallError(operation: "ftruncate", path: path, code: errno) }
        }
    }

    /// Renames `source` to `destination`, atomically replacing whatever `destination` names
    /// (a symbolic link is replaced itself, never followed).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try injectFault(.rename, "rename", destination)
        #if canImport(Darwin)
            let result = Darwin.rename(source, destination)
        #else
            let result = Glibc.rename(source, destination)
        #endif
        if result != 0 { throw SystemCallError(operation: "rename", path: destination, code: errno) }
        SystemCallHooks.didRename(source, to: destination)
    }

    /// Removes a file (a symbolic link itself, never its target); a missing file is not an error.
    public static func remove(_ path: String) throws(SystemCallError) {
        try injectFault(.remove, "unlink", path)
        if unlink(path) == 0 {
            SystemCallHooks.didRemove(path)
        } else if errno != ENOENT {
            throw SystemCallError(operation: "unlink", path: path, code: errno)
        }
    }

    /// Gives `source` the additional name `destination`; returns false, changing nothing, when
    /// `destination` already exists.
    public static func link(_ source: String, to destination: String) throws(SystemCallError) -> Bool {
        try injectFault(.create, "link", destination)
        #if canImport(Darwin)
            let result = Darwin.link(source, destination)
        #else
            let result = Glibc.link(source, destination)
        #endif
        if result == 0 {
            SystemCallHooks.didLink(source, to: destination)
            return true
        }
        if errno == EEXIST { return false }
        throw SystemCallError(operation: "link", path: destination, code: errno)
    }

    public static func status(_ fd: Int32, path: String) throws(SystemCallError) -> Status {
        var info = stat()
        if fstat(fd, &info) != 0 { throw SystemCallError(operation: "fstat", path: path, code: errno) }
        return Status(info)
    }

    public static func size(_ fd: Int32, path: String) throws(SystemCallError) -> UInt64 {
        try status(fd, path: path).size
    }

    /// What `path` names, without following a final symbolic link; nil when nothing is there.
    /// `missingFolderIsAbsence`: whether a path through something that is not a folder
    /// (ENOTDIR) counts as nothing there (the default) or fails.
    public static func status(ofPath path: String, missingFolderIsAbsence: Bool = true)
        throws(SystemCallError)
        -> Status?
    {
        var info = stat()
        if lstat(path, &info) == 0 { return Status(info) }
        if errno == ENOENT || (errno == ENOTDIR && missingFolderIsAbsence) { return nil }
        throw SystemCallError(operation: "lstat", path: path, code: errno)
    }

    /// The identity of the file `path` names now (following links), or nil if there is none.
    public static func identity(ofPath path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(info).identity
    }

    /// Whether anything (a link included) exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates the directory and, when missing, its parents (mode 0755), each durably: after
    /// every `mkdir` the folder that holds the new one is fsynced, since a new name survives a
    /// power cut only once its folder is (`Spec/backends.md` §8). An existing directory is fine;
    /// an existing file of another kind fails with ENOTDIR (or EEXIST from mkdir).
    public static func createDirectory(_ path: String) throws(SystemCallError) {
        if let existing = try status(ofPath: path) {
            if existing.kind == .directory { return }
            // A link to a directory is the user's choice for the folder itself.
            if existing.kind == .symbolicLink, identity(ofPath: path) != nil,
                isDirectory(followingLinksAt: path)
            {
                return
            }
            throw SystemCallError(operation: "create directory", path: path, code: ENOTDIR)
        }
        let parent = directory(of: path)
        if parent != path && parent != "/" && parent != "." { try createDirectory(parent) }
        try injectFault(.create, "mkdir", path)
        if mkdir(path, 0o755) == 0 {
            SystemCallHooks.didMakeDirectory(path)
            do {
                try synchronizeDirectory(parent)
            } catch {
                // The new name may not be durable, and a call made again would find the folder
                // and synchronize nothing (`Spec/backends.md` §8.10): the empty folder goes, so
                // that the next call makes it, and synchronizes it, anew.
                _ = rmdir(path)
                throw error
            }
        } else if errno != EEXIST {
            throw SystemCallError(operation: "create directory", path: path, code: errno)
        }
    }

    private static func isDirectory(followingLinksAt path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The directory that holds `path` (for syncing renames).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The last component of `path` (all of it when it has no slash).
    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    // MARK: Whole files

    /// The whole regular file at `path`, or nil when nothing is there. A symbolic link is not
    /// followed: it fails with ELOOP (or, where `O_NOFOLLOW` is missing, is read as usual).
    public static func readFile(atPath path: String) throws(SystemCallError) -> [UInt8]? {
        let fd: Int32
        do {
            fd = try open(path, flags: O_RDONLY | O_NOFOLLOW)
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw error
        }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// Every byte of an open regular file, from offset 0.
    public static func readAll(_ fd: Int32, path: String) throws(SystemCallError) -> [UInt8] {
        let status = try status(fd, path: path)
        guard status.kind == .regular else {
            throw SystemCallError(
                operation: "read", path: path, code: status.kind == .directory ? EISDIR : EINVAL)
        }
        guard status.size <= UInt64(Int.max) else {
            throw SystemCallError(operation: "read", path: path, code: EFBIG)
        }
        let size = Int(status.size)
        var failure: SystemCallError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            if let base = buffer.baseAddress {
                SystemMemory.adviseHugePages(UnsafeMutableRawPointer(base), count: size)
            }
            do throws(SystemCallError) {
                count = try read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: 0, path: path)
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Names of temporary files start with this prefix, which no final file name uses.
    public static let temporaryPrefix = ".tmp-"

    /// How much of an atomic replacement is durable when it returns (`Spec/backends.md` §1.4).
    public enum Replacement: Sendable {
        /// Nothing is synchronized: a power cut may leave the old file, the new one, or the new
        /// name with lost data; the caller makes it durable later.
        case unsynchronized
        /// The new content is synchronized before the rename, so the name never reaches the
        /// disk without it: a power cut leaves the old file or the complete new one. The
        /// rename itself is durable once the caller synchronizes the folder.
        case contentFirst
        /// As `contentFirst`, and the folder is synchronized after the rename: durable.
        case durable
    }

    /// Writes `bytes` to a new temporary file beside `path`, then renames it over `path`, so a
    /// reader sees the old file or the new one, never a mix (`Spec/backends.md` §1.4). The
    /// temporary file is removed on every failure. When the temporary file's fsync fails, its
    /// content may never reach the disk, whatever a later fsync says (§8.10): the bytes are
    /// written once more, to another temporary file, before the error is given up on.
    public static func writeFileAtomically(
        _ bytes: UnsafeRawBufferPointer, to path: String, _ replacement: Replacement,
        mode: FlushMode = .durable
    ) throws(SystemCallError) {
        let folder = directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var synchronizationFailed = false
        let temporary: String
        do {
            temporary = try writeTemporaryFile(
                bytes, in: folder, named: name, replacement, mode: mode,
                synchronizationFailed: &synchronizationFailed)
        } catch {
            guard synchronizationFailed else { throw error }
            do {
                temporary = try writeTemporaryFile(
                    bytes, in: folder, named: name, replacement, mode: mode,
                    synchronizationFailed: &synchronizationFailed)
            } catch _ {
                throw error
            }
        }
        do {
            try rename(temporary, to: path)
        } catch {
            try? remove(temporary)
            throw error
        }
        if replacement == .durable { try synchronizeDirectory(folder, mode: mode) }
    }

    /// ``writeFileAtomically(_:to:_:mode:)``'s temporary file, written (and synchronized unless
    /// `.unsynchronized`); removed on a failure, which sets `synchronizationFailed` when the
    /// fsync failed.
    private static func writeTemporaryFile(
        _ bytes: UnsafeRawBufferPointer, in folder: String, named name: String, _ replacement: Replacement,
        mode: FlushMode, synchronizationFailed: inout Bool
    ) throws(SystemCallError) -> String {
        let temporary =
            folder + "/" + temporaryPrefix + name + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        var written = false
        defer {
            close(fd)
            if !written { try? remove(temporary) }
        }
        try write(fd, bytes, at: 0, path: temporary)
        if replacement != .unsynchronized {
            do {
                try synchronizeFile(fd, path: temporary, mode: mode)
            } catch {
                synchronizationFailed = true
                throw error
            }
        }
        written = true
        return temporary
    }

    // MARK: Internals

    static func injectFault(_ operation: SystemCallKind, _ name: String, _ path: String)
        throws(SystemCallError)
    {
        if let code = SystemCallHooks.injectedFailure(operation, path: path) {
            throw SystemCallError(operation: name, path: path, code: code)
        }
    }

    /// An injected failure of an fsync or fdatasync, reported to the recorder as a real one is:
    /// the file's unsynchronized writes may never reach the disk (`Spec/backends.md` §8.10).
    private static func injectSynchronizationFault(_ fd: Int32, _ name: String, _ path: String)
        throws(SystemCallError)
    {
        if let code = SystemCallHooks.injectedFailure(.synchronize, path: path) {
            SystemCallHooks.didFailToSynchronize(fd)
            SystemCallHooks.didFailWriteback(fd)
            throw SystemCallError(operation: name, path: path, code: code)
        }
        if let code = SystemCallHooks.unreportedWritebackError(fd) {
            SystemCallHooks.didFailToSynchronize(fd)
            throw SystemCallError(operation: name, path: path, code: code)
        }
    }

    private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, flags, mode)
        #else
            Glibc.open(path, flags, mode)
        #endif
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(fd, bytes, count)
        #else
            Glibc.write(fd, bytes, count)
        #endif
    }

    private static func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(fd, bytes, count)
        #else
            Glibc.read(fd, bytes, count)
        #endif
    }
}
