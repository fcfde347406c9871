#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// What `path` names after following symbolic links (`stat(2)`): for a path a person gave,
    /// who may reach a file or folder through a link of their own. Nil when nothing is there.
    /// (``status(ofPath:missingFolderIsAbsence:)`` looks at a link itself.)
    ///
    /// - Parameter missingFolderIsAbsence: whether a path through something that is not a
    ///   folder (ENOTDIR) counts as nothing there (the default) or fails.
    /// - Throws: the failing `stat` with its errno, for example `permissionDenied` or
    ///   `tooManySymbolicLinks` for a loop of links.
    public static func status(followingLinksAt path: String, missingFolderIsAbsence: Bool = true)
        throws(SystemCallError) -> Status?
    {
        var info = stat()
        if stat(path, &info) == 0 { return Status(info) }
        if errno == ENOENT || (errno == ENOTDIR && missingFolderIsAbsence) { return nil }
        throw SystemCallError(operation: "stat", path: path, code: errno)
    }
}
