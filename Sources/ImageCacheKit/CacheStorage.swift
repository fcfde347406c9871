/// What a backend knows about one entry: enough for every rule of the cache without reading
/// the value (`Spec/cache.md` §1.1).
struct EntryState: Equatable, Sendable {
    /// The value's length in bytes (`Spec/cache.md` §2.3).
    var byteCount: Int
    var metadata: CacheEntryMetadata
    /// Changes whenever the stored value changes (and may change without it, for example
    /// when compaction moves a record). It ties a value that was read, and the hit recorded
    /// for that read, to the stored value they belong to.
    var version: UInt64
}

/// A value read from a backend, and the entry it belongs to as the index held it when the value
/// was read (so a read needs one lookup, not two).
struct StoredValue {
    var bytes: [UInt8]
    /// The entry's metadata at the read.
    var metadata: CacheEntryMetadata
    var version: UInt64
}

/// What a backend does: persist entries and their metadata, and keep the one in-memory index
/// of them. It applies no cache rule; the cache layer (``ImageCache``) decides what to keep,
/// evict and return (`Spec/cache.md` §1).
///
/// Keys are byte strings of 1 … 65,535 bytes (a string key's UTF-8; a variant's key,
/// `Spec/thumbnail.md`, is not valid UTF-8).
///
/// Thread safety (`Spec/cache.md` §10): the reading members (`entryCount`, `state`, `read`,
/// `forEachEntry`) may be called from any number of threads at once, also while one mutating
/// call runs; the cache makes the mutating calls one at a time. A read never waits for a
/// mutation's file I/O. After `close()`, reads throw ``CacheError/cacheClosed`` (or report
/// nothing) and mutations are not called.
protocol CacheStorage: AnyObject, Sendable {
    /// Held entries, expired ones included; 0 after close.
    var entryCount: Int { get }
    /// The entry for `key`, or nil when none is held.
    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState?
    /// The stored bytes for `key`, or nil when none is held (any more).
    /// - Throws: ``CacheError/corruptEntry(key:reason:)`` when they are missing or damaged.
    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue?
    /// Calls `body` with the stored bytes for `key`, the entry's metadata and version when they
    /// were read, and returns true; false when none is held. The bytes are valid only inside
    /// `body`, which runs under no lock of the backend (it may call the cache). A backend that
    /// can lends them without a copy (the log, from its file mapping); the default reads them.
    /// - Throws: as ``read(_:)``.
    func lend(
        _ key: [UInt8], _ body: (UnsafeRawBufferPointer, CacheEntryMetadata, UInt64) -> Void
    ) throws(CacheError) -> Bool
    /// Calls `body` for every held entry, in no particular order; `body` must not call back.
    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError)

    /// Stores or replaces an entry, with its user metadata (empty: none) in the same write
    /// (`Spec/cache.md` §13).
    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError)
    /// The user metadata of a held entry (empty: none), or nil when none is held; the value is
    /// not read.
    /// - Throws: ``CacheError/corruptEntry(key:reason:)`` when it is damaged on disk.
    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]?
    /// Replaces the user metadata of a held entry without rewriting its value; returns whether
    /// an entry was held.
    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool
    /// Records new metadata after hits, key by key in order (a key may come more than once);
    /// may be persisted lazily, at the latest by `synchronize()`.
    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError)
    /// Records a batch of reads' hits, in order: for each hit whose entry still has the version
    /// the read saw, the metadata `newMetadata` makes from the entry's current metadata (the
    /// hits earlier in the batch included) and the hit's position in `hits`. A hit on a value
    /// replaced or removed since is skipped, without a call of `newMetadata`. Persisted as
    /// ``updateMetadata(_:)`` is.
    func applyHits(
        _ hits: HitLog.Batch,
        newMetadata: (_ position: Int, _ current: CacheEntryMetadata) -> CacheEntryMetadata
    ) throws(CacheError)
    /// Removes an entry; removing an absent key does nothing.
    func remove(_ key: [UInt8]) throws(CacheError)
    func removeAll() throws(CacheError)
    /// Makes every change so far durable.
    func synchronize() throws(CacheError)
    /// Reclaims space (`Spec/backends.md`, each backend's "compaction").
    func compact(now: Int64) throws(CacheError)
    /// Deletes files no entry references (leftover temporary files, orphaned external files).
    func removeUnreferencedFiles() throws(CacheError)
    /// Synchronizes (a writable backend) and releases files.
    func close() throws(CacheError)
    /// Whether the backend would like the cache to compact it now (`Spec/cache.md` §5.4).
    var compactionIsDue: Bool { get }
    /// How many damaged spans of synchronized data opening skipped (`Spec/store.md` §5.4).
    var damagedRecordsSkipped: Int { get }

    // Sharing the folder with other processes (`Spec/backends.md` §9); the defaults are a
    // backend's that never shares.

    /// Runs `body` holding the lock other processes' changes wait for, caught up with them,
    /// and publishes what `body` changed before it returns.
    func withExclusiveAccess<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError) -> Result
    /// As ``withExclusiveAccess(_:)`` when the lock can be had at once; nil otherwise.
    func withExclusiveAccessIfAvailable<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError)
        -> Result?
    /// The changes other processes made that the backend applied since the last call.
    func takeChanges() throws(CacheError) -> [StorageChange]
    /// The next access sequence the sharing processes agreed on (0: none yet); read and set
    /// inside ``withExclusiveAccess(_:)``.
    var sharedSequence: UInt64 { get set }
}

/// A change another process made to the entries (`Spec/backends.md` §9.4).
enum StorageChange: Equatable {
    /// The key's entry was `before` and is now `after` (nil: absent).
    case entry(key: [UInt8], before: EntryState?, after: EntryState?)
    /// Every entry went.
    case cleared
    /// The backend loaded its index again: whatever was derived from it must be too.
    case reloaded
}

/// The text of a key for messages and errors: its UTF-8, or a variant's readable name
/// (`variant 128 of photo`, ``VariantKey/description``), never the raw bytes of its prefix.
func displayKey(_ key: [UInt8]) -> String {
    VariantKey(key)?.description ?? String(decoding: key, as: UTF8.self)
}

extension CacheStorage {
    /// Only the log-based backends ever ask to be compacted.
    var compactionIsDue: Bool { false }
    /// Only the log-based backends skip damaged records.
    var damagedRecordsSkipped: Int { 0 }

    func withExclusiveAccess<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError) -> Result {
        try body()
    }

    func withExclusiveAccessIfAvailable<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError)
        -> Result?
    {
        try body()
    }

    func takeChanges() throws(CacheError) -> [StorageChange] { [] }

    /// One lookup to check each hit's version and find the current metadata, then one batch
    /// of updates. (The log-based backends check and touch in one lookup.)
    func applyHits(
        _ hits: HitLog.Batch,
        newMetadata: (_ position: Int, _ current: CacheEntryMetadata) -> CacheEntryMetadata
    ) throws(CacheError) {
        var updates: [(key: [UInt8], metadata: CacheEntryMetadata)] = []
        var applied: [HashedKey: CacheEntryMetadata] = [:]
        applied.reserveCapacity(hits.count)
        for position in 0..<hits.count {
            let keyBytes = hits.key(at: position)
            guard let state = try self.state(forKey: keyBytes), state.version == hits[position].version else {
                continue
            }
            let key = HashedKey(bytes: keyBytes)
            let metadata = newMetadata(position, applied[key] ?? state.metadata)
            applied[key] = metadata
            updates.append((key: keyBytes, metadata: metadata))
        }
        try updateMetadata(updates)
    }

    func lend(
        _ key: [UInt8], _ body: (UnsafeRawBufferPointer, CacheEntryMetadata, UInt64) -> Void
    ) throws(CacheError) -> Bool {
        guard let value = try read(key) else { return false }
        value.bytes.withUnsafeBytes { body($0, value.metadata, value.version) }
        return true
    }

    var sharedSequence: UInt64 {
        get { 0 }
        set {}
    }
}

/// Key bytes as a dictionary key, hashed in one pass over the bytes (an array of bytes as a key
/// is hashed byte by byte, which costs more than the rest of applying a hit).
struct HashedKey: Hashable {
    var bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
