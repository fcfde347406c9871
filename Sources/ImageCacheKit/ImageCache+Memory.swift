extension ImageCache {
    // The memory tier under pressure (`Spec/cache.md` §7.5). None of these is a hit, removes an
    // entry or takes the writer lock: the tier has its own lock, held briefly, so they are safe
    // from any thread and never wait for a writer's file I/O (for example in a memory-warning
    // handler on the main thread).

    /// The summed cost of the bitmaps the memory tier holds now: their decoded pixel bytes
    /// (`Spec/cache.md` §7.1). 0 when ``CacheConfiguration/memoryCostLimit`` is nil, and after
    /// ``close()-9fo8n``.
    ///
    /// It never exceeds ``CacheConfiguration/memoryCostLimit``.
    public var memoryCost: Int { memory?.totalCost ?? 0 }

    /// Drops the memory tier's least recently used bitmaps until their summed cost is at most
    /// `cost` (`Spec/cache.md` §7.5).
    ///
    /// Dropping a bitmap from memory never removes its entry: the next `bitmap(forKey:)` reads
    /// and decodes it again. On Apple platforms the cache does this by itself when the system
    /// warns about memory (to half of ``CacheConfiguration/memoryCostLimit``) and empties the
    /// tier when the pressure is critical; call it yourself for other occasions, for example
    /// `trimMemory(toCost: limit / 10)` when the app goes to the background. Without a memory
    /// tier it does nothing.
    ///
    /// - Parameter cost: the most decoded pixel bytes the tier keeps; 0 or less empties it.
    /// - Complexity: O(*n*) in the number of bitmaps dropped.
    public func trimMemory(toCost cost: Int) { memory?.trim(toCost: cost) }

    /// Drops every bitmap the memory tier holds, as `trimMemory(toCost: 0)` does; the entries
    /// stay in the cache (`Spec/cache.md` §7.5).
    public func removeAllFromMemory() { memory?.removeAll() }
}
