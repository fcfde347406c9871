#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The lock of changes of a shared store (`Spec/store.md` §12.8): a word of the coordination
/// file taken by compare-and-swap, so an uncontended section makes no system call, and a
/// liveness file per writable handle, which the kernel unlocks when the handle's process dies,
/// so a dead holder's lock is taken over rather than waited on for ever.
extension LogStore {
    /// How long a holder may keep the lock before a waiter asks whether it lives, and how often
    /// it asks again.
    static let holderCheckInterval: UInt64 = 1_000_000
    /// How long a waiter spins on the word before it starts to sleep.
    static let spinNanoseconds: UInt64 = 2_000_000
    /// The first and the longest sleep of a waiter.
    static let shortestWait: UInt64 = 20_000
    static let longestWait: UInt64 = 1_000_000

    /// The liveness file of `token`: `<log>.shared.<token>`.
    func livenessPath(of token: UInt64) -> String {
        coordinationPath + "." + String(token)
    }

    /// Takes a token and creates its liveness file, locked for as long as the handle is open
    /// (§12.8). Before the handle ever takes the lock of changes.
    func takeToken(_ coordination: Coordination) throws(LogStoreError) {
        let token = coordination.takeToken()
        let path = livenessPath(of: token)
        let fd = try storeIO { try FileSystem.open(path, .readWrite, options: [.create, .noFollow]) }
        let locked: Bool
        do {
            locked = try storeIO { try FileLock.tryLockExclusively(fd, path: path) }
        } catch {
            FileSystem.close(fd)
            throw error
        }
        guard locked else {
            // Tokens are never handed out twice: another process holds a file this one was just
            // given, so the coordination file cannot be trusted.
            FileSystem.close(fd)
            throw .ioError(
                operation: "join the shared store", errno: Errno.invalidArgument.rawValue, path: path)
        }
        self.token = token
        livenessDescriptor = fd
    }

    /// At close, after the last section: deletes the liveness file, then lets it go (§12.8).
    func giveUpToken() {
        guard livenessDescriptor >= 0 else { return }
        try? FileSystem.remove(livenessPath(of: token))
        FileSystem.close(livenessDescriptor)
        livenessDescriptor = -1
    }

    /// Lets the liveness file go without deleting it, as a process that dies does (the handle
    /// closes without its last section: a failure, or a test's crash).
    func dropLivenessFile() {
        guard livenessDescriptor >= 0 else { return }
        FileSystem.close(livenessDescriptor)
        livenessDescriptor = -1
    }

    /// Deletes the liveness files beside the log whose holders are gone; the first process, which
    /// knows that none lives, calls it before it takes its own token (§12.2 rule 3).
    func removeLeftLivenessFiles() {
        let prefix = FileSystem.fileName(of: coordinationPath) + "."
        guard let folder = try? Directory(path: FileSystem.directory(of: path)),
            let entries = try? folder.entries()
        else { return }
        for entry in entries where entry.kind == .regular && entry.name.hasPrefix(prefix) {
            guard let token = UInt64(entry.name.dropFirst(prefix.count)) else { continue }
            _ = holderIsGone(token)
        }
    }

    /// Takes the lock of changes (§12.8): at once when it is free; otherwise, `waiting`,
    /// after spinning and sleeping until its holder releases it or is found dead; not `waiting`,
    /// only when its holder has held it long enough to be asked and is found dead. Whether it
    /// was taken. Holds `accessLock`.
    func takeLockOfChanges(_ coordination: Coordination, waiting: Bool) -> Bool {
        take(.changes, of: coordination, waiting: waiting, watch: &changesWatch)
    }

    /// Takes the flush lock (§12.7, §12.8) as ``takeLockOfChanges(_:waiting:)`` takes the lock
    /// of changes. Holds `accessLock`.
    func takeFlushLock(_ coordination: Coordination, waiting: Bool) -> Bool {
        take(.flush, of: coordination, waiting: waiting, watch: &flushWatch)
    }

    /// Takes the lock of changes, waiting for as long as its holder lives: a wait ends only
    /// with the lock taken, so there is no answer to look at. Holds `accessLock`.
    func waitForLockOfChanges(_ coordination: Coordination) {
        let taken = takeLockOfChanges(coordination, waiting: true)
        assert(taken, "a wait for the lock of changes ended without it")
    }

    /// Takes the flush lock as ``waitForLockOfChanges(_:)`` takes the lock of changes.
    func waitForFlushLock(_ coordination: Coordination) {
        let taken = takeFlushLock(coordination, waiting: true)
        assert(taken, "a wait for the flush lock ended without it")
    }

    /// What a waiter for one lock last saw of its holder (§12.8 step 3).
    struct HolderWatch {
        /// The token it watched, the count of takings then, and when it last asked whether that
        /// holder lives.
        var holder: UInt64 = 0
        var takings: UInt64 = 0
        var lastCheck: UInt64 = 0
    }

    private func take(
        _ lock: SharedLock, of coordination: Coordination, waiting: Bool, watch: inout HolderWatch
    ) -> Bool {
        if coordination.exchange(lock, from: 0, to: token) { return took(lock, coordination) }
        let start = SystemTime.monotonicNanoseconds()
        var sleep = Self.shortestWait
        var holder = coordination.holder(of: lock)
        while true {
            if holder == 0 {
                if coordination.exchange(lock, from: 0, to: token) { return took(lock, coordination) }
                holder = coordination.holder(of: lock)
                continue
            }
            precondition(holder != token, "a lock of the coordination file taken twice by one handle")
            if waiting {
                // Spinning, the clock and the holder are looked at only now and then: a
                // spinning look must be quick, to see the lock free the moment its holder lets
                // it go (a holder that takes it again at once would otherwise keep it from a
                // waiter).
                let current = coordination.spin(on: lock, whileHeldBy: holder, looks: 64)
                if current != holder {
                    holder = current
                    continue
                }
            }
            let now = SystemTime.monotonicNanoseconds()
            let takings = coordination.count(of: lock)
            if holder != watch.holder || takings != watch.takings {
                // Another holder, or the same one having taken it again: it is alive.
                watch = HolderWatch(holder: holder, takings: takings, lastCheck: now)
            } else if now - watch.lastCheck >= Self.holderCheckInterval {
                watch.lastCheck = now
                if holderIsGone(holder) && coordination.exchange(lock, from: holder, to: token) {
                    return took(lock, coordination)
                }
            }
            if !waiting { return false }
            if now - start >= Self.spinNanoseconds {
                SystemTime.sleep(nanoseconds: sleep)
                sleep = min(sleep * 2, Self.longestWait)
            }
            holder = coordination.holder(of: lock)
        }
    }

    /// Counts the taking of `lock` (§12.8): how a waiter tells a holder that keeps the lock
    /// from one that takes it again.
    private func took(_ lock: SharedLock, _ coordination: Coordination) -> Bool {
        coordination.countTaking(of: lock)
        return true
    }

    /// Whether the holder of `token` is gone: its liveness file is missing, or can be locked
    /// (§12.8 step 3). A file it could lock is deleted. An error other than absence counts as
    /// alive: waiting longer is safe, taking a living holder's lock is not.
    func holderIsGone(_ token: UInt64) -> Bool {
        let path = livenessPath(of: token)
        let fd: Int32
        do {
            fd = try FileSystem.open(path, .readOnly, options: [.noFollow])
        } catch {
            return error.errno == .noSuchFile
        }
        defer { FileSystem.close(fd) }
        guard (try? FileLock.tryLockExclusively(fd, path: path)) == true else { return false }
        try? FileSystem.remove(path)
        return true
    }
}
