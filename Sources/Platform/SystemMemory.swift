#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Memory calls: huge-page advice for large fresh buffers, and byte comparison.
public enum SystemMemory {
    /// Buffers smaller than this are not worth a system call.
    public static let hugePageThreshold = 4 << 20

    /// Buffers larger than this get no advice. With the kernel's default `defrag` setting
    /// (`madvise`), advised faults compact memory synchronously, which on a machine whose
    /// memory is fragmented costs more than it saves: decoding a 1 GiB bitmap took 2.0–3.4 s
    /// (1.2–2.3 s in the kernel) with the advice and 1.2–1.8 s (0.7–0.8 s) without, on the
    /// 2-core development machine under load (three runs each, alternated).
    public static let hugePageMaximum = 256 << 20

    /// Advises Linux to back the 2 MiB-aligned interior of a fresh buffer of 4 to 256 MiB with
    /// huge pages, so filling it faults 2 MiB at a time rather than 4 KiB: a fresh image-sized
    /// buffer costs more to fault in than to fill (a 64 MiB buffer: 48 ms to fault in, 18 ms
    /// with transparent huge pages), and reading a 64 MiB value went from 1.2-1.5 to 3.7 GB/s.
    /// Elsewhere, and outside that range, it does nothing.
    public static func adviseHugePages(_ base: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux) && canImport(Glibc)
            guard count >= hugePageThreshold, count <= hugePageMaximum else { return }
            let hugePage: UInt = 2 << 20
            let start = (UInt(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
            let end = (UInt(bitPattern: base) + UInt(count)) & ~(hugePage - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
        #endif
    }

    /// Whether the `count` bytes at `first` and at `second` are equal (`memcmp`).
    @inlinable
    public static func bytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(first, second, count) == 0
    }
}
