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

    /// What writing to a driver's input came to.
    enum WriteOutcome {
        case written
        /// The write failed, for example with `EPIPE` because nobody reads the other end.
        case failed
        /// The reader took nothing for so long that the deadline passed.
        case timedOut
    }

    /// Makes writes to `descriptor` return at once rather than wait for room, so that
    /// `writeAll(_:to:before:)` can give up at a deadline.
    static func makeNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying after interruptions and short
    /// writes. On a non-blocking descriptor it waits for room until `deadline` at most: a
    /// driver that stops reading its input must not hold the runner (a request can exceed a
    /// pipe's buffer). A blocking descriptor waits as long as its reader makes it.
    static func writeAll(
        _ bytes: [UInt8], to descriptor: Int32, before deadline: Date = .distantFuture
    ) -> WriteOutcome {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { return .timedOut }
                // Wait for room, looking at the clock again at least once a second.
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, Int32(min(remaining * 1000, 1000)) + 1)
            default:
                return .failed
            }
        }
        return .written
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
    static func readAvailable(from descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(descriptor, buffer.baseAddress!, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Kills the process `identifier` at once (`SIGKILL`), for a driver that hangs.
    static func killAtOnce(_ identifier: Int32) {
        _ = kill(identifier, SIGKILL)
    }

    /// Sleeps for `milliseconds`, between looks at a process that is ending.
    static func pause(milliseconds: Int) {
        usleep(UInt32(milliseconds * 1000))
    }

    /// Ends the runner with `status` (Spec/conformance.md §6.3).
    static func endProcess(status: Int32) -> Never {
        exit(status)
    }
}
