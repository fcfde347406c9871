import Platform

/// How the commands read and write the files they are given (`Spec/cache.md` §12.6), through
/// Platform's calls.
///
/// - `-` is standard input for a file read and standard output for a file written.
/// - Data moves in chunks of at most ``chunkSize`` bytes per system call, so values of any
///   size work (one `write(2)` on Linux moves at most 2,147,479,552 bytes).
/// - Errors are one line naming the path and the system's words for the errno:
///   `cannot read /tmp: Is a directory`; all of them exit 4.
enum FileAccess {
    /// The most bytes one `read(2)` or `write(2)` is asked to move.
    static let chunkSize = 1 << 20

    /// The whole content of `path` (`-`: standard input). A symbolic link is followed: the
    /// person named it.
    static func read(_ path: String) throws(CommandLineError) -> [UInt8] {
        let name = path == "-" ? StandardStream.input.description : path
        do {
            if path == "-" {
                return try FileSystem.readToEnd(
                    StandardStream.input.descriptor, path: name, bytesPerCall: chunkSize)
            }
            return try FileSystem.readToEnd(atPath: path, bytesPerCall: chunkSize)
        } catch {
            throw failure("read", name, error)
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, at most ``chunkSize`` per call.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, name: String)
        throws(CommandLineError)
    {
        do {
            try FileSystem.writeSequentially(descriptor, bytes, path: name, bytesPerCall: chunkSize)
        } catch {
            throw failure("write", name, error)
        }
    }

    /// ``writeAll(_:to:name:)`` for an array.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(CommandLineError) {
        do {
            try FileSystem.writeSequentially(descriptor, bytes, path: name, bytesPerCall: chunkSize)
        } catch {
            throw failure("write", name, error)
        }
    }

    /// `cannot read PATH: <strerror>`.
    static func failure(_ verb: String, _ path: String, _ error: SystemCallError) -> CommandLineError {
        CommandLineError("cannot \(verb) \(path): \(error.reason)", status: .failure)
    }
}

/// Standard output, written with the same bounded chunks.
enum StandardOutput {
    static func write(_ text: String) throws(CommandLineError) {
        try write(Array(text.utf8))
    }

    static func write(_ bytes: [UInt8]) throws(CommandLineError) {
        do {
            try StandardStream.output.write(bytes, bytesPerCall: FileAccess.chunkSize)
        } catch {
            throw FileAccess.failure("write", StandardStream.output.description, error)
        }
    }
}

/// Standard error, for diagnostics and progress; a failure to write there is ignored.
enum StandardError {
    static func write(_ text: String) {
        try? StandardStream.error.write(Array(text.utf8), bytesPerCall: FileAccess.chunkSize)
    }
}
