/// One live entry as ``ImageCache/entries()`` reports it (`Spec/cache.md` §4.4).
public struct CacheEntry: Sendable, Hashable {
    /// The entry's key.
    public var key: String
    /// The value's size in bytes (`Spec/cache.md` §2.3): for an image, its PNG's length.
    public var byteCount: Int
    /// The entry's metadata, as ``ImageCache/metadata(forKey:)-(String)`` reports it.
    public var metadata: CacheEntryMetadata

    /// An entry with the given fields, for tests and tools that compare with what
    /// ``ImageCache/entries()`` reports.
    public init(key: String, byteCount: Int, metadata: CacheEntryMetadata) {
        self.key = key
        self.byteCount = byteCount
        self.metadata = metadata
    }
}

extension ImageCache {
    /// Every entry not expired now, with its size and metadata, in ``keys`` order (ascending
    /// UTF-8 bytes of the key). Empty after `close()`.
    ///
    /// Inspecting, not a hit (`Spec/cache.md` §4.4): nothing is extended, no sequence number
    /// is taken, and an expired entry is neither reported nor removed. It is what a listing
    /// needs in one consistent snapshot, where ``keys`` followed by ``metadata(forKey:)-(String)`` per
    /// key could see a change in between and has no size.
    /// - Complexity: O(n log n) for n held entries.
    public func entries() -> [CacheEntry] {
        let live =
            (try? withWriterLock(mutating: false) { () throws(CacheError) in try liveEntries(at: clock.now())
            }) ?? []
        return live.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map {
            CacheEntry(key: displayKey($0.key), byteCount: $0.state.byteCount, metadata: $0.state.metadata)
        }
    }
}
