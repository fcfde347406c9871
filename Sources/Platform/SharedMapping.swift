#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small file mapped shared, for words several processes read and write in place (the
/// coordination file of a shared store, `Spec/store.md` §12).
///
/// Words are 64-bit, aligned, little-endian. A load or store of one is a single machine
/// access, so another process sees the old value or the new one. ``storeReleasing(_:at:)``
/// and ``loadAcquiring(at:)`` order the accesses around them (``MemoryFence``); even so, every
/// value read is checked against the file it describes before it is trusted.
public final class SharedMapping: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    /// The mapped length in bytes.
    public let length: Int
    /// Whether ``store(_:at:)`` may be called (a read-only mapping crashes on a store).
    public let isWritable: Bool

    /// Maps the first `length` bytes of the file open at `descriptor`, which is at least that
    /// long, for reading and, when `writable`, writing.
    public static func map(_ descriptor: Int32, length: Int, writable: Bool, path: String)
        throws(SystemCallError) -> SharedMapping
    {
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        let address = mmap(nil, length, protection, MAP_SHARED, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw SystemCallError(operation: "mmap", path: path, code: errno)
        }
        return SharedMapping(base: address, length: length, isWritable: writable)
    }

    private init(base: UnsafeMutableRawPointer, length: Int, isWritable: Bool) {
        self.base = base
        self.length = length
        self.isWritable = isWritable
    }

    deinit {
        munmap(base, length)
    }

    /// The word at byte `offset` (a multiple of 8).
    @inline(__always)
    public func load(at offset: Int) -> UInt64 {
        precondition(offset % 8 == 0 && offset + 8 <= length)
        return UInt64(littleEndian: base.load(fromByteOffset: offset, as: UInt64.self))
    }

    /// The word at byte `offset`, with every access after this call ordered after the load.
    @inline(__always)
    public func loadAcquiring(at offset: Int) -> UInt64 {
        let value = load(at: offset)
        MemoryFence.acquire()
        return value
    }

    /// Stores `value` in the word at byte `offset`, after every access before this call.
    @inline(__always)
    public func storeReleasing(_ value: UInt64, at offset: Int) {
        MemoryFence.release()
        store(value, at: offset)
    }

    /// Stores `value` in the word at byte `offset` (a multiple of 8).
    @inline(__always)
    public func store(_ value: UInt64, at offset: Int) {
        precondition(isWritable && offset % 8 == 0 && offset + 8 <= length)
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
}
