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
    /// Files whose fsync failed and that were not written again since: a later fsync would not
    /// make their content durable (`Spec/backends.md` §8.10), so they are rewritten instead.
    private var inDoubt: Set<String> = []
    private var namesChanged = false

    init(folder: Directory, mode: FlushMode) {
        self.folder = folder
        self.mode = mode
    }

    /// `name` was written (renamed into place) with content not yet synchronized.
    func noteWritten(_ name: String) {
        lock.withLock {
            unsynchronized.insert(name)
            inDoubt.remove(name)
            namesChanged = true
        }
    }

    /// `name` was renamed into place with its content already synchronized.
    func noteNamed(_ name: String) {
        lock.withLock {
            unsynchronized.remove(name)
            inDoubt.remove(name)
            namesChanged = true
        }
    }

    /// `name` was removed. `mustPersist`: the removal must be durable at the next
    /// ``makeDurable()`` (a record or index that no longer names it will be).
    func noteRemoved(_ name: String, mustPersist: Bool) {
        lock.withLock {
            unsynchronized.remove(name)
            inDoubt.remove(name)
            if mustPersist { namesChanged = true }
        }
    }

    /// Whether `name` was written since the last ``makeDurable()`` (its content may be lost).
    func isUnsynchronized(_ name: String) -> Bool {
        lock.withLock { unsynchronized.contains(name) }
    }

    /// Synchronizes every file written since the last call, then the folder if a name in it
    /// changed. A file replaced or removed since needs nothing. A file whose fsync fails is
    /// written again, to a new file synchronized before it takes the name (§8.10); when that
    /// fails too, the fsync's error is thrown and the next call rewrites the file.
    func makeDurable() throws(SystemCallError) {
        try lock.withLock { () throws(SystemCallError) in
            for name in unsynchronized.sorted() {
                if inDoubt.contains(name) {
                    try rewrite(name)
                    continue
                }
                guard let fd = try? folder.open(name, .readOnly) else { continue }
                defer { FileSystem.close(fd) }
                do throws(SystemCallError) {
                    try FileSystem.synchronizeFile(fd, path: folder.path + "/" + name, mode: mode)
                } catch {
                    inDoubt.insert(name)
                    do throws(SystemCallError) {
                        try rewrite(name)
                    } catch _ {
                        throw error
                    }
                }
            }
            unsynchronized.removeAll()
            if namesChanged {
                try folder.synchronize(mode: mode)
                namesChanged = false
            }
        }
    }

    /// Writes the content of `name` again, into a new file that is synchronized before it is
    /// renamed over the name (the folder's fsync follows). The content comes from the page
    /// cache, which keeps what a failed writeback could not write; where it no longer does,
    /// the file's checksums show the damage (§1.3, §5.3). Caller holds `lock`.
    private func rewrite(_ name: String) throws(SystemCallError) {
        guard let bytes = try folder.readFile(name) else {
            // Removed meanwhile: nothing is left to make durable.
            inDoubt.remove(name)
            return
        }
        var failure: SystemCallError?
        bytes.withUnsafeBytes { content in
            do throws(SystemCallError) {
                try FileSystem.writeFileAtomically(
                    content, to: folder.path + "/" + name, .contentFirst, mode: mode)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        inDoubt.remove(name)
        namesChanged = true
    }
}
