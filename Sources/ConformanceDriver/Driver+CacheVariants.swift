#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import PNG
#endif

/// `cache.variant` (Spec/conformance.md §5.5, Spec/thumbnail.md §5.3) and the faults of the
/// variants' rule class.
extension Driver {
    func variant(_ request: Request, _ session: CacheSession, _ cache: ImageCache) throws -> [String: Message]
    {
        let key = try request.string("key")
        let maximumPixelSize = Int(try request.integer("maximumPixelSize"))
        if faults.contains(.staleVariantAfterStore), let stale = session.staleVariants[key]?[maximumPixelSize]
        {
            // The variant of the value this key held before its last store, as if the store had
            // not removed it.
            return stale
        }
        if faults.contains(.variantHitsTwice), maximumPixelSize >= 1 {
            // A hit of its own besides the original's: one more access sequence number.
            _ = try? cache.bytes(forKey: key)
        }
        guard let bitmap = try cache.variant(forKey: key, maximumPixelSize: maximumPixelSize) else {
            return ["hit": .bool(false)]
        }
        try evictOwnEntryWrongly(session, cache, key: key)
        let response: [String: Message] = [
            "hit": .bool(true), "width": .integer(Int64(bitmap.width)),
            "height": .integer(Int64(bitmap.height)),
            "format": .string(bitmap.format.description), "pixels": .bytes(bitmap.pixels),
        ]
        session.variantResponses[key, default: [:]][maximumPixelSize] = response
        return response
    }

    /// `cache.count`, with the variants-counted fault: variants counted as entries.
    func countResponse(_ cache: ImageCache) -> [String: Message] {
        var count = cache.count
        if faults.contains(.variantsCounted) { count += cache.statistics.variants }
        return ["count": .integer(Int64(count)), "totalByteCount": .integer(Int64(cache.totalByteCount))]
    }

    /// `cache.purge`, with the purge-counts-variants fault: the variants removed counted too.
    func purgeResponse(_ cache: ImageCache) throws -> [String: Message] {
        guard faults.contains(.purgeCountsVariants) else {
            return ["removed": .integer(Int64(try cache.purgeExpired()))]
        }
        let variantsBefore = cache.statistics.variants
        let removed = try cache.purgeExpired() + variantsBefore - cache.statistics.variants
        return ["removed": .integer(Int64(removed))]
    }
}

extension CacheSession {
    /// A store replaced `key`'s value: what the variants of the old value answered becomes
    /// what the stale-variant-after-store fault answers.
    func stored(_ key: String) {
        staleVariants[key] = variantResponses.removeValue(forKey: key)
    }
}
