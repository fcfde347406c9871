#if !IMAGECACHE_SINGLE_MODULE
    import PNG
#endif

/// A variant made and ready to store: its key, its canonical PNG and the bitmap it encodes.
struct Variant {
    var key: VariantKey
    var png: [UInt8]
    var bitmap: Bitmap

    /// The variant of `bitmap` at `maximumPixelSize`, or nil when the bitmap already fits it or
    /// its key could not be stored (`Spec/thumbnail.md` §5.2, §5.4).
    static func made(from bitmap: Bitmap, keyBytes: [UInt8], maximumPixelSize: Int) throws(PNGError)
        -> Variant?
    {
        guard keyBytes.count <= VariantKey.maximumOriginalLength,
            let size = UInt32(exactly: maximumPixelSize),
            let downsampled = try downsampled(bitmap, toFit: maximumPixelSize)
        else { return nil }
        return Variant(
            key: VariantKey(original: keyBytes, maximumPixelSize: size),
            png: try PNGEncoder.encode(downsampled),
            bitmap: downsampled)
    }

    /// `bitmap` downsampled to fit `maximumPixelSize`, or nil when it already fits (§1).
    static func downsampled(_ bitmap: Bitmap, toFit maximumPixelSize: Int) throws(PNGError) -> Bitmap? {
        let target = try Downsampler.targetSize(
            width: bitmap.width, height: bitmap.height, maximumPixelSize: maximumPixelSize)
        guard target.width != bitmap.width || target.height != bitmap.height else { return nil }
        return try bitmap.downsampled(toFit: maximumPixelSize)
    }
}

extension ImageCache {
    /// The image stored for `key` downsampled to fit `maximumPixelSize` × `maximumPixelSize`
    /// pixels, or nil on a miss (`Spec/thumbnail.md` §5.3).
    ///
    /// A variant stored before is read (or taken from the memory tier); otherwise the original is
    /// read, decoded and downsampled, and the result is stored as the variant for the next
    /// request. An original that already fits is returned as it is, and nothing is stored. Either
    /// way the request is one hit on the original. Decoding and downsampling run outside every
    /// lock.
    /// - Throws: ``CacheError/invalidMaximumPixelSize(_:)`` for a size below 1, and everything
    ///   ``bitmap(forKey:)-9mt7k`` throws for the original.
    public func variant(forKey key: String, maximumPixelSize: Int) throws(CacheError) -> Bitmap? {
        let keyBytes = try Self.validatedKey(key)
        guard maximumPixelSize >= 1 else { throw .invalidMaximumPixelSize(maximumPixelSize) }
        let now = clock.now()
        guard let original = try liveState(keyBytes, now: now) else { return nil }
        let variantKey = UInt32(exactly: maximumPixelSize).flatMap { size in
            keyBytes.count <= VariantKey.maximumOriginalLength
                ? VariantKey(original: keyBytes, maximumPixelSize: size) : nil
        }
        if let variantKey, let bitmap = try storedVariant(variantKey, shownKey: key) {
            recordHit(keyBytes, version: original.version, now: now)
            return bitmap
        }
        // Make it from the original (the read records the hit).
        guard let value = try readValue(keyBytes, shownKey: key) else { return nil }
        let bitmap = try decode(value.bytes, shownKey: key)
        let made: Bitmap
        do {
            guard let downsampled = try Variant.downsampled(bitmap, toFit: maximumPixelSize) else {
                return bitmap
            }
            made = downsampled
            if let variantKey, !configuration.readOnly {
                let variant = Variant(
                    key: variantKey, png: try PNGEncoder.encode(downsampled), bitmap: downsampled)
                try withWriterLock(mutating: false) { () throws(CacheError) in
                    // Only a variant of the value that was read; a store meanwhile made it stale.
                    guard try storage.state(forKey: keyBytes)?.version == value.version else { return }
                    let now = clock.now()
                    try write(variant, now: now)
                    try enforceLimits(now: now, protecting: keyBytes)
                }
            }
        } catch let error as PNGError {
            throw .imageEncodingFailed(key: key, reason: error.description)
        } catch let error as CacheError {
            throw error
        } catch {
            preconditionFailure("unexpected error type: \(error)")
        }
        return made
    }

    /// The variant stored under `variantKey`, decoded, or nil when none is held. A damaged one is
    /// removed (it is made again from the original, §5.3 step 3).
    func storedVariant(_ variantKey: VariantKey, shownKey: String) throws(CacheError) -> Bitmap? {
        let key = variantKey.bytes
        guard !storedVariantsUntrusted, let state = try storage.state(forKey: key) else { return nil }
        if let bitmap = memory?.value(forKey: key, version: state.version) { return bitmap }
        let stored: StoredValue?
        do {
            stored = try storage.read(key)
        } catch {
            guard case .corruptEntry = error else { throw error }
            if !configuration.readOnly {
                try withWriterLock(mutating: false) { () throws(CacheError) in
                    if try storage.state(forKey: key)?.version == state.version { try removeEntry(key) }
                }
            }
            return nil
        }
        guard let stored else { return nil }
        let bitmap = try decode(stored.bytes, shownKey: shownKey)
        memory?.insert(bitmap, cost: bitmap.pixels.count, forKey: key, version: stored.version) {
            (try? storage.state(forKey: key))??.version == stored.version
        }
        return bitmap
    }

    /// Stores a variant entry (§5.2) and keeps it in the memory tier. The caller holds the
    /// writer lock, and has checked that the original holds the value the variant was made from.
    func write(_ variant: Variant, now: Int64) throws(CacheError) {
        let key = variant.key.bytes
        let previous = try storage.state(forKey: key)
        let metadata = CacheEntryMetadata(createdAt: now, expiresAt: .max, accessSequence: 0)
        try withBytes(of: variant.png) { (bytes) throws(CacheError) in
            try storage.write(bytes, forKey: key, metadata: metadata, userMetadata: [])
        }
        totalBytes = Self.saturatingSum(totalBytes, variant.png.count - (previous?.byteCount ?? 0))
        if previous == nil {
            variants[variant.key.original, default: []].insert(variant.key.maximumPixelSize)
            variantCount += 1
        }
        if let memory, let version = try storage.state(forKey: key)?.version {
            memory.insert(variant.bitmap, cost: variant.bitmap.pixels.count, forKey: key, version: version) {
                true
            }
        }
    }

    /// Removes every variant of the original `key` (§5.5). The caller holds the writer lock.
    func removeVariants(of key: [UInt8]) throws(CacheError) {
        guard let sizes = variants[key] else { return }
        for size in sizes.sorted() {
            let variantKey = VariantKey(original: key, maximumPixelSize: size).bytes
            if let state = try storage.state(forKey: variantKey) {
                try storage.remove(variantKey)
                totalBytes -= state.byteCount
            }
            memory?.removeValue(forKey: variantKey)
            variantCount -= 1
        }
        variants[key] = nil
    }

    /// Forgets a variant that was removed on its own (a damaged one).
    func forget(_ variant: VariantKey) {
        guard variants[variant.original]?.remove(variant.maximumPixelSize) != nil else { return }
        variantCount -= 1
        if variants[variant.original]?.isEmpty == true { variants[variant.original] = nil }
    }

    /// The sum of the sizes of the variants whose original is not held (§5.5). Run by a
    /// read-only open, which keeps them.
    func orphanedVariantByteCount() throws(CacheError) -> Int {
        var total = 0
        for (original, sizes) in variants where try storage.state(forKey: original) == nil {
            for size in sizes {
                let key = VariantKey(original: original, maximumPixelSize: size).bytes
                total = Self.saturatingSum(total, try storage.state(forKey: key)?.byteCount ?? 0)
            }
        }
        return total
    }

    /// Removes the variants whose original is not held, as a crash can leave them (§5.5). Run by
    /// a writable open.
    func removeOrphanedVariants() throws(CacheError) {
        for original in variants.keys.sorted(by: { $0.lexicographicallyPrecedes($1) })
        where try storage.state(forKey: original) == nil {
            try removeVariants(of: original)
        }
    }
}
