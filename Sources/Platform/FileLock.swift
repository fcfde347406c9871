#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Advisory whole-file locks (`flock`) between processes, for the processes that share one
/// store (`Spec/store.md` §12): a lock belongs to the open file description, the kernel
/// releases it when its holder dies, and every implementation in any language can take it.
///
/// (``ExclusiveLock`` is the refusing kind, which also tells the locks of this process apart.)
public enum FileLock {
    /// Waits for an exclusive lock on `fd`.
    public static func lockExclusively(_ fd: Int32, path: String) throws(SystemCallError) {
        try lock(fd, LOCK_EX, path: path)
    }

    /// Takes an exclusive lock on `fd` if no one else holds one; `false` without waiting.
    public static func tryLockExclusively(_ fd: Int32, path: String) throws(SystemCallError) -> Bool {
        try tryLock(fd, LOCK_EX, path: path)
    }

    /// Takes a shared lock on `fd` if no one holds an exclusive one; `false` without waiting.
    /// On a descriptor that holds the exclusive lock, converts it (not atomically: the kernel
    /// may drop the old lock first).
    public static func tryLockShared(_ fd: Int32, path: String) throws(SystemCallError) -> Bool {
        try tryLock(fd, LOCK_SH, path: path)
    }

    /// Releases the lock `fd` holds.
    public static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
    }

    private static func lock(_ fd: Int32, _ operation: Int32, path: String) throws(SystemCallError) {
        while flock(fd, operation) != 0 {
            if errno != EINTR { throw SystemCallError(operation: "flock", path: path, code: errno) }
        }
    }

    private static func tryLock(_ fd: Int32, _ operation: Int32, path: String) throws(SystemCallError) -> Bool
    {
        while true {
            if flock(fd, operation | LOCK_NB) == 0 { return true }
            if errno == EWOULDBLOCK { return false }
            if errno != EINTR { throw SystemCallError(operation: "flock", path: path, code: errno) }
        }
    }
}
