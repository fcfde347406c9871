// Pinning the process to chosen processors, as `taskset -c N` does, so that a single-threaded
// peer and a single-threaded decoder are timed on the same core.
#if canImport(Glibc)
    import Glibc
#endif

extension SystemProcess {
    #if os(Linux) && canImport(Glibc)
        /// `sched_getaffinity(2)` and `sched_setaffinity(2)`: glibc declares them only with
        /// `_GNU_SOURCE`, which the Glibc module does not set, so they are looked up by name.
        private typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        private static func affinityCall(_ name: String) -> AffinityCall? {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
            return unsafeBitCast(symbol, to: AffinityCall.self)
        }
        /// The size of glibc's `cpu_set_t`: 1,024 processors, one bit each.
        private static let processorSetBytes = 128
    #endif

    /// The processors the calling thread may run on, in increasing order; nil where the system
    /// cannot say (Linux answers, Darwin has no affinity).
    public static func allowedProcessors() -> [Int]? {
        #if os(Linux) && canImport(Glibc)
            guard let call = affinityCall("sched_getaffinity") else { return nil }
            var set = [UInt8](repeating: 0, count: processorSetBytes)
            let status = set.withUnsafeMutableBytes { call(0, processorSetBytes, $0.baseAddress!) }
            guard status == 0 else { return nil }
            return (0..<processorSetBytes * 8).filter { set[$0 >> 3] & (1 << ($0 & 7)) != 0 }
        #else
            return nil
        #endif
    }

    /// Restricts the calling thread (and the threads and processes it starts afterwards) to
    /// `processors`; false where the system refuses or cannot.
    @discardableResult
    public static func restrictToProcessors(_ processors: [Int]) -> Bool {
        #if os(Linux) && canImport(Glibc)
            guard let call = affinityCall("sched_setaffinity") else { return false }
            var set = [UInt8](repeating: 0, count: processorSetBytes)
            for processor in processors where processor >= 0 && processor < processorSetBytes * 8 {
                set[processor >> 3] |= 1 << (processor & 7)
            }
            return set.withUnsafeMutableBytes { call(0, processorSetBytes, $0.baseAddress!) } == 0
        #else
            return false
        #endif
    }
}
