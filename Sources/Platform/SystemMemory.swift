#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Memory calls: huge-page advice for large fresh buffers, bringing small cold buffers into the
/// cache, and byte comparison.
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

    /// Loads one byte of each 64-byte cache line of `bytes`, none waiting for another, and
    /// returns them OR-ed together (the result only keeps the loads from being optimised away).
    ///
    /// A loop that hashes cold memory, such as a mapped record nobody read lately, keeps only a
    /// few cache misses in flight: its instructions per line fill the processor's window, and
    /// the hardware prefetcher stops at every 4 KiB page. These loads are a few instructions
    /// each, so every line of a small buffer is on its way at once and the hash then runs on
    /// lines in the cache. Worth it for a few KiB: from 16 KiB on, the prefetcher keeps up.
    @inline(never)
    public static func touchEachCacheLine(of bytes: UnsafeRawBufferPointer) -> UInt8 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var touched: UInt8 = base.load(fromByteOffset: bytes.count &- 1, as: UInt8.self)
        var offset = 0
        while offset < bytes.count {
            touched |= base.load(fromByteOffset: offset, as: UInt8.self)
            offset &+= 64
        }
        return touched
    }

    /// Whether the `count` bytes at `first` and at `second` are equal (`memcmp`).
    @inlinable
    public static func bytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(first, second, count) == 0
    }
}
