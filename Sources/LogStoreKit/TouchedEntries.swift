/// The metadata that entries got from touches earlier in one batch, by entry number: the index
/// has it only once the batch's records are published
/// (``LogStore/touchRecords(count:key:recordOffset:newMetadata:)``).
///
/// An open-addressing table sized for the batch, with a multiplicative hash of the number: a
/// `Dictionary<Int, EntryMetadata>` hashed every number with SipHash, which cost a 4 KiB
/// cache hit about 1.5%.
struct TouchedEntries {
    /// 0: empty; else 1 + the position in `numbers` and `metadata`.
    private var slots: [Int32]
    private var numbers: [Int] = []
    private var metadata: [EntryMetadata] = []
    private let shift: Int

    /// Room for `capacity` entries, with the table at most half full.
    init(capacity: Int) {
        var bits = 4
        while 1 << bits < capacity * 2 { bits += 1 }
        slots = Array(repeating: 0, count: 1 << bits)
        shift = 64 - bits
        numbers.reserveCapacity(capacity)
        metadata.reserveCapacity(capacity)
    }

    /// The slot that holds `number`, or the empty slot where it would go.
    private func slot(of number: Int) -> Int {
        let mask = slots.count - 1
        let product = UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15
        var slot = Int(truncatingIfNeeded: product >> UInt64(shift))
        while slots[slot] != 0 && numbers[Int(slots[slot]) - 1] != number { slot = (slot + 1) & mask }
        return slot
    }

    /// The metadata `number` got earlier in the batch, or nil.
    subscript(number: Int) -> EntryMetadata? {
        let found = slots[slot(of: number)]
        return found == 0 ? nil : metadata[Int(found) - 1]
    }

    /// Records that `number` now has `newMetadata`.
    mutating func record(_ newMetadata: EntryMetadata, for number: Int) {
        let slot = slot(of: number)
        if slots[slot] != 0 {
            metadata[Int(slots[slot]) - 1] = newMetadata
            return
        }
        if (numbers.count + 1) * 2 > slots.count { grow() }
        numbers.append(number)
        metadata.append(newMetadata)
        slots[self.slot(of: number)] = Int32(numbers.count)
    }

    /// Doubles the table and places every number again.
    private mutating func grow() {
        self = Self(rebuilding: self)
    }

    private init(rebuilding old: TouchedEntries) {
        self.init(capacity: old.slots.count)
        for (number, metadata) in zip(old.numbers, old.metadata) { record(metadata, for: number) }
    }
}
