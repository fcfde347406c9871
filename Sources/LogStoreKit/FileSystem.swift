// Every operating-system call the log store makes, in one place (house style: platform calls
// live in one small file per module). Each function retries EINTR, completes short transfers
// and turns errno into a `LogStoreError` that names the path.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum FileSystem {
    /// Identity of a file, to notice that a path now names a different file.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    static func error(_ operation: String, _ code: Int32, _ path: String) -> LogStoreError {
        switch code {
        case ENOSPC: return .diskFull(path: path)
        case EFBIG: return .fileSizeLimitExceeded(path: path)
        default: return .ioError(operation: operation, errno: code, path: path)
        }
    }

    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(LogStoreError) -> Int32 {
        while true {
            let fd = path.withCString { pathPointer in
                #if canImport(Darwin)
                    Darwin.open(pathPointer, flags | O_CLOEXEC, mode)
                #else
                    Glibc.open(pathPointer, flags | O_CLOEXEC, mode)
                #endif
            }
            if fd >= 0 { return fd }
            if errno != EINTR { throw error("open", errno, path) }
        }
    }

    static func close(_ fd: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(fd)
        #else
            _ = Glibc.close(fd)
        #endif
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, path: String
    ) throws(LogStoreError) -> Int {
        var done = 0
        while done < buffer.count {
            let result = pread(
                fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                throw error("pread", errno, path)
            }
        }
        return done
    }

    /// Reads the record header and key into `head` and the value into `value` with one call
    /// where the platform allows; `true` when both were filled completely.
    static func read(
        _ fd: Int32, head: UnsafeMutableRawBufferPointer, value: UnsafeMutableRawBufferPointer,
        at offset: UInt64, path: String
    ) throws(LogStoreError) -> Bool {
        let total = head.count + value.count
        let result = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
            vectors[0] = iovec(iov_base: head.baseAddress, iov_len: head.count)
            vectors[1] = iovec(iov_base: value.baseAddress, iov_len: value.count)
            return preadv(fd, vectors.baseAddress, value.count > 0 ? 2 : 1, off_t(offset))
        }
        if result == total { return true }
        if result < 0 && errno != EINTR { throw error("preadv", errno, path) }
        // A short or interrupted vector read: finish with plain reads.
        let headDone = try read(fd, into: head, at: offset, path: path)
        guard headDone == head.count else { return false }
        let valueDone = try read(fd, into: value, at: offset + UInt64(head.count), path: path)
        return valueDone == value.count
    }

    static func write(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64, path: String
    ) throws(LogStoreError) {
        var done = 0
        while done < bytes.count {
            let result = pwrite(
                fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result < 0 && errno != EINTR {
                throw error("pwrite", errno, path)
            } else if result == 0 {
                throw error("pwrite", EIO, path)
            }
        }
    }

    /// Makes the file's data (and its size) durable: fdatasync where it exists.
    static func synchronizeData(_ fd: Int32, path: String) throws(LogStoreError) {
        while true {
            #if canImport(Darwin)
                let result = fsync(fd)
            #else
                let result = fdatasync(fd)
            #endif
            if result == 0 { return }
            if errno != EINTR { throw error("fdatasync", errno, path) }
        }
    }

    static func synchronizeFile(_ fd: Int32, path: String) throws(LogStoreError) {
        while true {
            if fsync(fd) == 0 { return }
            if errno != EINTR { throw error("fsync", errno, path) }
        }
    }

    /// Makes a rename or a file creation in `directory` durable.
    static func synchronizeDirectory(_ directory: String) throws(LogStoreError) {
        let fd = try open(directory, flags: O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        try synchronizeFile(fd, path: directory)
    }

    /// Takes an advisory whole-file lock without waiting; `false` if another open file holds it.
    static func lock(_ fd: Int32, exclusive: Bool, path: String) throws(LogStoreError) -> Bool {
        while true {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return true }
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw error("flock", errno, path) }
        }
    }

    static func truncate(_ fd: Int32, to length: UInt64, path: String) throws(LogStoreError) {
        while true {
            if ftruncate(fd, off_t(length)) == 0 { return }
            if errno != EINTR { throw error("ftruncate", errno, path) }
        }
    }

    static func rename(_ source: String, to destination: String) throws(LogStoreError) {
        #if canImport(Darwin)
            let result = Darwin.rename(source, destination)
        #else
            let result = Glibc.rename(source, destination)
        #endif
        if result != 0 { throw error("rename", errno, destination) }
    }

    /// Removes a file; a missing file is not an error.
    static func remove(_ path: String) throws(LogStoreError) {
        if unlink(path) != 0 && errno != ENOENT { throw error("unlink", errno, path) }
    }

    static func size(_ fd: Int32, path: String) throws(LogStoreError) -> UInt64 {
        var info = stat()
        if fstat(fd, &info) != 0 { throw error("fstat", errno, path) }
        return UInt64(info.st_size)
    }

    static func identity(_ fd: Int32, path: String) throws(LogStoreError) -> Identity {
        var info = stat()
        if fstat(fd, &info) != 0 { throw error("fstat", errno, path) }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of the file a path names now, or nil if there is none.
    static func identity(ofPath path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The directory that holds `path` (for syncing renames).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// Milliseconds since the Unix epoch, UTC (the contracts' time unit).
    static func currentTimeMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

extension FileSystem {
    /// Gives `source` the additional name `destination`; fails with EEXIST rather than replace.
    /// Returns false if `destination` already exists.
    static func link(_ source: String, to destination: String) throws(LogStoreError) -> Bool {
        #if canImport(Darwin)
            let result = Darwin.link(source, destination)
        #else
            let result = Glibc.link(source, destination)
        #endif
        if result == 0 { return true }
        if errno == EEXIST { return false }
        throw error("link", errno, destination)
    }

    static var processIdentifier: Int32 { getpid() }
}

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

    /// Copies `count` bytes from one file to another inside the kernel (no user-space copies).
    /// Returns false, having copied nothing, where the platform or file system cannot.
    static func copyRange(
        from source: Int32, at sourceOffset: UInt64, to destination: Int32, at destinationOffset: UInt64,
        count: UInt64, path: String
    ) throws(LogStoreError) -> Bool {
        #if os(Linux)
            guard let copyFileRange else { return false }
            var input = Int64(sourceOffset)
            var output = Int64(destinationOffset)
            var remaining = count
            while remaining > 0 {
                let result = copyFileRange(
                    source, &input, destination, &output, Int(min(remaining, 1 << 30)), 0)
                if result > 0 {
                    remaining -= UInt64(result)
                } else if result == 0 {
                    throw .truncatedRecord(offset: UInt64(input))
                } else if errno == EINTR {
                    continue
                } else if remaining == count && [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, EBADF].contains(errno) {
                    return false
                } else {
                    throw error("copy_file_range", errno, path)
                }
            }
            return true
        #else
            return false
        #endif
    }
}
