#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only, shared memory mapping of a file (`mmap(2)` with `PROT_READ`, `MAP_SHARED`).
///
/// Reading bytes that are in the page cache through a mapping costs one copy and no system
/// call, which is most of the cost of a small `pread`. The mapping may be longer than the
/// file, so that a file that grows by appends stays covered without remapping; the pages past
/// the end of the file must never be touched (that raises `SIGBUS`). The mapping ends when the
/// last reference to it goes, so a reader that holds one keeps its bytes readable even after
/// the owner has mapped the file again or closed it.
public final class FileMapping: @unchecked Sendable {
    /// The first byte of the file.
    public let base: UnsafeRawPointer
    /// Bytes mapped from offset 0; may exceed the file's length.
    public let length: Int

    /// Maps the first `length` bytes of the file open at `descriptor`.
    /// - Throws: the `mmap` failure with its errno (for example `ENODEV` on a file system that
    ///   cannot map, `ENOMEM` when the address space is exhausted).
    public static func map(_ descriptor: Int32, length: Int, path: String) throws(SystemCallError)
        -> FileMapping
    {
        precondition(length > 0, "a mapping needs at least one byte")
        let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw SystemCallError(operation: "mmap", path: path, code: errno)
        }
        return FileMapping(base: UnsafeRawPointer(address), length: length)
    }

    private init(base: UnsafeRawPointer, length: Int) {
        self.base = base
        self.length = length
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }
}
