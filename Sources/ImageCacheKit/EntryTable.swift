#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// What a backend that keeps its own index records per entry.
protocol TableEntry: Sendable {
    /// The value's size in bytes (`Spec/cache.md` §2.3).
    var byteCount: Int { get }
    var metadata: CacheEntryMetadata { get set }
    /// The entry's user metadata (`Spec/cache.md` §13), kept in memory by the table backends.
    var userMetadata: [UInt8] { get set }
    /// Changes whenever the stored value changes (`EntryState.version`).
    var version: UInt64 { get set }
}

/// The in-memory index of the backends that keep their own (`dictionary`, `directory`; the log
/// backends use their LogStore's): entries by key bytes under a readers–writer lock, so reads
/// run on any thread while the cache's one writer changes them (`Spec/backends.md` §1.7); the
/// writer's bookkeeping (versions, whether the files lag behind); and the answers of the
/// ``CacheStorage`` members that only look at the index.
final class EntryTable<Entry: TableEntry>: @unchecked Sendable {
    private let lock = ReadWriteLock()
    // Guarded by `lock`; changed only by the cache's one writer.
    private var entries: [[UInt8]: Entry] = [:]
    private var isClosed = false
    // Touched only by the writer.
    /// Whether the index in memory differs from what the backend's files say.
    var isDirty = false
    private var nextVersion: UInt64 = 1
    /// A reader's watch on the file its writer replaces (`Spec/backends.md` §1.5), and how the
    /// backend loads itself again; set once, before any read.
    private var follower: WriterFollower?
    private var reload: (() throws(CacheError) -> Void)?

    /// Makes the table follow a writer: before reads, at most once a millisecond, `path` is
    /// looked at and `reload` runs when the writer replaced it.
    func follow(_ path: String, reloadingWith reload: @escaping () throws(CacheError) -> Void) {
        follower = WriterFollower(path: path)
        self.reload = reload
    }

    /// Loads the backend again if the writer replaced the followed file (`force`: look now).
    func followWriter(force: Bool = false) {
        guard let follower, let reload else { return }
        follower.follow(force: force, reload)
    }

    /// `[.reloaded]` when the table was loaded again since the last call (`takeChanges`).
    func takeReload() -> [StorageChange] {
        followWriter()
        return follower?.takeReload() == true ? [.reloaded] : []
    }

    /// Replaces the whole table with what open loaded, numbering the versions afresh.
    func load(_ loaded: [[UInt8]: Entry], dirty: Bool) {
        var numbered = loaded
        for key in numbered.keys {
            numbered[key]!.version = takeVersion()
        }
        lock.withWriteLock { entries = numbered }
        isDirty = dirty
    }

    /// A new version number for a value the writer stores.
    func takeVersion() -> UInt64 {
        defer { nextVersion += 1 }
        return nextVersion
    }

    // MARK: Reads, from any thread

    var count: Int {
        followWriter()
        return lock.withReadLock { entries.count }
    }

    /// The entry for `key`, or nil. - Throws: ``CacheError/cacheClosed`` after close.
    func entry(forKey key: [UInt8]) throws(CacheError) -> Entry? {
        followWriter()
        return try lock.withReadLock { () throws(CacheError) in
            if isClosed { throw .cacheClosed }
            return entries[key]
        }
    }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? {
        try entry(forKey: key).map(Self.state)
    }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        followWriter()
        try lock.withReadLock { () throws(CacheError) in
            if isClosed { throw .cacheClosed }
            for (key, entry) in entries {
                key.withUnsafeBytes { body($0, Self.state(entry)) }
            }
        }
    }

    static func state(_ entry: Entry) -> EntryState {
        EntryState(byteCount: entry.byteCount, metadata: entry.metadata, version: entry.version)
    }

    // MARK: Changes, from the cache's one writer

    /// Every entry, without the lock: only the writer changes the table.
    var writerSnapshot: [[UInt8]: Entry] { entries }

    func set(_ entry: Entry, forKey key: [UInt8]) {
        lock.withWriteLock { entries[key] = entry }
        isDirty = true
    }

    /// Records the metadata of hits (`Spec/backends.md` §1.8).
    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) {
        guard !updates.isEmpty else { return }
        lock.withWriteLock { for update in updates { entries[update.key]?.metadata = update.metadata } }
        isDirty = true
    }

    /// Replaces the user metadata of a held key; returns whether it was held (§13).
    @discardableResult
    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) -> Bool {
        let held = lock.withWriteLock { () -> Bool in
            guard entries[key] != nil else { return false }
            entries[key]!.userMetadata = userMetadata
            return true
        }
        if held { isDirty = true }
        return held
    }

    /// Removes `key`; returns whether it was held.
    @discardableResult
    func remove(_ key: [UInt8]) -> Bool {
        let removed = lock.withWriteLock { entries.removeValue(forKey: key) } != nil
        if removed { isDirty = true }
        return removed
    }

    func removeAll() {
        lock.withWriteLock { entries.removeAll() }
        isDirty = true
    }

    /// Empties the table for good: later reads throw ``CacheError/cacheClosed``.
    func close() {
        lock.withWriteLock {
            isClosed = true
            entries.removeAll()
        }
    }
}
