import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The runner's process-wide settings and raw writes (Spec/conformance.md §6.1, §6.3).
///
/// Together with `DriverProcess.swift`, this is the only file of the runner that calls the
/// C library.
enum Platform {
    /// Turns SIGPIPE into an `EPIPE` error from `write`, so that neither a driver that dies
    /// while the runner writes to it nor a closed standard output (`conformance | head`) kills
    /// the runner.
    ///
    /// The signal is caught by a handler that does nothing rather than ignored: an ignored
    /// signal stays ignored in every program the runner starts (Foundation's `Process` does
    /// not reset it), while a caught one is reset to the default when the driver's program is
    /// loaded, so a driver's own pipelines (`producer | head`) behave as they would anywhere.
    static func catchBrokenPipes() {
        signal(SIGPIPE) { _ in }
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying after interruptions and short
    /// writes.
    ///
    /// - Returns: false when the write failed, for example with `EPIPE` because nobody reads
    ///   the other end of a pipe any more.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Whether `descriptor` is the writing end of a pipe (or socket) whose reader has gone,
    /// so that the next write would fail. Asks without writing and without waiting; a
    /// terminal, a file or a pipe that is still read all answer false.
    static func readerHasGone(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
            return Musl.write(descriptor, buffer, count)
        #else
            return Darwin.write(descriptor, buffer, count)
        #endif
    }
}
