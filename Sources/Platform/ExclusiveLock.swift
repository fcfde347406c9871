#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exclusive locks on files, between processes and between the instances of one process.
///
/// `flock(LOCK_EX | LOCK_NB)` excludes other processes, and other open file descriptions of the
/// same file in this process too. The registry here tells the two apart, so a refusal can say
/// whether the holder is this process or another (`Spec/backends.md` §1.5).
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

    /// Locks the open file `fd` exclusively and records it as held by this process.
    ///
    /// A process that forks (to spawn a child) holds a copy of every descriptor until the
    /// child's exec closes it, so a lock just released here can look held by another process
    /// for a moment; the attempt is retried for about `patienceMilliseconds`.
    public static func acquire(_ fd: Int32, path: String, patienceMilliseconds: Int = 200) throws(Failure) {
        let identity: FileSystem.Identity
        do {
            identity = try FileSystem.status(fd, path: path).identity
        } catch {
            throw .system(error)
        }
        try registryLock.withLock { () throws(Failure) in
            if held.contains(identity) { throw .heldByThisProcess }
            var waited = 0
            var attempt = 0
            while true {
                do throws(SystemCallError) {
                    if try FileSystem.lock(fd, exclusive: true, path: path) { break }
                } catch {
                    throw .system(error)
                }
                if waited >= patienceMilliseconds { throw .heldByAnotherProcess }
                let pause = min(1 << min(attempt, 6), max(1, patienceMilliseconds - waited))
                usleep(UInt32(pause * 1000))
                waited += pause
                attempt += 1
            }
            held.insert(identity)
        }
    }

    /// Forgets the lock on `fd` (call before closing it; closing releases the `flock`).
    public static func release(_ fd: Int32, path: String) {
        guard let identity = try? FileSystem.status(fd, path: path).identity else { return }
        registryLock.withLock {
            _ = held.remove(identity)
            _ = flock(fd, LOCK_UN)
        }
    }
}
