/// What a read-only cache sees in a folder that holds no cache yet: nothing, and nothing is
/// created (`Spec/cache.md` §5.6).
final class EmptyStorage: CacheStorage, @unchecked Sendable {
    var entryCount: Int { 0 }
    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? { nil }
    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? { nil }
    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {}
    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError) {}
    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]? { nil }
    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool { false }
    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {}
    func remove(_ key: [UInt8]) throws(CacheError) {}
    func removeAll() throws(CacheError) {}
    func synchronize() throws(CacheError) {}
    func compact(now: Int64) throws(CacheError) {}
    func removeUnreferencedFiles() throws(CacheError) {}
    func close() throws(CacheError) {}

}
