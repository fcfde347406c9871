// Sequential reads and writes of whole streams, in calls of a bounded size: for standard input
// and output, pipes, devices, and files whose size says nothing.
extension FileSystem {
    /// Reads from the descriptor's current position until its input ends: for standard input,
    /// pipes, devices and files whose size says nothing (`/proc`).
    ///
    /// - Parameters:
    ///   - sizeHint: the bytes expected (a regular file's size), allocated up front; the
    ///     buffer grows past them only when more arrives. Default 0.
    ///   - bytesPerCall: the most one `read(2)` is asked for; default ``transferChunk``.
    /// - Throws: the failing `read` with its errno.
    public static func readToEnd(
        _ fd: Int32, path: String, sizeHint: Int = 0, bytesPerCall: Int = transferChunk
    ) throws(SystemCallError) -> [UInt8] {
        precondition(bytesPerCall > 0, "a read needs room for at least one byte")
        // One byte more than the hint, so the read that finds the end needs no growth.
        var bytes = [UInt8](repeating: 0, count: max(sizeHint + 1, 4096))
        var filled = 0
        var failure: SystemCallError?
        while true {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: max(4096, filled / 2)))
            }
            let wanted = min(bytesPerCall, bytes.count - filled)
            let got = bytes.withUnsafeMutableBytes { buffer in
                do throws(SystemCallError) {
                    return try readSequentially(
                        fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<filled + wanted]),
                        path: path)
                } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            filled += got
            if got < wanted { break }
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Everything the file at `path` holds (a symbolic link is followed), read to its end
    /// whatever its size says: for a file a person named, which may be a device or a pipe, and
    /// for the kernel's files (`/proc/self/status`).
    ///
    /// - Parameter bytesPerCall: the most one `read(2)` is asked for; default ``transferChunk``.
    /// - Throws: the failing `open` or `read` with its errno; `isDirectory` for a folder.
    public static func readToEnd(atPath path: String, bytesPerCall: Int = transferChunk)
        throws(SystemCallError) -> [UInt8]
    {
        let fd = try open(path, .readOnly)
        defer { close(fd) }
        let status = try status(fd, path: path)
        if status.kind == .directory {
            throw SystemCallError(operation: "read", path: path, errno: .isDirectory)
        }
        let sizeHint = status.kind == .regular ? Int(clamping: status.size) : 0
        return try readToEnd(fd, path: path, sizeHint: sizeHint, bytesPerCall: bytesPerCall)
    }

    /// Writes all of `bytes` at the descriptor's current position, asking each `write(2)` for
    /// at most `bytesPerCall` bytes (a tool may promise a bound, `Spec/cache.md` §12.6).
    /// - Throws: the failing `write` with its errno.
    public static func writeSequentially(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String, bytesPerCall: Int
    ) throws(SystemCallError) {
        precondition(bytesPerCall > 0, "a write needs room for at least one byte")
        var written = 0
        while written < bytes.count {
            let end = min(written + bytesPerCall, bytes.count)
            try writeSequentially(fd, UnsafeRawBufferPointer(rebasing: bytes[written..<end]), path: path)
            written = end
        }
    }

    /// ``writeSequentially(_:_:path:bytesPerCall:)`` for an array; `bytesPerCall` defaults to
    /// ``transferChunk``.
    public static func writeSequentially(
        _ fd: Int32, _ bytes: [UInt8], path: String, bytesPerCall: Int = transferChunk
    ) throws(SystemCallError) {
        var failure: SystemCallError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) {
                try writeSequentially(fd, buffer, path: path, bytesPerCall: bytesPerCall)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
