#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The in-memory index: key bytes → ``LogStore/IndexEntry`` (`Spec/store.md` §8.1).
///
/// An open-addressing hash table specialised for the store, instead of `[String: IndexEntry]`:
/// keys live back to back in one byte arena (no object per key), entries in one array, and the
/// table holds 16-byte slots (``Slot``: entry number and 32 bits of the key's hash, so most
/// mismatching probes never touch an entry, and the offset of the entry's record, so a read
/// can start on the record while the entry is still on its way from memory). About 64 + 27
/// bytes per entry plus the key, and building it from the snapshot allocates nothing per entry.
///
/// Not thread-safe by itself: the store's locks guard it (readers share, writers exclude).
final class KeyIndex {
    /// The entries, by number: raw memory rather than an array, so a lookup costs no reference
    /// counting or exclusivity check (the store's hot read path goes through here).
    private var entries: UnsafeMutablePointer<LogStore.IndexEntry>
    private var entryCapacity: Int
    /// Entry numbers in use or freed: `0 ..< entryCount`.
    private var entryCount = 0
    /// Entry numbers of removed entries, reused by later inserts.
    private var freeEntries: [Int32] = []
    private var arena: UnsafeMutableRawPointer
    private var arenaCapacity: Int
    private var arenaUsed = 0
    private var deadKeyBytes = 0
    /// One slot of the table.
    struct Slot {
        /// 0 empty, 1 tombstone, else (entry number + 2) | hash tag << 32.
        var tagged: UInt64 = 0
        /// The entry's `offset`, kept equal to it by every change of the entry: a lookup
        /// returns it with the entry number, from the same cache line (``findLikely(_:)``).
        var recordOffset: UInt64 = 0
    }

    private var table: UnsafeMutablePointer<Slot>
    private var tableMask: Int
    private var tombstones = 0
    private(set) var count = 0
    private let seed: UInt64

    /// - Parameters:
    ///   - minimumCapacity: entries to make room for without growing.
    ///   - keyBytesCapacity: key bytes to make room for (default: 24 per entry).
    init(
        minimumCapacity: Int = 0, keyBytesCapacity: Int? = nil,
        seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) {
        self.seed = seed
        var size = 16
        while size * 3 / 4 < minimumCapacity { size *= 2 }
        table = .allocate(capacity: size)
        table.initialize(repeating: Slot(), count: size)
        tableMask = size - 1
        arenaCapacity = max(256, keyBytesCapacity ?? minimumCapacity * 24)
        arena = .allocate(byteCount: arenaCapacity, alignment: 8)
        entryCapacity = max(16, minimumCapacity)
        entries = Self.allocateEntries(capacity: entryCapacity)
    }

    deinit {
        table.deallocate()
        arena.deallocate()
        entries.deallocate()
    }

    /// Bytes this index holds: entry array, table and key arena (capacities, not just use).
    var memoryBytes: Int {
        entryCapacity * MemoryLayout<LogStore.IndexEntry>.stride + (tableMask + 1) * MemoryLayout<Slot>.stride
            + arenaCapacity + freeEntries.capacity * 4
    }

    // MARK: Hashing

    @inline(__always)
    func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        var h = seed ^ (UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15)
        var position = 0
        let count = key.count
        let base = key.baseAddress!
        while position + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            h = (h ^ word) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            position += 8
        }
        if position < count {
            var tail: UInt64 = 0
            for index in position..<count {
                tail |=
                    UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * UInt64(index - position))
            }
            h = (h ^ tail) &* 0xBF58_476D_1CE4_E5B9
        }
        h ^= h >> 32
        h = h &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        return h
    }

    // MARK: Lookup

    /// The key bytes of entry `number`.
    @inline(__always)
    func key(at number: Int) -> UnsafeRawBufferPointer {
        let entry = entries[number]
        return UnsafeRawBufferPointer(start: arena + entry.keyStart, count: Int(entry.keyLength))
    }

    /// The slot holding `key`, or the slot where it would be inserted (negative: -(slot + 1)).
    private func probe(_ key: UnsafeRawBufferPointer, hash: UInt64) -> Int {
        let tag = hash >> 32
        var slot = Int(truncatingIfNeeded: hash) & tableMask
        var firstTombstone = -1
        while true {
            let value = table[slot].tagged
            if value == 0 { return -((firstTombstone >= 0 ? firstTombstone : slot) + 1) }
            if value == 1 {
                if firstTombstone < 0 { firstTombstone = slot }
            } else if value >> 32 == tag {
                let number = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 2
                let entry = entries[number]
                if Int(entry.keyLength) == key.count
                    && SystemMemory.bytesEqual(arena + entry.keyStart, key.baseAddress!, count: key.count)
                {
                    return slot
                }
            }
            slot = (slot + 1) & tableMask
        }
    }

    /// The entry number for `key`, or nil.
    func find(_ key: UnsafeRawBufferPointer) -> Int? {
        guard count > 0 else { return nil }
        let slot = probe(key, hash: hash(key))
        guard slot >= 0 else { return nil }
        return Int(truncatingIfNeeded: table[slot].tagged & 0xFFFF_FFFF) - 2
    }

    /// The entry number for `key` as far as its length and 32 bits of its hash tell, without
    /// comparing key bytes: ``find(_:)``'s answer, except when another key of the same length
    /// shares the bits (about once in 2^32 probes), or an absent key meets such a key. With it
    /// the offset of the entry's record, from the slot: a reader can fetch the record's head
    /// from there before it loads the entry, so the two cache misses overlap instead of
    /// following each other (a 4 KiB get ran about 10% faster).
    ///
    /// For a reader about to read the record, which holds the key and is checked against it
    /// anyway (`Spec/store.md` §8.2): when that check fails, the reader asks ``find(_:)``. So
    /// a hit visits neither the key arena nor, before the value is copied, the record's key;
    /// on a cold index, comparing the key first held up the copy behind a cache miss (a 4 KiB
    /// get ran 12% slower).
    func findLikely(_ key: UnsafeRawBufferPointer) -> (number: Int, recordOffset: UInt64)? {
        guard count > 0 else { return nil }
        let keyHash = hash(key)
        let tag = keyHash >> 32
        var slot = Int(truncatingIfNeeded: keyHash) & tableMask
        while true {
            let value = table[slot].tagged
            if value == 0 { return nil }
            if value != 1 && value >> 32 == tag {
                let number = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 2
                if Int(entries[number].keyLength) == key.count { return (number, table[slot].recordOffset) }
            }
            slot = (slot + 1) & tableMask
        }
    }

    /// Entry `number`, as ``find(_:)`` gave it.
    func entry(at number: Int) -> LogStore.IndexEntry {
        entries[number]
    }

    subscript(_ key: UnsafeRawBufferPointer) -> LogStore.IndexEntry? {
        find(key).map { entries[$0] }
    }

    /// Replaces the metadata of entry `number` (after a touch record).
    func updateMetadata(at number: Int, _ metadata: EntryMetadata) {
        entries[number].metadata = metadata
        entries[number].metadataMatchesRecord = false
    }

    /// Points entry `number` at the user-metadata block of the record at `offset` (`length` 0:
    /// the entry has none any more, `Spec/store.md` §12.2).
    func updateUserMetadata(at number: Int, offset: UInt64, length: UInt16) {
        entries[number].userMetadataOffset = length == 0 ? 0 : offset
        entries[number].userMetadataLength = length
    }

    // MARK: Mutation

    /// Inserts or replaces `key`; returns the entry it replaced.
    @discardableResult
    func insert(_ key: UnsafeRawBufferPointer, _ entry: LogStore.IndexEntry) -> LogStore.IndexEntry? {
        let keyHash = hash(key)
        let slot = probe(key, hash: keyHash)
        if slot >= 0 {
            let number = Int(truncatingIfNeeded: table[slot].tagged & 0xFFFF_FFFF) - 2
            let previous = entries[number]
            var replacement = entry
            replacement.keyStart = previous.keyStart
            replacement.keyLength = previous.keyLength
            entries[number] = replacement
            table[slot].recordOffset = entry.offset
            return previous
        }
        if (count + tombstones + 1) * 4 > (tableMask + 1) * 3 {
            rehash(minimumCapacity: (count + 1) * 2)
            return insert(key, entry)
        }
        var stored = entry
        stored.keyStart = appendKey(key)
        stored.keyLength = UInt16(key.count)
        let number: Int
        if let free = freeEntries.popLast() {
            number = Int(free)
            entries[number] = stored
        } else {
            number = appendEntry(stored)
        }
        let target = -slot - 1
        if table[target].tagged == 1 { tombstones -= 1 }
        table[target] = Slot(tagged: UInt64(number + 2) | (keyHash >> 32) << 32, recordOffset: entry.offset)
        count += 1
        return nil
    }

    /// Removes `key`; returns its entry.
    @discardableResult
    func remove(_ key: UnsafeRawBufferPointer) -> LogStore.IndexEntry? {
        guard count > 0 else { return nil }
        let slot = probe(key, hash: hash(key))
        guard slot >= 0 else { return nil }
        let number = Int(truncatingIfNeeded: table[slot].tagged & 0xFFFF_FFFF) - 2
        let previous = entries[number]
        table[slot] = Slot(tagged: 1)
        tombstones += 1
        count -= 1
        deadKeyBytes += Int(previous.keyLength)
        entries[number].keyStart = -1
        freeEntries.append(Int32(number))
        if count == 0 {
            removeAll()
        } else if deadKeyBytes > 1 << 16 && deadKeyBytes * 2 > arenaUsed {
            rehash(minimumCapacity: count)
        }
        return previous
    }

    func removeAll() {
        entryCount = 0
        freeEntries.removeAll()
        table.update(repeating: Slot(), count: tableMask + 1)
        tombstones = 0
        count = 0
        arenaUsed = 0
        deadKeyBytes = 0
    }

    /// Calls `body` with every live entry's number, key bytes and entry.
    func forEachEntry<Failure: Error>(
        _ body: (Int, UnsafeRawBufferPointer, LogStore.IndexEntry) throws(Failure) -> Void
    ) throws(Failure) {
        for number in 0..<entryCount where entries[number].keyStart >= 0 {
            let entry = entries[number]
            try body(
                number, UnsafeRawBufferPointer(start: arena + entry.keyStart, count: Int(entry.keyLength)),
                entry)
        }
    }

    /// Room for `capacity` entries, starting on a 64-byte boundary. An entry is 64 bytes, so
    /// each then fills one cache line: from the allocator's 16-byte alignment, every entry
    /// straddled two lines, and a read or a touch that loaded one waited for both.
    private static func allocateEntries(capacity: Int) -> UnsafeMutablePointer<LogStore.IndexEntry> {
        UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<LogStore.IndexEntry>.stride, alignment: 64
        ).bindMemory(to: LogStore.IndexEntry.self, capacity: capacity)
    }

    /// Appends an entry at the next free number, growing the storage; returns the number.
    private func appendEntry(_ entry: LogStore.IndexEntry) -> Int {
        if entryCount == entryCapacity {
            let grown = Self.allocateEntries(capacity: entryCapacity * 2)
            grown.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
            entries = grown
            entryCapacity *= 2
        }
        (entries + entryCount).initialize(to: entry)
        entryCount += 1
        return entryCount - 1
    }

    private func appendKey(_ key: UnsafeRawBufferPointer) -> Int {
        if arenaUsed + key.count > arenaCapacity {
            var capacity = arenaCapacity * 2
            while arenaUsed + key.count > capacity { capacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
            grown.copyMemory(from: arena, byteCount: arenaUsed)
            arena.deallocate()
            arena = grown
            arenaCapacity = capacity
        }
        let start = arenaUsed
        (arena + start).copyMemory(from: key.baseAddress!, byteCount: key.count)
        arenaUsed += key.count
        return start
    }

    /// Rebuilds table, entry array and arena without tombstones, holes or dead keys.
    private func rehash(minimumCapacity: Int) {
        var size = 16
        while size * 3 / 4 < max(minimumCapacity, count + 1) { size *= 2 }
        let liveKeyBytes = arenaUsed - deadKeyBytes
        let newArenaCapacity = max(256, liveKeyBytes + liveKeyBytes / 2)
        let newArena = UnsafeMutableRawPointer.allocate(byteCount: newArenaCapacity, alignment: 8)
        let newTable = UnsafeMutablePointer<Slot>.allocate(capacity: size)
        newTable.initialize(repeating: Slot(), count: size)
        let newCapacity = max(16, count + count / 2)
        let newEntries = Self.allocateEntries(capacity: newCapacity)
        var newCount = 0
        var used = 0
        for number in 0..<entryCount where entries[number].keyStart >= 0 {
            let entry = entries[number]
            let length = Int(entry.keyLength)
            (newArena + used).copyMemory(from: arena + entry.keyStart, byteCount: length)
            var moved = entry
            moved.keyStart = used
            let keyHash = hash(UnsafeRawBufferPointer(start: newArena + used, count: length))
            used += length
            var slot = Int(truncatingIfNeeded: keyHash) & (size - 1)
            while newTable[slot].tagged != 0 { slot = (slot + 1) & (size - 1) }
            newTable[slot] = Slot(
                tagged: UInt64(newCount + 2) | (keyHash >> 32) << 32, recordOffset: moved.offset)
            (newEntries + newCount).initialize(to: moved)
            newCount += 1
        }
        table.deallocate()
        arena.deallocate()
        table = newTable
        tableMask = size - 1
        arena = newArena
        arenaCapacity = newArenaCapacity
        arenaUsed = used
        deadKeyBytes = 0
        entries.deallocate()
        entries = newEntries
        entryCapacity = newCapacity
        entryCount = newCount
        freeEntries = []
        tombstones = 0
    }
}
