#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(Synchronization)
    import Synchronization
#endif

/// A file mapped shared, for words several processes read and write in place and bytes they
/// hand each other (the coordination file of a shared store and its staging area,
/// `Spec/store.md` §12). Its ``words`` are how they are read and written; the mapping lasts as
/// long as this object.
public final class SharedMapping: @unchecked Sendable {
    /// The mapped words and bytes, valid while this object lives.
    public let words: SharedWords
    /// The mapped length in bytes.
    public let length: Int
    /// Whether ``SharedWords/store(_:at:)`` may be called (a read-only mapping crashes on a
    /// store).
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
        self.words = SharedWords(base: base, length: length, isWritable: isWritable)
        self.length = length
        self.isWritable = isWritable
    }

    deinit {
        munmap(words.base, length)
    }
}

/// The words and bytes of a ``SharedMapping``: a plain value over the mapped memory, so that
/// reading a word takes no reference (a process waiting for a lock reads one over and over).
/// Valid only while its mapping lives.
///
/// Words are 64-bit, aligned, little-endian. A load or store of one is one atomic access, so
/// another process sees the old value or the new one, and a store is made once. (It once went
/// through `storeBytes`, which an unoptimised build compiles to a call of `memcpy`; for 8 bytes
/// `memcpy` stores the word twice, and another process's compare-and-swap between the two
/// stores was undone by the second: the lock of changes let two holders in.)
/// ``storeReleasing(_:at:)`` and ``loadAcquiring(at:)`` order the accesses around them
/// (``MemoryFence``); even so, every value read is checked against the file it describes
/// before it is trusted.
/// ``compareExchange(expecting:replacingWith:at:)`` and ``add(_:at:)`` change a word atomically
/// across processes (the lock of changes and its tokens).
public struct SharedWords: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let length: Int
    let isWritable: Bool

    /// The word at byte `offset` (a multiple of 8).
    @inline(__always)
    public func load(at offset: Int) -> UInt64 {
        assert(offset % 8 == 0 && offset + 8 <= length)
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return UInt64(littleEndian: atomicWord(at: offset).pointee.load(ordering: .relaxed))
            }
        #endif
        // A typed access, which every build compiles to one instruction.
        return UInt64(littleEndian: (base + offset).assumingMemoryBound(to: UInt64.self).pointee)
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
        // Offsets are the callers' constants: checked in debug builds, where the tests run.
        assert(isWritable && offset % 8 == 0 && offset + 8 <= length)
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                atomicWord(at: offset).pointee.store(value.littleEndian, ordering: .relaxed)
                return
            }
        #endif
        (base + offset).assumingMemoryBound(to: UInt64.self).pointee = value.littleEndian
    }

    /// The mapped bytes from `offset` on, for copying in and out (`count` bytes must lie in
    /// the mapping). Writing through it needs a writable mapping.
    @inline(__always)
    public func bytes(at offset: Int, count: Int) -> UnsafeMutableRawPointer {
        precondition(offset >= 0 && count >= 0 && offset <= length - count)
        return base + offset
    }

    /// Replaces the word at `offset` with `desired` if it holds `expected`, as one atomic step
    /// that every process sees whole; whether it did. Accesses after a successful exchange
    /// happen after it, and accesses before it happen before it (acquiring and releasing).
    @inline(__always)
    public func compareExchange(expecting expected: UInt64, replacingWith desired: UInt64, at offset: Int)
        -> Bool
    {
        assert(isWritable && offset % 8 == 0 && offset + 8 <= length)
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                return atomicWord(at: offset).pointee
                    .compareExchange(
                        expected: expected.littleEndian, desired: desired.littleEndian,
                        ordering: .acquiringAndReleasing
                    )
                    .exchanged
            }
        #endif
        #if canImport(Darwin)
            return OSAtomicCompareAndSwap64Barrier(
                Int64(bitPattern: expected.littleEndian), Int64(bitPattern: desired.littleEndian),
                (base + offset).assumingMemoryBound(to: Int64.self))
        #else
            fatalError("no atomic compare-and-swap on this system")
        #endif
    }

    #if canImport(Synchronization)
        /// The word at byte `offset` as an atomic, in the host's byte order: callers convert to
        /// and from the file's little-endian order (a no-op on every host but a big-endian
        /// one, such as s390x).
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        @inline(__always)
        private func atomicWord(at offset: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
            (base + offset).assumingMemoryBound(to: Atomic<UInt64>.self)
        }
    #endif

    /// Adds `delta` to the word at `offset` as one atomic step (wrapping); returns the word as
    /// it was before.
    @inline(__always)
    public func add(_ delta: UInt64, at offset: Int) -> UInt64 {
        while true {
            let old = load(at: offset)
            if compareExchange(expecting: old, replacingWith: old &+ delta, at: offset) { return old }
        }
    }
}
