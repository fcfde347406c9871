import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every C-library call of the runner: process-wide settings, the standard streams, raw reads
/// and writes of pipes, and the driver's end (Spec/conformance.md §6.1, §6.3).
///
/// The runner drives any implementation, so it depends on Foundation alone, not on this
/// package's `Platform` module; this is its own small layer, the only file of the runner that
/// calls the C library.
enum RunnerSystem {
    /// The runner's standard output and standard error.
    static let standardOutput = STDOUT_FILENO
    static let standardError = STDERR_FILENO

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

    /// Reads what is available from `descriptor` into `buffer`, waiting for at least one byte;
    /// retries after interruptions.
    ///
    /// - Returns: the bytes read; 0 at the end of the input, a negative number on an error.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Kills the process `identifier` at once (`SIGKILL`), for a driver that hangs.
    static func kill(_ identifier: Int32) {
        _ = systemKill(identifier, SIGKILL)
    }

    /// Sleeps for `milliseconds`, between looks at a process that is ending.
    static func pause(milliseconds: Int) {
        usleep(UInt32(milliseconds * 1000))
    }

    /// Ends the runner with `status` (Spec/conformance.md §6.3).
    static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #elseif canImport(Musl)
            Musl.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int)
        -> Int
    {
        #if canImport(Glibc)
            return Glibc.read(descriptor, buffer, count)
        #elseif canImport(Musl)
            return Musl.read(descriptor, buffer, count)
        #else
            return Darwin.read(descriptor, buffer, count)
        #endif
    }

    private static func systemKill(_ identifier: Int32, _ signal: Int32) -> Int32 {
        #if canImport(Glibc)
            return Glibc.kill(identifier, signal)
        #elseif canImport(Musl)
            return Musl.kill(identifier, signal)
        #else
            return Darwin.kill(identifier, signal)
        #endif
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
