#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: what was attempted, on which path, and the `errno` of that very
/// call (never a later one), which ``description`` also names in words.
///
/// The modules above translate it into their own error types (`LogStoreError`, `CacheError`),
/// keeping the errno.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was attempted, in words a user understands: "open", "pwrite", "rename", …
    public var operation: String
    /// The file or folder the call was about.
    public var path: String
    /// The `errno` the call set.
    public var errno: Errno

    public init(operation: String, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    init(operation: String, path: String, code: Int32) {
        self.init(operation: operation, path: path, errno: Errno(rawValue: code))
    }

    /// The system's text for ``errno`` (`strerror`), such as "Permission denied".
    public var reason: String { errno.description }

    /// `<operation> <path>: <reason> (errno <number>)`.
    public var description: String { "\(operation) \(path): \(reason) (errno \(errno.rawValue))" }
}
