#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// The bytes the file system has allocated on disk for `path` and, when it is a folder,
    /// everything under it: the sum of `st_blocks` × 512 over every file, folder and symbolic
    /// link, `path` included. This is what the disk gives up for it (`du`), which differs from
    /// the sum of the file sizes: blocks are whole, and sparse files and holes take none.
    ///
    /// `path` itself may be a symbolic link to a folder (the user's choice of location); links
    /// inside it are counted themselves and never followed. A file with several names inside
    /// counts once. Entries removed while the walk runs are skipped, so the figure is a
    /// snapshot of a folder that may be changing.
    ///
    /// - Returns: 0 when nothing exists at `path`.
    /// - Throws: `SystemCallError` when a folder cannot be listed or an entry cannot be
    ///   inspected (for example EACCES).
    /// - Complexity: one `fstatat` per entry, and one open per folder.
    public static func allocatedBytes(under path: String) throws(SystemCallError) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return 0 }
            throw SystemCallError(operation: "stat", path: path, code: errno)
        }
        var walk = AllocationWalk()
        var total = walk.count(info)
        if info.st_mode & S_IFMT == S_IFDIR {
            let fd = try open(path, flags: O_RDONLY | O_DIRECTORY)
            total += try walk.allocatedBytes(inside: fd, path: path)
        }
        return total
    }
}

/// The state of one ``FileSystem/allocatedBytes(under:)`` walk: the files with several names
/// already counted.
private struct AllocationWalk {
    private var counted: Set<FileSystem.Identity> = []

    /// The allocation of one entry, or 0 for a further name of a file already counted.
    mutating func count(_ info: stat) -> UInt64 {
        if info.st_mode & S_IFMT != S_IFDIR && info.st_nlink > 1 {
            let identity = FileSystem.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard counted.insert(identity).inserted else { return 0 }
        }
        return UInt64(max(0, info.st_blocks)) * 512
    }

    /// Everything inside the open folder `fd` (which this call closes), recursively.
    mutating func allocatedBytes(inside fd: Int32, path: String) throws(SystemCallError) -> UInt64 {
        guard let stream = fdopendir(fd) else {
            let code = errno
            FileSystem.close(fd)
            throw SystemCallError(operation: "list", path: path, code: code)
        }
        defer { closedir(stream) }
        var total: UInt64 = 0
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemCallError(operation: "list", path: path, code: errno) }
                return total
            }
            let name = Directory.name(of: entry)
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { continue }
                throw SystemCallError(operation: "lstat", path: path + "/" + name, code: errno)
            }
            total += count(info)
            guard info.st_mode & S_IFMT == S_IFDIR else { continue }
            let child = openat(dirfd(stream), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else {
                if errno == ENOENT || errno == ENOTDIR || errno == ELOOP { continue }
                throw SystemCallError(operation: "open", path: path + "/" + name, code: errno)
            }
            total += try allocatedBytes(inside: child, path: path + "/" + name)
        }
    }
}
