#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the machine and its kernel say about themselves, for describing where a measurement ran.
public enum SystemInformation {
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
