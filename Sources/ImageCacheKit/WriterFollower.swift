#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// How a read-only `dictionary` or `directory` cache follows its writer (`Spec/backends.md`
/// §1.5): the writer replaces one file whole at every synchronize that changed anything (the
/// dictionary, the index), so a new identity at that path means new content. The path is looked
/// at no more than once a millisecond, so a read costs a clock read, not a system call.
final class WriterFollower: @unchecked Sendable {
    let path: String
    private let lock = MutualExclusion()
    // Guarded by `lock`.
    private var identity: FileSystem.Identity?
    private var nextLook: UInt64 = 0
    private var reloaded = false

    /// Follows the file at `path`, as it is now.
    init(path: String) {
        self.path = path
        identity = FileSystem.identity(ofPath: path)
        nextLook = SystemTime.monotonicNanoseconds() + Self.interval
    }

    static let interval: UInt64 = 1_000_000

    /// Runs `reload` when the file was replaced since the last look (or `force`), one thread at
    /// a time; a reload that fails leaves the view as it was, to be tried at the next look.
    func follow(force: Bool = false, _ reload: () throws(CacheError) -> Void) {
        lock.withLock {
            let now = SystemTime.monotonicNanoseconds()
            guard force || now >= nextLook else { return }
            nextLook = now + Self.interval
            let current = FileSystem.identity(ofPath: path)
            guard current != identity else { return }
            do {
                try reload()
                identity = current
                reloaded = true
            } catch {}
        }
    }

    /// Whether a reload happened since the last call (the owner's `takeChanges`).
    func takeReload() -> Bool {
        lock.withLock {
            defer { reloaded = false }
            return reloaded
        }
    }
}
