#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The three streams every process starts with, by their descriptors.
///
/// Reads and writes go through ``FileSystem/readToEnd(_:path:sizeHint:bytesPerCall:)`` and
/// ``FileSystem/writeSequentially(_:_:path:)`` with ``descriptor`` and, for messages,
/// ``description`` as the path.
public enum StandardStream: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case input, output, error

    /// `STDIN_FILENO`, `STDOUT_FILENO` or `STDERR_FILENO`.
    public var descriptor: Int32 {
        switch self {
        case .input: STDIN_FILENO
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Whether the stream is a terminal (`isatty(3)`), where a person is probably watching.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// "standard input", "standard output" or "standard error", for messages.
    public var description: String {
        switch self {
        case .input: "standard input"
        case .output: "standard output"
        case .error: "standard error"
        }
    }
}
