#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// What a process may want to do with a file or folder, for ``checkAccess(_:for:)``.
    public struct Access: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `R_OK`: read the file, list the folder.
        public static let read = Access(rawValue: R_OK)
        /// `W_OK`: write the file; create, rename and remove names in the folder.
        public static let write = Access(rawValue: W_OK)
        /// `X_OK`: run the file; pass through the folder to the names in it.
        public static let search = Access(rawValue: X_OK)
    }

    /// Checks that this process may do `access` to what `path` names (following links), with
    /// its real user and group (`access(2)`), before a long task relies on it.
    ///
    /// - Throws: `permissionDenied`, `noSuchFile`, `readOnlyFileSystem`, … with the errno.
    public static func checkAccess(_ path: String, for wanted: Access) throws(SystemCallError) {
        if access(path, wanted.rawValue) != 0 {
            throw SystemCallError(operation: "access", path: path, code: errno)
        }
    }
}
