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
    public var code: Int32

    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's text for ``code`` (`strerror`), such as "Permission denied".
    public var reason: String { Self.reason(for: code) }

    /// `<operation> <path>: <reason> (errno <code>)`.
    public var description: String { "\(operation) \(path): \(reason) (errno \(code))" }

    /// The system's text for an errno value, such as "No space left on device".
    public static func reason(for code: Int32) -> String {
        guard let text = strerror(code) else { return "unknown error" }
        return String(cString: text)
    }
}
