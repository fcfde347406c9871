#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SystemProcess {
    /// The process's resident set: the bytes of memory it holds now, and the most it has held.
    public struct ResidentMemory: Hashable, Sendable {
        /// Bytes resident now (`VmRSS`).
        public var current: Int
        /// The most bytes resident at once since the process started or the peak was last
        /// reset (`VmHWM`).
        public var peak: Int
    }

    /// The current and peak resident set size (`VmRSS` and `VmHWM` of `/proc/self/status`,
    /// Linux); nil where the system does not tell.
    public static func residentMemory() -> ResidentMemory? {
        guard let fields = kernelFields("/proc/self/status", ["VmRSS:", "VmHWM:"]),
            let current = fields[0], let peak = fields[1]
        else { return nil }
        return ResidentMemory(current: current * 1024, peak: peak * 1024)
    }

    /// Resets the peak resident set size to the current size, so that a later
    /// ``residentMemory()`` reports the peak of what ran in between: writes `5` to
    /// `/proc/self/clear_refs` (Linux ≥ 4.0). False where that is not possible.
    public static func resetPeakResidentMemory() -> Bool {
        #if os(Linux)
            guard let fd = try? FileSystem.open("/proc/self/clear_refs", .writeOnly) else { return false }
            defer { FileSystem.close(fd) }
            return [UInt8(ascii: "5")].withUnsafeBytes { bytes in
                (try? FileSystem.writeSequentially(fd, bytes, path: "/proc/self/clear_refs")) != nil
            }
        #else
            return false
        #endif
    }

    /// The most bytes this process has held resident at once, measured by this process alone;
    /// nil where the system does not tell.
    ///
    /// On Linux that is `VmHWM`, which starts afresh when a program is loaded (`exec`). Not
    /// `getrusage`'s `ru_maxrss`: Linux carries the peak of the memory a child was forked with
    /// over into it, so a child started by a process holding 600 MB reports at least that much
    /// (measured: a one-entry store "peaked" at 644 MB under a 600 MB parent, at 19 MB under a
    /// small one). On Darwin it is `ru_maxrss`, which counts bytes there.
    public static func peakResidentBytes() -> Int? {
        #if canImport(Darwin)
            var usage = rusage()
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
            return Int(usage.ru_maxrss)
        #else
            residentMemory()?.peak
        #endif
    }

    /// The bytes this process has caused to be written to storage so far (`write_bytes` of
    /// `/proc/self/io`, Linux: what reached the block layer, not what sits in the page cache);
    /// nil where the system does not count them.
    public static func bytesWrittenToStorage() -> Int? {
        kernelFields("/proc/self/io", ["write_bytes:"])?[0]
    }

    /// The numbers after `names` in a kernel file of `name: number [unit]` lines; nil when the
    /// file cannot be read.
    private static func kernelFields(_ path: String, _ names: [String]) -> [Int?]? {
        guard let bytes = try? FileSystem.readToEnd(atPath: path) else { return nil }
        var values = [Int?](repeating: nil, count: names.count)
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, let index = names.firstIndex(where: { $0 == words[0] }) else { continue }
            values[index] = Int(words[1])
        }
        return values
    }
}
