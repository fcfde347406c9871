#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The three streams every process starts with, by their descriptors.
///
/// Reads go through ``FileSystem/readToEnd(_:path:sizeHint:bytesPerCall:)`` with
/// ``descriptor`` and, for messages, ``description`` as the path; writes through ``write(_:bytesPerCall:)``.
/// Unlike Foundation's `FileHandle`, whose failed write traps, a failed write throws, so a
/// program whose reader has gone (`| head`) can stop quietly.
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

    /// Writes all of `bytes` (`write(2)`, at most `bytesPerCall` bytes a call; default
    /// ``FileSystem/transferChunk``).
    /// - Throws: the failing `write` with its errno, for example EPIPE when nobody reads.
    public func write(_ bytes: [UInt8], bytesPerCall: Int = FileSystem.transferChunk) throws(SystemCallError)
    {
        try FileSystem.writeSequentially(descriptor, bytes, path: description, bytesPerCall: bytesPerCall)
    }

    /// "standard input", "standard output" or "standard error", for messages.
    public var description: String {
        switch self {
        case .input: "standard input"
        case .output: "standard output"
        case .error: "standard error"
        }
    }
}
