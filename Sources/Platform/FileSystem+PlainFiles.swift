#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Creates or empties the file at `path` and writes `bytes` to it: `open` with `O_CREAT |
    /// O_TRUNC`, `write`, `close`, and nothing more. A reader may see it part-written and a
    /// power cut may lose it; a cache's files are written with
    /// ``writeFileAtomically(_:to:_:mode:)``.
    public static func writeFile(
        _ bytes: UnsafeRawBufferPointer, toPath path: String, permissions: Permissions = .fileDefault
    ) throws(SystemCallError) {
        let fd = try open(path, .writeOnly, options: [.create, .truncate], permissions: permissions)
        defer { close(fd) }
        try writeSequentially(fd, bytes, path: path)
    }

    /// ``writeFile(_:toPath:permissions:)`` for an array.
    public static func writeFile(
        _ bytes: [UInt8], toPath path: String, permissions: Permissions = .fileDefault
    )
        throws(SystemCallError)
    {
        let fd = try open(path, .writeOnly, options: [.create, .truncate], permissions: permissions)
        defer { close(fd) }
        try writeSequentially(fd, bytes, path: path)
    }

    /// Closes `fd` and reports what `close(2)` reports: some file systems (NFS, FUSE, a full
    /// quota) report a failed write only there, so a program that must not keep a part-written
    /// file checks it. The descriptor is released either way; an interruption (EINTR) counts as
    /// closed, as Linux and Darwin release the descriptor before reporting one.
    public static func close(_ fd: Int32, path: String) throws(SystemCallError) {
        SystemCallHooks.willClose(fd)
        #if canImport(Glibc)
            let result = Glibc.close(fd)
        #elseif canImport(Musl)
            let result = Musl.close(fd)
        #else
            let result = Darwin.close(fd)
        #endif
        if result != 0 && errno != EINTR {
            throw SystemCallError(operation: "close", path: path, code: errno)
        }
    }
}
