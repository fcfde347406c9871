#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

extension ImageCache {
    /// The bytes allocated on disk for the cache folder and everything in it
    /// (``CacheStatistics/diskBytes``). The caller holds the writer lock, so this cache changes
    /// no file meanwhile.
    func allocatedDiskBytes() throws(CacheError) -> Int {
        Int(
            clamping: try cacheIO { () throws(SystemCallError) in
                try FileSystem.allocatedBytes(under: folder.path)
            })
    }
}
