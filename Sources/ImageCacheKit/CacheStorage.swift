/// One stored entry as a backend reports it when the cache opens.
struct StoredEntry {
    var key: String
    var byteCount: Int
    var metadata: CacheEntryMetadata
}

/// What a backend does: persist entries and their metadata. It applies no cache rules; the
/// cache layer (``ImageCache``) decides what to keep, evict and return (`Spec/cache.md` §1).
///
/// The cache calls a storage from one thread at a time (under its lock), so storages hold
/// plain mutable state.
protocol CacheStorage: AnyObject {
    /// Every entry, read once when the cache opens.
    func loadEntries() throws(CacheError) -> [StoredEntry]
    /// The value bytes. Throws ``CacheError/corruptEntry(key:reason:)`` when they are missing
    /// or fail their checksum.
    func value(forKey key: String) throws(CacheError) -> [UInt8]
    /// Stores or replaces an entry.
    func write(_ value: [UInt8], forKey key: String, metadata: CacheEntryMetadata) throws(CacheError)
    /// Records new metadata after a hit; may be persisted lazily, at the latest by `synchronize()`.
    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError)
    /// Removes an entry; removing an absent key does nothing.
    func removeValue(forKey key: String) throws(CacheError)
    func removeAll() throws(CacheError)
    /// Makes every change so far durable.
    func synchronize() throws(CacheError)
    /// Reclaims space (`Spec/backends.md`, each backend's "compaction").
    func compact(now: Int64) throws(CacheError)
    /// Deletes files no entry references (leftover temporary files, orphaned external files).
    func removeUnreferencedFiles() throws(CacheError)
    /// Synchronizes and releases files.
    func close() throws(CacheError)
    /// Whether the backend would like the cache to compact it now.
    var compactionIsDue: Bool { get }
}

extension CacheStorage {
    /// Whether the backend would like the cache to compact it now (§5.4); the cache then
    /// purges expired entries and calls `compact(now:)`.
    var compactionIsDue: Bool { false }
}
