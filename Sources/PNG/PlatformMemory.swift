#if canImport(Glibc)
    import Glibc
#endif

/// The module's one platform call: asking Linux to back large buffers with huge pages.
///
/// A fresh image-sized buffer is mapped page by page on first touch; with 4 KiB pages that
/// costs more than copying the data (measured on a 64 MiB buffer: 48 ms to fault in versus
/// 18 ms with transparent huge pages). Where the advice is unknown this does nothing.
enum PlatformMemory {
    /// Buffers smaller than this are not worth a system call.
    static let hugePageThreshold = 4 << 20

    /// Buffers larger than this get no advice. With the kernel's default `defrag` setting
    /// (`madvise`), advised faults compact memory synchronously, which on a machine whose
    /// memory is fragmented costs more than it saves: decoding a 1 GiB bitmap took 2.0–3.4 s
    /// (1.2–2.3 s in the kernel) with the advice and 1.2–1.8 s (0.7–0.8 s) without, on the
    /// 2-core development machine under load (three runs each, alternated).
    static let hugePageMaximum = 256 << 20

    /// Advises the kernel to use huge pages for the 2 MiB-aligned interior of a buffer that
    /// has not been touched yet, when it is from 4 MiB to 256 MiB long.
    static func adviseHugePages(_ base: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux) && canImport(Glibc)
            guard count >= hugePageThreshold, count <= hugePageMaximum else { return }
            let hugePage: UInt = 2 << 20
            let start = (UInt(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
            let end = (UInt(bitPattern: base) + UInt(count)) & ~(hugePage - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
