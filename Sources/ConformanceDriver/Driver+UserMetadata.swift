#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
#endif

/// `cache.userMetadata` and `cache.setUserMetadata` (Spec/conformance.md §5.5, Spec/cache.md
/// §13), with the faults that break their rules.
extension Driver {
    func userMetadata(_ request: Request, _ session: CacheSession, _ cache: ImageCache) throws
        -> [String: Message]
    {
        let key = try request.string("key")
        if request.op == "cache.userMetadata" {
            let read: [UInt8]?
            do {
                read = try cache.userMetadata(forKey: key)
            } catch .corruptEntry where faults.contains(.damagedUserMetadataAsNone) {
                // The damage hidden: the entry answers as one stored without user metadata.
                read = []
            }
            guard let found = read else { return ["userMetadata": .null] }
            if faults.contains(.userMetadataReadIsAHit), !session.readOnly {
                // Inspecting taken for a read: the value is read, which is a hit.
                _ = try cache.bytes(forKey: key)
                session.touch(key)
            }
            return ["userMetadata": .bytes(found)]
        }
        let userMetadata = try request.bytes("userMetadata")
        let updated = try cache.setUserMetadata(userMetadata, forKey: key)
        if !updated, faults.contains(.setUserMetadataCreatesEntry), !session.readOnly {
            // No live entry: one is made, with an empty value, instead of changing nothing.
            try cache.store([], forKey: key, userMetadata: userMetadata)
            session.sizes[key] = 0
            session.stored(key)
            session.touch(key)
            return ["updated": .bool(true)]
        }
        return ["updated": .bool(updated)]
    }

    /// cache.compact; with user-metadata-lost-on-compaction the compaction drops every entry's
    /// user metadata (the driver clears it for every key after compacting).
    func compactLosingUserMetadata(_ cache: ImageCache) throws {
        try cache.compact()
        guard faults.contains(.userMetadataLostOnCompaction) else { return }
        for key in cache.keys { _ = try cache.setUserMetadata([], forKey: key) }
    }
}
