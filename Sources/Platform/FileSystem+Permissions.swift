#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// The permission bits (`st_mode & 0o7777`) of what `path` names, following a symbolic
    /// link; nil when nothing is there.
    /// - Throws: the failing `stat` with its errno (for example `permissionDenied`).
    public static func permissions(ofPath path: String) throws(SystemCallError) -> Permissions? {
        var info = stat()
        if stat(path, &info) == 0 { return Permissions(rawValue: UInt32(info.st_mode & 0o7777)) }
        if errno == ENOENT { return nil }
        throw SystemCallError(operation: "stat", path: path, code: errno)
    }

    /// Gives the open file `fd` the permission bits `permissions` (`fchmod(2)`; the umask
    /// does not apply).
    public static func setPermissions(_ permissions: Permissions, of fd: Int32, path: String)
        throws(SystemCallError)
    {
        if fchmod(fd, mode_t(permissions.rawValue)) != 0 {
            throw SystemCallError(operation: "chmod", path: path, code: errno)
        }
    }
}
