#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Creates the folder `path` and its missing parents, like `mkdir -p`, each with
    /// `permissions` narrowed by the process's umask. A name that exists already is left as it
    /// is (when it is not a folder, what uses the path fails there).
    ///
    /// Nothing is synchronized: this is for scratch and output folders. A cache's folder is
    /// made with ``createDirectory(_:)``, which makes each new name durable.
    ///
    /// - Throws: the first `mkdir` that failed other than with `fileExists`, naming the folder
    ///   it tried to make.
    public static func makeDirectories(_ path: String, permissions: Permissions = .folderDefault)
        throws(SystemCallError)
    {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try injectFault(.create, "mkdir", prefix)
            if mkdir(prefix, mode_t(permissions.rawValue)) == 0 {
                SystemCallHooks.didMakeDirectory(prefix)
            } else if errno != EEXIST {
                throw SystemCallError(operation: "create directory", path: prefix, code: errno)
            }
        }
    }

    /// Removes `path` and everything under it, like `rm -rf`: symbolic links are removed
    /// themselves, never followed. Nothing at `path` is fine.
    ///
    /// Removed folders are not reported to ``SystemCallRecorder`` (a cache never removes one);
    /// the files in them are.
    ///
    /// - Throws: the first listing or removal that failed, with its errno.
    public static func removeTree(_ path: String) throws(SystemCallError) {
        guard let status = try status(ofPath: path) else { return }
        guard status.kind == .directory else {
            try remove(path)
            return
        }
        let folder = try Directory(path: path)
        for entry in try folder.entries() {
            if entry.kind == .directory {
                try removeTree(path + "/" + entry.name)
            } else {
                try folder.removeFile(entry.name)
            }
        }
        try injectFault(.remove, "rmdir", path)
        if rmdir(path) != 0 && errno != ENOENT {
            throw SystemCallError(operation: "rmdir", path: path, code: errno)
        }
    }
}
