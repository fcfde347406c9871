#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

extension ImageCache {
    /// Stores `bitmap` for `key` as a PNG from ``PNGEncoder`` (`Spec/cache.md` §6), replacing
    /// any entry; the stored size is the PNG's length. With a memory tier, the bitmap is also
    /// kept decoded.
    ///
    /// Encoding runs outside the cache's lock.
    /// - Throws: ``CacheError/imageEncodingFailed(key:reason:)``, and everything
    ///   `store(_ data:forKey:)` throws for raw data.
    public func store(_ bitmap: Bitmap, forKey key: String) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        let encoded: [UInt8]
        do {
            encoded = try PNGEncoder.encode(bitmap)
        } catch {
            throw .imageEncodingFailed(key: key, reason: error.description)
        }
        try withLock { () throws(CacheError) in
            try storeLocked(encoded, key: key, keyBytes: keyBytes, decoded: bitmap)
        }
    }

    /// The bitmap stored for `key`, or nil on a miss (`Spec/cache.md` §4.3, §7).
    ///
    /// A hit is served from the memory tier when it holds the bitmap (no disk read, no decode),
    /// otherwise read from the backend and decoded with ``PNGDecoder/decodeBitmap(_:)`` outside
    /// the lock. Either way the hit slides the expiry and takes a new access sequence.
    /// - Throws: ``CacheError/imageDecodingFailed(key:reason:)`` when the stored bytes are not a
    ///   PNG the decoder reads (the entry is kept), ``CacheError/corruptEntry(key:reason:)``
    ///   (the entry is removed), ``CacheError/invalidKey(byteCount:)``, or a backend error.
    public func bitmap(forKey key: String) throws(CacheError) -> Bitmap? {
        let keyBytes = try Self.validatedKey(key)
        let lookup = try withLock { () throws(CacheError) in try lookUpLocked(keyBytes, allowMemory: true) }
        switch lookup {
        case .miss:
            return nil
        case .decoded(let bitmap):
            return bitmap
        case .stored(let bytes, let generation):
            let bitmap: Bitmap
            do {
                bitmap = try PNGDecoder().decodeBitmap(bytes)
            } catch {
                throw .imageDecodingFailed(key: key, reason: error.description)
            }
            lock.lock()
            defer { lock.unlock() }
            // Keep it only if the entry still holds the value that was decoded.
            if !isClosed, index[keyBytes]?.generation == generation {
                memory?.insert(bitmap, cost: bitmap.pixels.count, forKey: keyBytes)
            }
            return bitmap
        }
    }
}
