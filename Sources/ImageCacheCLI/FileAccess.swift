#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file the commands read or write, through POSIX calls (`Spec/cache.md` §12.6).
///
/// - `-` is standard input for a file read and standard output for a file written.
/// - Data moves in chunks of at most ``chunkSize`` bytes per system call, so values of any
///   size work (one `write(2)` on Linux moves at most 2,147,479,552 bytes).
/// - Errors are one line naming the path and the system's words for the errno:
///   `cannot read /tmp: Is a directory`; all of them exit 4.
enum FileAccess {
    /// The most bytes one `read(2)` or `write(2)` is asked to move.
    static let chunkSize = 1 << 20

    /// The whole content of `path` (`-`: standard input).
    static func read(_ path: String) throws(CommandLineError) -> [UInt8] {
        if path == "-" { return try readAll(from: STDIN_FILENO, name: "standard input", sizeHint: 0) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("read", path, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("read", path, errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw failure("read", path, EISDIR) }
        let size = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0
        return try readAll(from: descriptor, name: path, sizeHint: size)
    }

    /// Reads to the end of the file; allocates `sizeHint` bytes up front (a regular file's
    /// size) and grows only if the file grew meanwhile.
    private static func readAll(from descriptor: Int32, name: String, sizeHint: Int) throws(CommandLineError)
        -> [UInt8]
    {
        // One byte more than the size, so the read that finds the end needs no growth.
        var bytes = [UInt8](repeating: 0, count: max(sizeHint + 1, chunkSize))
        var filled = 0
        while true {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: max(chunkSize, filled / 2)))
            }
            let wanted = min(chunkSize, bytes.count - filled)
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, wanted)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", name, errno)
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Writes every byte of `bytes` to `descriptor`, at most ``chunkSize`` per call.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, name: String)
        throws(CommandLineError)
    {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, min(chunkSize, bytes.count - written))
            try advance(&written, by: count, name: name)
        }
    }

    /// ``writeAll(_:to:name:)`` for an array.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(CommandLineError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, min(chunkSize, buffer.count - written))
            }
            try advance(&written, by: count, name: name)
        }
    }

    /// Counts one `write(2)` result; EINTR retries, anything else fails.
    private static func advance(_ written: inout Int, by count: Int, name: String) throws(CommandLineError) {
        if count > 0 {
            written += count
        } else if count == 0 {
            throw failure("write", name, EIO)
        } else if errno != EINTR {
            throw failure("write", name, errno)
        }
    }

    /// `cannot read PATH: <strerror>`.
    static func failure(_ verb: String, _ path: String, _ code: Int32) -> CommandLineError {
        CommandLineError("cannot \(verb) \(path): \(message(for: code))", status: .failure)
    }

    /// The system's words for `code` ("No such file or directory").
    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// `read(2)`, named apart from ``FileAccess/read(_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Standard output, written with the same bounded chunks.
enum StandardOutput {
    static func write(_ text: String) throws(CommandLineError) {
        try write(Array(text.utf8))
    }

    static func write(_ bytes: [UInt8]) throws(CommandLineError) {
        try FileAccess.writeAll(bytes, to: STDOUT_FILENO, name: "standard output")
    }
}

/// Standard error, for diagnostics and progress; a failure to write there is ignored.
enum StandardError {
    static func write(_ text: String) {
        try? FileAccess.writeAll(Array(text.utf8), to: STDERR_FILENO, name: "standard error")
    }
}
