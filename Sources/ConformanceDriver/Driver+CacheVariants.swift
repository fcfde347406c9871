#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import PNG
#endif

/// `cache.variant` (Spec/conformance.md §5.5, Spec/thumbnail.md §5.3).
extension Driver {
    func variant(_ request: Request, _ session: CacheSession, _ cache: ImageCache) throws -> [String: Message]
    {
        let key = try request.string("key")
        let maximumPixelSize = Int(try request.integer("maximumPixelSize"))
        guard let bitmap = try cache.variant(forKey: key, maximumPixelSize: maximumPixelSize) else {
            return ["hit": .bool(false)]
        }
        return [
            "hit": .bool(true), "width": .integer(Int64(bitmap.width)),
            "height": .integer(Int64(bitmap.height)),
            "format": .string(bitmap.format.description), "pixels": .bytes(bitmap.pixels),
        ]
    }
}
