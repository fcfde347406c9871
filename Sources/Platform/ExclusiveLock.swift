#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exclusive locks on files, between processes and between the instances of one process, and
/// the shared locks that writers sharing a file hold against them.
///
/// `flock(LOCK_EX | LOCK_NB)` excludes other processes, and other open file descriptions of the
/// same file in this process too. The registry here tells the two apart, so a refusal can say
/// whether the holder is this process or another (`Spec/backends.md` §1.5). Shared holders
/// (`flock(LOCK_SH | LOCK_NB)`, `Spec/store.md` §12.1) exclude exclusive ones and are counted
/// the same way.
public enum ExclusiveLock {
    /// Why a lock was refused.
    public enum Failure: Error, Hashable, Sendable {
        /// Another instance in this process holds the lock.
        case heldByThisProcess
        /// Another process holds it.
        case heldByAnotherProcess
        /// The lock call itself failed.
        case system(SystemCallError)
    }

    private static let registryLock = MutualExclusion()
    nonisolated(unsafe) private static var held: Set<FileSystem.Identity> = []
    /// How many shared holders in this process each file has.
    nonisolated(unsafe) private static var sharedHolders: [FileSystem.Identity: Int] = [:]

    /// Locks the open file `fd` exclusively and records it as held by this process.
    ///
    /// A process that forks (to spawn a child) holds a copy of every descriptor until the
    /// child's exec closes it, so a lock just released here can look held by another process
    /// for a moment; the attempt is retried for about `patienceMilliseconds`.
    public static func acquire(_ fd: Int32, path: String, patienceMilliseconds: Int = 200) throws(Failure) {
        try acquire(fd, path: path, exclusive: true, patienceMilliseconds: patienceMilliseconds)
    }

    /// Locks the open file `fd` shared, beside other shared holders and against exclusive ones,
    /// and counts it as held by this process; retried as ``acquire(_:path:patienceMilliseconds:)``.
    public static func acquireShared(_ fd: Int32, path: String, patienceMilliseconds: Int = 200)
        throws(Failure)
    {
        try acquire(fd, path: path, exclusive: false, patienceMilliseconds: patienceMilliseconds)
    }

    private static func acquire(
        _ fd: Int32, path: String, exclusive: Bool, patienceMilliseconds: Int
    ) throws(Failure) {
        let identity: FileSystem.Identity
        do {
            identity = try FileSystem.status(fd, path: path).identity
        } catch {
            throw .system(error)
        }
        try registryLock.withLock { () throws(Failure) in
            if held.contains(identity) || (exclusive && sharedHolders[identity, default: 0] > 0) {
                throw .heldByThisProcess
            }
            var waited = 0
            var attempt = 0
            while true {
                do throws(SystemCallError) {
                    if try FileSystem.lock(fd, exclusive: exclusive, path: path) { break }
                } catch {
                    throw .system(error)
                }
                if waited >= patienceMilliseconds { throw .heldByAnotherProcess }
                let pause = min(1 << min(attempt, 6), max(1, patienceMilliseconds - waited))
                usleep(UInt32(pause * 1000))
                waited += pause
                attempt += 1
            }
            if exclusive { held.insert(identity) } else { sharedHolders[identity, default: 0] += 1 }
        }
    }

    /// Forgets the lock on `fd` (call before closing it; closing releases the `flock`).
    public static func release(_ fd: Int32, path: String) {
        release(fd, path: path, exclusive: true)
    }

    /// Forgets a shared lock taken with ``acquireShared(_:path:patienceMilliseconds:)``.
    public static func releaseShared(_ fd: Int32, path: String) {
        release(fd, path: path, exclusive: false)
    }

    private static func release(_ fd: Int32, path: String, exclusive: Bool) {
        guard let identity = try? FileSystem.status(fd, path: path).identity else { return }
        registryLock.withLock {
            if exclusive {
                _ = held.remove(identity)
            } else if let count = sharedHolders[identity] {
                sharedHolders[identity] = count > 1 ? count - 1 : nil
            }
            _ = flock(fd, LOCK_UN)
        }
    }
}
