#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the machine and its kernel say about themselves: for describing where a measurement
/// ran, and which boot of the system a process runs in.
public enum SystemInformation {
    /// A number for the system's current boot, the same for every process until the system
    /// restarts, then another; nil where the system does not tell (`Spec/store.md` §12.10).
    /// On Linux, the 16 bytes of the UUID in `/proc/sys/kernel/random/boot_id` (its 32
    /// hexadecimal digits) read as two big-endian words combined by exclusive or; on Darwin, `kern.boottime` as seconds ×
    /// 1,000,000 + microseconds. Never 0.
    public static let bootIdentity: UInt64? = {
        #if os(Linux)
            guard let bytes = try? FileSystem.readToEnd(atPath: "/proc/sys/kernel/random/boot_id") else {
                return nil
            }
            let digits = bytes.compactMap { byte -> UInt64? in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
                default: nil
                }
            }
            guard digits.count >= 32 else { return nil }
            let high = digits[0..<16].reduce(0) { $0 << 4 | $1 }
            let low = digits[16..<32].reduce(0) { $0 << 4 | $1 }
            let identity = high ^ low
            return identity == 0 ? nil : identity
        #elseif canImport(Darwin)
            var time = timeval()
            var size = MemoryLayout<timeval>.size
            guard sysctlbyname("kern.boottime", &time, &size, nil, 0) == 0 else { return nil }
            let identity = UInt64(time.tv_sec) &* 1_000_000 &+ UInt64(time.tv_usec)
            return identity == 0 ? nil : identity
        #else
            return nil
        #endif
    }()

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The processor's marketing name (`model name` of `/proc/cpuinfo` on Linux,
    /// `machdep.cpu.brand_string` on Darwin), or nil when the system does not tell.
    public static func processorName() -> String? {
        #if os(Linux)
            guard let bytes = try? FileSystem.readToEnd(atPath: "/proc/cpuinfo") else { return nil }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("model name") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                var name = line[line.index(after: colon)...].drop(while: \.isWhitespace)
                while name.last?.isWhitespace == true { name.removeLast() }
                return String(name)
            }
            return nil
        #elseif canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else {
                return nil
            }
            var buffer = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return nil }
            return String(
                decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }

    /// The kernel's name and release (`uname(2)`), for example `Linux 6.8.0`.
    public static func kernel() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown kernel" }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return "\(text(names.sysname)) \(text(names.release))"
    }
}
