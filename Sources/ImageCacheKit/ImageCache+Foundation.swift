import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

// Foundation-shaped overloads: `Data` values and `URL` keys. A URL key is the string
// `url.absoluteString` (`Spec/cache.md` §2.1), so `https://example.com/a.png` stored as a URL
// and read as a string is the same entry.
extension ImageCache {
    /// Stores `data` for `key`, as ``store(_:forKey:)-(_,String)`` stores bytes.
    public func store(_ data: Data, forKey key: String) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        let outcome = data.withUnsafeBytes { value in
            Result { () throws(CacheError) in
                try store(value, keyBytes: keyBytes, shownKey: key, decoded: nil)
            }
        }
        try outcome.get()
    }

    /// The bytes stored for `key` as `Data`, or nil on a miss; a read like ``bytes(forKey:)-7r7ed``.
    public func data(forKey key: String) throws(CacheError) -> Data? {
        try bytes(forKey: key).map { Data($0) }
    }

    /// Calls `body` with the stored bytes of `key` and returns its result, or nil on a miss; a
    /// read like ``bytes(forKey:)-7r7ed`` (a hit, checked, its bookkeeping recorded). The bytes
    /// are valid only inside `body`.
    ///
    /// The `log` backend lends them straight from its file mapping, without a copy
    /// (`Spec/store.md` §8.2): they stay intact while `body` runs, even if another thread
    /// stores, removes or compacts meanwhile. Other backends, and records the log has not
    /// mapped yet, are read into a buffer first. `body` runs under no lock and may use the
    /// cache.
    /// - Throws: as ``bytes(forKey:)-7r7ed`` (a ``CacheError``), or what `body` throws.
    @inlinable
    public func withValue<Result>(forKey key: String, _ body: (UnsafeRawBufferPointer) throws -> Result)
        throws -> Result?
    {
        // Generic only here, where the caller's module specialises it: the read itself is not
        // generic, so a hit instantiates no generic type at run time.
        var result: Result?
        try lendValue(forKey: key) { result = try body($0) }
        return result
    }

    /// ``withValue(forKey:_:)`` without a result: `body` runs once on a hit.
    @usableFromInline
    func lendValue(forKey key: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let keyBytes = try Self.validatedKey(key)
        try lendValue(keyBytes, shownKey: key, body)
    }

    // MARK: URL keys

    /// Stores `data` under the key `url.absoluteString`.
    public func store(_ data: Data, forKey url: URL) throws(CacheError) {
        try store(data, forKey: url.absoluteString)
    }

    /// Stores `bytes` under the key `url.absoluteString`.
    public func store(_ bytes: [UInt8], forKey url: URL) throws(CacheError) {
        try store(bytes, forKey: url.absoluteString)
    }

    /// Stores `bitmap` as a PNG under the key `url.absoluteString`.
    public func store(_ bitmap: Bitmap, forKey url: URL) throws(CacheError) {
        try store(bitmap, forKey: url.absoluteString)
    }

    /// The data stored under `url.absoluteString`, or nil on a miss.
    public func data(forKey url: URL) throws(CacheError) -> Data? {
        try data(forKey: url.absoluteString)
    }

    /// The bytes stored under `url.absoluteString`, or nil on a miss.
    public func bytes(forKey url: URL) throws(CacheError) -> [UInt8]? {
        try bytes(forKey: url.absoluteString)
    }

    /// The bitmap stored under `url.absoluteString`, or nil on a miss.
    public func bitmap(forKey url: URL) throws(CacheError) -> Bitmap? {
        try bitmap(forKey: url.absoluteString)
    }

    /// The variant of the image under `url.absoluteString` at `maximumPixelSize`, or nil.
    public func variant(forKey url: URL, maximumPixelSize: Int) throws(CacheError) -> Bitmap? {
        try variant(forKey: url.absoluteString, maximumPixelSize: maximumPixelSize)
    }

    /// Removes the entry under `url.absoluteString`; whether a live entry was removed.
    @discardableResult
    public func removeValue(forKey url: URL) throws(CacheError) -> Bool {
        try removeValue(forKey: url.absoluteString)
    }

    /// Whether a live entry is held under `url.absoluteString`. Not a hit.
    public func contains(_ url: URL) -> Bool {
        contains(url.absoluteString)
    }

    /// The metadata of the live entry under `url.absoluteString`, or nil. Not a hit.
    public func metadata(forKey url: URL) throws(CacheError) -> CacheEntryMetadata? {
        try metadata(forKey: url.absoluteString)
    }
}
