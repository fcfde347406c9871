#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The files of a folder-of-files backend (`entries/`, `external/`) written since they were
/// last made durable, and whether names in the folder changed since: what the next
/// ``makeDurable()`` must synchronize (`Spec/backends.md` §8.1). One fsync per written file,
/// and at most one of the folder, only when a name in it changed.
///
/// Safe from any thread: the log's write hook may call it while the cache's writer works.
final class PendingFiles: @unchecked Sendable {
    let folder: Directory
    let mode: FlushMode
    private let lock = MutualExclusion()
    private var unsynchronized: Set<String> = []
    private var namesChanged = false

    init(folder: Directory, mode: FlushMode) {
        self.folder = folder
        self.mode = mode
    }

    /// `name` was written (renamed into place) with content not yet synchronized.
    func noteWritten(_ name: String) {
        lock.withLock {
            unsynchronized.insert(name)
            namesChanged = true
        }
    }

    /// `name` was renamed into place with its content already synchronized.
    func noteNamed(_ name: String) {
        lock.withLock {
            unsynchronized.remove(name)
            namesChanged = true
        }
    }

    /// `name` was removed. `mustPersist`: the removal must be durable at the next
    /// ``makeDurable()`` (a record or index that no longer names it will be).
    func noteRemoved(_ name: String, mustPersist: Bool) {
        lock.withLock {
            unsynchronized.remove(name)
            if mustPersist { namesChanged = true }
        }
    }

    /// Whether `name` was written since the last ``makeDurable()`` (its content may be lost).
    func isUnsynchronized(_ name: String) -> Bool {
        lock.withLock { unsynchronized.contains(name) }
    }

    /// Synchronizes every file written since the last call, then the folder if a name in it
    /// changed. A file replaced or removed since needs nothing.
    func makeDurable() throws(SystemCallError) {
        try lock.withLock { () throws(SystemCallError) in
            for name in unsynchronized.sorted() {
                guard let fd = try? folder.open(name, .readOnly) else { continue }
                defer { FileSystem.close(fd) }
                try FileSystem.synchronizeFile(fd, path: folder.path + "/" + name, mode: mode)
            }
            unsynchronized.removeAll()
            if namesChanged {
                try folder.synchronize(mode: mode)
                namesChanged = false
            }
        }
    }
}
