#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

extension ImageCache {
    /// Stores raw bytes (for example a JPEG as downloaded) for `key`, replacing any entry
    /// (`Spec/cache.md` §6). The bytes are stored as they are.
    ///
    /// May evict other entries to respect the limits (§6.2); never the one just written.
    /// - Throws: ``CacheError/invalidKey(byteCount:)``, ``CacheError/valueTooLarge(key:byteCount:limit:)``
    ///   (nothing changed), ``CacheError/readOnly(path:)``, or a backend error.
    public func store(_ bytes: [UInt8], forKey key: String) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        try withBytes(of: bytes) { (value) throws(CacheError) in
            try store(value, keyBytes: keyBytes, shownKey: key, decoded: nil)
        }
    }

    /// Stores `bitmap` for `key` as a PNG from ``PNGEncoder`` (`Spec/cache.md` §6.4), replacing
    /// any entry; the stored size is the PNG's length. With a memory tier, the bitmap is also
    /// kept decoded. Encoding runs outside every lock.
    /// - Throws: ``CacheError/imageEncodingFailed(key:reason:)``, and everything
    ///   ``store(_:forKey:)-(_,String)`` throws for raw data.
    public func store(_ bitmap: Bitmap, forKey key: String) throws(CacheError) {
        try store(bitmap, forKey: key, userMetadata: [])
    }

    /// Stores `bitmap` for `key` as `store(_:forKey:)` does, with `userMetadata`
    /// written together with it (`Spec/cache.md` §13); its thumbnail carries none.
    /// - Throws: ``CacheError/userMetadataTooLarge(key:byteCount:limit:)`` over 4,096 bytes, and
    ///   everything `store(_:forKey:)` throws.
    public func store(_ bitmap: Bitmap, forKey key: String, userMetadata: [UInt8]) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        let encoded: [UInt8]
        let thumbnail: Variant?
        do {
            encoded = try PNGEncoder.encode(bitmap)
            thumbnail = try configuration.thumbnailMaximumPixelSize.flatMap { size throws(PNGError) in
                try Variant.made(from: bitmap, keyBytes: keyBytes, maximumPixelSize: size)
            }
        } catch {
            throw .imageEncodingFailed(key: key, reason: error.description)
        }
        try withBytes(of: encoded) { (value) throws(CacheError) in
            try store(
                value, keyBytes: keyBytes, shownKey: key, decoded: bitmap, thumbnail: thumbnail,
                userMetadata: userMetadata)
        }
    }

    /// The store itself (§6.2; variants first removed, the thumbnail written after,
    /// `Spec/thumbnail.md` §5.4–§5.5), under the writer lock.
    func store(
        _ value: UnsafeRawBufferPointer, keyBytes: [UInt8], shownKey: String, decoded: Bitmap?,
        thumbnail: Variant? = nil, userMetadata: [UInt8] = []
    ) throws(CacheError) {
        if let limit = configuration.maximumBytes, value.count > limit {
            throw .valueTooLarge(key: shownKey, byteCount: value.count, limit: limit)
        }
        try Self.checkUserMetadata(userMetadata, shownKey: shownKey)
        try withWriterLock(mutating: true) { () throws(CacheError) in
            let now = clock.now()
            let metadata = CacheEntryMetadata(
                createdAt: now, expiresAt: expirationForStore(at: now), accessSequence: takeSequence())
            // The old value's variants go first, so none can outlive it or pair with the new one.
            try removeVariants(of: keyBytes)
            let previous = try storage.state(forKey: keyBytes)
            // Persist first: a failed write leaves the old entry as it was.
            try storage.write(value, forKey: keyBytes, metadata: metadata, userMetadata: userMetadata)
            totalBytes = Self.saturatingSum(totalBytes, value.count - (previous?.byteCount ?? 0))
            expiryLowerBound = min(expiryLowerBound, metadata.expiresAt)
            memory?.removeValue(forKey: keyBytes)
            if let decoded, let memory, let version = try storage.state(forKey: keyBytes)?.version {
                memory.insert(decoded, cost: decoded.pixels.count, forKey: keyBytes, version: version) {
                    true
                }
            }
            if let thumbnail { try write(thumbnail, now: now) }
            try enforceLimits(now: now, protecting: keyBytes)
            if storage.compactionIsDue { try compactLocked(now: now) }
        }
    }

    /// Whether the held entries exceed `maximumBytes` or `maximumEntryCount` (§6.1; variants
    /// count in bytes only, `Spec/thumbnail.md` §5.6).
    var isOverLimit: Bool {
        if let limit = configuration.maximumEntryCount, storage.entryCount - variantCount > limit {
            return true
        }
        if let limit = configuration.maximumBytes, totalBytes > limit { return true }
        return false
    }

    /// Brings the cache back within its limits after a store (`Spec/cache.md` §6.2 step 6):
    /// first every expired entry goes, then entries in ascending (accessSequence, key bytes)
    /// order, never `protected` (the entry just written). The caller holds the writer lock.
    ///
    /// - Returns: how many entries were removed.
    @discardableResult
    func enforceLimits(now: Int64, protecting protected: [UInt8]) throws(CacheError) -> Int {
        guard isOverLimit else { return 0 }
        var evicted = try removeExpiredEntries(now: now)
        while isOverLimit, let victim = try candidates.next(in: storage, protecting: protected) {
            try removeEntry(victim)
            evicted += 1
        }
        return evicted
    }
}
