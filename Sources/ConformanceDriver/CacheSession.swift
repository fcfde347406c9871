import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
#endif

/// The open cache of a scenario, its clock, and what the fault switches need to remember.
final class CacheSession {
    var backend: String
    var folder: URL
    var clock: ManualClock
    var settings: Request
    var cache: ImageCache?
    /// Whether the last `cache.reopen` asked for a read-only cache.
    var readOnly = false
    /// A session of `cache.join` (Spec/conformance.md §5.8): the folder is another driver's or
    /// another session's, and is never deleted by this one.
    var joined = false
    /// For reads-do-not-catch-up and stale-bitmap-from-memory: what this session last stored
    /// or read for each key (nil: absent), the raw bytes or a bitmap response.
    var seenValues: [String: [UInt8]?] = [:]
    var seenBitmaps: [String: [String: Message]] = [:]
    /// For skip-expiry-extension: the expiry each key got when it was stored, never extended.
    var unextendedExpiry: [String: Int64] = [:]
    /// For evict-wrong-entry: each key's size and the order of use (last = most recent).
    var sizes: [String: Int] = [:]
    var recency: [String] = []
    /// For keep-removed-key-after-compaction: what removed keys held, until the next compaction.
    var removedValues: [String: [UInt8]] = [:]
    /// For stale-variant-after-store: the `cache.variant` responses of each key's current
    /// value by maximum pixel size, and those of the value a store replaced.
    var variantResponses: [String: [Int: [String: Message]]] = [:]
    var staleVariants: [String: [Int: [String: Message]]] = [:]
    /// For dictionary-blesses-damage: the damaged records found at the last writable open, by
    /// key, until a request names the key.
    var damagedDictionaryRecords: [[UInt8]: [UInt8]] = [:]

    init(backend: String, folder: URL, clock: ManualClock, settings: Request) {
        self.backend = backend
        self.folder = folder
        self.clock = clock
        self.settings = settings
    }

    func touch(_ key: String) {
        recency.removeAll { $0 == key }
        recency.append(key)
    }

    func forget(_ key: String) {
        recency.removeAll { $0 == key }
        sizes[key] = nil
        unextendedExpiry[key] = nil
    }
}
