#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The cache's folder as a writer or a reader holds it (`Spec/backends.md` §1.5).
///
/// A writer creates the folder when missing and holds an exclusive lock on `<folder>/lock`
/// until it closes, so a second writer, in this process or another, fails with
/// ``CacheError/locked(path:byThisProcess:)`` whatever the backend. A reader (`readOnly`)
/// takes no lock and creates nothing.
final class CacheFolder: @unchecked Sendable {
    /// The lock file's name inside the folder; its content is unspecified (empty here).
    static let lockFileName = "lock"

    let path: String
    let readOnly: Bool
    /// A writer that shares the folder with other processes (`Spec/backends.md` §9.2).
    let shared: Bool
    private var lockDescriptor: Int32 = -1
    private let releaseLock = MutualExclusion()
    /// Set when a shared open found a writer that does not share holding the folder.
    private(set) var refusedBySoleWriter = false

    var lockPath: String { path + "/" + Self.lockFileName }

    /// Opens the folder at `path`: a writer creates it when missing and locks it (a shared
    /// writer only opens the lock file: it takes its lock in ``isOnlyProcess()``); a reader does
    /// nothing. (The folder itself may be reached through a link the user chose; links inside
    /// it are refused by the backends, §1.6.)
    init(path: String, readOnly: Bool, shared: Bool = false) throws(CacheError) {
        self.path = path
        self.readOnly = readOnly
        self.shared = shared && !readOnly
        guard !readOnly else { return }
        try cacheIO { () throws(SystemCallError) in try FileSystem.createDirectory(path) }
        // A link there fails the open with ELOOP: `symbolicLink`, as §1.6 says.
        let lockPath = self.lockPath
        let fd = try cacheIO { () throws(SystemCallError) in
            try FileSystem.open(lockPath, .readWrite, options: [.create, .noFollow])
        }
        lockDescriptor = fd
        guard !self.shared else { return }
        do {
            try ExclusiveLock.acquire(fd, path: lockPath)
        } catch {
            FileSystem.close(fd)
            lockDescriptor = -1
            switch error {
            case .heldByThisProcess: throw .locked(path: path, byThisProcess: true)
            case .heldByAnotherProcess: throw .locked(path: path, byThisProcess: false)
            case .system(let failure): throw CacheError(failure)
            }
        }
    }

    deinit { release() }

    /// For a shared writer, asked by its log while it holds the log's lock of changes (so no
    /// other sharer opens meanwhile, §9.2): whether no other process has the folder open. It
    /// leaves the folder's lock held shared either way. A writer that does not share holding it
    /// makes it throw; ``refusedBySoleWriter`` then says so.
    func isOnlyProcess() throws(SystemCallError) -> Bool {
        let fd = lockDescriptor
        if try FileLock.tryLockExclusively(fd, path: lockPath) {
            // Alone. Hold it shared from now on, as every sharer does.
            if try FileLock.tryLockShared(fd, path: lockPath) { return true }
        } else if try FileLock.tryLockShared(fd, path: lockPath) {
            return false
        }
        refusedBySoleWriter = true
        throw SystemCallError(operation: "lock", path: lockPath, errno: .wouldBlock)
    }

    /// Whether the folder exists (a reader of a missing folder sees an empty cache).
    var exists: Bool { FileSystem.exists(path) }

    /// Gives the lock up; later writers may open the folder. Calling it again does nothing.
    func release() {
        releaseLock.withLock {
            guard lockDescriptor >= 0 else { return }
            if shared {
                FileLock.unlock(lockDescriptor)
            } else {
                ExclusiveLock.release(lockDescriptor, path: lockPath)
            }
            FileSystem.close(lockDescriptor)
            lockDescriptor = -1
        }
    }
}

extension CacheFolder {
    /// The names a backend's layout puts directly in the cache folder (`Spec/backends.md`).
    static func layoutNames(of backend: Backend) -> [String] {
        switch backend {
        case .dictionary: [lockFileName, DictionaryStorage.fileName]
        case .directory: [lockFileName, DirectoryStorage.indexName, DirectoryStorage.entriesName]
        case .log: [lockFileName, LogStorage.fileName]
        case .hybrid: [lockFileName, HybridStorage.logName, HybridStorage.externalName]
        }
    }

    /// Refuses a folder where a symbolic link stands at one of the layout's names (§1.6),
    /// for readers and writers alike, before anything is opened through it.
    func checkForLinks(in backend: Backend) throws(CacheError) {
        for name in Self.layoutNames(of: backend) {
            let itemPath = path + "/" + name
            if try cacheIO({ () throws(SystemCallError) in try FileSystem.status(ofPath: itemPath) })?.kind
                == .symbolicLink
            {
                throw .symbolicLink(path: itemPath)
            }
        }
    }
}

/// Opens a folder of the layout (`entries/`, `external/`) without following links
/// (`Spec/backends.md` §1.6): a link there is ``CacheError/symbolicLink(path:)``, a file of
/// another kind is ``CacheError/corruptFile(path:reason:)``. A missing folder is created when
/// `creating`, and is nil otherwise (a reader sees no entries in it).
func openSubfolder(_ path: String, creating: Bool) throws(CacheError) -> Directory? {
    if let existing = try cacheIO({ () throws(SystemCallError) in try FileSystem.status(ofPath: path) }) {
        if existing.kind == .symbolicLink { throw .symbolicLink(path: path) }
        guard existing.kind == .directory else { throw .corruptFile(path: path, reason: "not a folder") }
    } else if creating {
        try cacheIO { () throws(SystemCallError) in try FileSystem.createDirectory(path) }
    } else {
        return nil
    }
    return try cacheIO { () throws(SystemCallError) in try Directory(path: path) }
}

/// Deletes the temporary files a crash left beside the file `name` in the cache folder at
/// `directory` (`.tmp-<name>…`, written whole and renamed over `name`, `Spec/backends.md` §1.4);
/// folders are left alone.
func removeLeftoverTemporaryFiles(of name: String, in directory: String) throws(CacheError) {
    let folder = try cacheIO { () throws(SystemCallError) in
        try Directory(path: directory, followingLink: true)
    }
    for item in try cacheIO({ () throws(SystemCallError) in try folder.entries() })
    where item.kind != .directory && item.name.hasPrefix(FileSystem.temporaryPrefix + name) {
        try cacheIO { () throws(SystemCallError) in try folder.removeFile(item.name) }
    }
}
