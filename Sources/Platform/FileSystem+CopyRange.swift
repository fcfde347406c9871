#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    #if os(Linux)
        private typealias CopyFileRange =
            @convention(c) (
                Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
            ) -> Int
        /// glibc's `copy_file_range`, which Swift's Glibc module does not import (it is behind
        /// `_GNU_SOURCE`), looked up once.
        private static let copyFileRange: CopyFileRange? = {
            guard let symbol = dlsym(nil, "copy_file_range") else { return nil }
            return unsafeBitCast(symbol, to: CopyFileRange.self)
        }()
    #endif

    /// The outcome of ``copyRange(from:at:to:at:count:path:)``.
    public enum CopyOutcome: Sendable {
        /// Every byte was copied.
        case copied
        /// The platform or file system cannot copy inside the kernel; nothing was copied.
        case unsupported
        /// The source ended after this many bytes had been copied.
        case sourceEnded(copied: UInt64)
    }

    /// Copies `count` bytes from one file to another inside the kernel (no user-space copies).
    public static func copyRange(
        from source: Int32, at sourceOffset: UInt64, to destination: Int32, at destinationOffset: UInt64,
        count: UInt64, path: String
    ) throws(SystemCallError) -> CopyOutcome {
        #if os(Linux)
            guard let copyFileRange else { return .unsupported }
            try injectFault(.write, "copy_file_range", path)
            var input = Int64(sourceOffset)
            var output = Int64(destinationOffset)
            var remaining = count
            while remaining > 0 {
                let result = copyFileRange(
                    source, &input, destination, &output, Int(min(remaining, UInt64(transferChunk))), 0)
                if result > 0 {
                    remaining -= UInt64(result)
                } else if result == 0 {
                    SystemCallHooks.didCopy(to: destination, at: destinationOffset, count: count - remaining)
                    return .sourceEnded(copied: count - remaining)
                } else if errno == EINTR {
                    continue
                } else if remaining == count && [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, EBADF].contains(errno) {
                    return .unsupported
                } else {
                    throw SystemCallError(operation: "copy_file_range", path: path, code: errno)
                }
            }
            SystemCallHooks.didCopy(to: destination, at: destinationOffset, count: count)
            return .copied
        #else
            return .unsupported
        #endif
    }
}
