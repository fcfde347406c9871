#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

extension ImageCache {
    /// The bitmap stored for `key`, or nil on a miss (`Spec/cache.md` §4.3, §7).
    ///
    /// A hit is served from the memory tier when it holds the bitmap (no disk read, no decode),
    /// otherwise read from the backend and decoded with ``PNGDecoder`` within
    /// ``CacheConfiguration/decodingLimits``, outside every lock. Either way the hit slides
    /// the expiry and takes a new access sequence.
    /// - Throws: ``CacheError/imageDecodingFailed(key:reason:)`` when the stored bytes are not a
    ///   PNG the decoder reads, ``CacheError/imageTooLarge(key:limit:requested:maximum:)`` when
    ///   the image exceeds the decoding limits (the entry is kept either way),
    ///   ``CacheError/corruptEntry(key:reason:)`` (the entry is removed),
    ///   ``CacheError/invalidKey(byteCount:)``, or a backend error.
    public func bitmap(forKey key: String) throws(CacheError) -> Bitmap? {
        let keyBytes = try Self.validatedKey(key)
        let now = clock.now()
        if let memory, let state = try liveState(keyBytes, now: now),
            let bitmap = memory.value(forKey: keyBytes, version: state.version)
        {
            recordHit(keyBytes, version: state.version, now: now)
            return bitmap
        }
        guard let value = try readValue(keyBytes, shownKey: key) else { return nil }
        let bitmap = try decode(value.bytes, shownKey: key)
        // Keep it only if the entry still holds the value that was decoded.
        memory?.insert(bitmap, cost: bitmap.pixels.count, forKey: keyBytes, version: value.version) {
            (try? storage.state(forKey: keyBytes))??.version == value.version
        }
        return bitmap
    }

    /// Decodes a stored PNG within the configured limits (§4.3 step 6).
    func decode(_ bytes: [UInt8], shownKey: String) throws(CacheError) -> Bitmap {
        do {
            return try PNGDecoder(limits: configuration.decodingLimits).decodeBitmap(bytes)
        } catch {
            if case .limitExceeded(let limit, let requested, let maximum) = error {
                throw .imageTooLarge(key: shownKey, limit: limit, requested: requested, maximum: maximum)
            }
            throw .imageDecodingFailed(key: shownKey, reason: error.description)
        }
    }
}
