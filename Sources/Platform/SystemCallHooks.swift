/// The kinds of call a fault can target.
enum SystemCallKind: Hashable, Sendable, CaseIterable {
    /// `pwrite`, `write`, `copy_file_range`: data going to a file.
    case write
    /// `fsync`, `fdatasync`.
    case synchronize
    /// `open` with `O_CREAT`, `mkdir`, `link`.
    case create
    /// `rename`.
    case rename
    /// `unlink`.
    case remove
    /// `ftruncate`.
    case truncate
}

/// Where ``FileSystem`` and ``Directory`` report what they did, for the test hooks: fault
/// injection before a call and the power-loss recorder after it. Built without
/// IMAGECACHE_TEST_HOOKS (release builds, vendored copies), every function is empty and inlined
/// away, so a shipped program pays nothing for them.
enum SystemCallHooks {
    /// The errno a call must fail with instead of running (fault injection), or nil.
    @inline(__always)
    static func injectedFailure(_ operation: SystemCallKind, path: String) -> Int32? {
        #if IMAGECACHE_TEST_HOOKS
            return FaultInjection.failure(for: operation, path: path)
        #else
            return nil
        #endif
    }

    /// Before an open: for a creating open while recording, whether the path existed.
    @inline(__always)
    static func willOpen(_ path: String, flags: Int32) -> Bool? {
        #if IMAGECACHE_TEST_HOOKS
            return SystemCallRecorder.willOpen(path, flags: flags)
        #else
            return nil
        #endif
    }

    @inline(__always)
    static func didOpen(_ fd: Int32, path: String, flags: Int32, existedBefore: Bool?) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didOpen(fd, path: path, flags: flags, existedBefore: existedBefore)
            WritebackErrorReports.didOpen(fd)
        #endif
    }

    @inline(__always)
    static func didDuplicate(_ fd: Int32, as copy: Int32) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didDuplicate(fd, as: copy)
            WritebackErrorReports.didDuplicate(fd, as: copy)
        #endif
    }

    @inline(__always)
    static func willClose(_ fd: Int32) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didClose(fd)
            WritebackErrorReports.didClose(fd)
        #endif
    }

    /// A fault made an fsync of `fd` fail as a failed writeback would: every other descriptor
    /// then open on the file reports it too (``WritebackErrorReports``).
    @inline(__always)
    static func didFailWriteback(_ fd: Int32) {
        #if IMAGECACHE_TEST_HOOKS
            WritebackErrorReports.didFail(fd)
        #endif
    }

    /// The errno an fsync of `fd` must report for an earlier failed writeback of its file that
    /// this descriptor has not reported yet, or nil.
    @inline(__always)
    static func unreportedWritebackError(_ fd: Int32) -> Int32? {
        #if IMAGECACHE_TEST_HOOKS
            return WritebackErrorReports.takeReport(fd)
        #else
            return nil
        #endif
    }

    @inline(__always)
    static func didWrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didWrite(fd, bytes, at: offset)
        #endif
    }

    @inline(__always)
    static func didCopy(to fd: Int32, at offset: UInt64, count: UInt64) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didCopy(to: fd, at: offset, count: count)
        #endif
    }

    @inline(__always)
    static func didTruncate(_ fd: Int32, to length: UInt64) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didTruncate(fd, to: length)
        #endif
    }

    @inline(__always)
    static func didSynchronize(_ fd: Int32) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didSynchronize(fd)
        #endif
    }

    /// An fsync or fdatasync failed (or a fault made it fail).
    @inline(__always)
    static func didFailToSynchronize(_ fd: Int32) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didFailToSynchronize(fd)
        #endif
    }

    @inline(__always)
    static func didRename(_ source: String, to destination: String) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didRename(source, to: destination)
        #endif
    }

    @inline(__always)
    static func didRemove(_ path: String) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didRemove(path)
        #endif
    }

    @inline(__always)
    static func didLink(_ source: String, to destination: String) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didLink(source, to: destination)
        #endif
    }

    @inline(__always)
    static func didMakeDirectory(_ path: String) {
        #if IMAGECACHE_TEST_HOOKS
            SystemCallRecorder.didMakeDirectory(path)
        #endif
    }
}
