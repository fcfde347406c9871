// Resident-memory readings for the PNG bomb measurement: the operating-system side of
// `PNGBenchmark.peakResidentBytes(of:)`.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Platform {
    /// Resets the process's peak resident set size to its current size, so a later
    /// ``residentMemory()`` reports the peak of what ran in between. Linux only (writing `5`
    /// to `/proc/self/clear_refs`, Linux ≥ 4.0); false where that is not possible.
    static func resetPeakResidentMemory() -> Bool {
        #if os(Linux)
            let descriptor = open("/proc/self/clear_refs", O_WRONLY)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            return write(descriptor, "5", 1) == 1
        #else
            return false
        #endif
    }

    /// The current and peak resident set size in bytes (`VmRSS` and `VmHWM` of
    /// `/proc/self/status`), or nil where they cannot be read.
    static func residentMemory() -> (current: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        var current: Int?
        var peak: Int?
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 3, fields[2] == "kB", let kibibytes = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { current = kibibytes * 1024 }
            if fields[0] == "VmHWM:" { peak = kibibytes * 1024 }
        }
        guard let current, let peak else { return nil }
        return (current, peak)
    }
}
