#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running process: its identifier and its end; what it uses
/// (`SystemProcess+ResourceUsage.swift`) and where it may run (`SystemProcess+Affinity.swift`).
public enum SystemProcess {
    /// This process's identifier (`getpid(2)`).
    public static var identifier: Int32 { getpid() }

    /// Ends the process with `status` (`exit(3)`: buffered output is flushed, `atexit`
    /// handlers run). 0 is success; a tool documents what the others mean.
    public static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #elseif canImport(Musl)
            Musl.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}
