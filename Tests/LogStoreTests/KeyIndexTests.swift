import Testing

@testable import LogStoreKit

@Suite struct KeyIndexTests {
    /// The index places its entries on 64-byte boundaries so that each fills one cache line
    /// (`Spec/store.md` §8.1): that holds only while an entry is 64 bytes.
    @Test func anEntryIsOneCacheLine() {
        #expect(MemoryLayout<LogStore.IndexEntry>.stride == 64)
    }

    /// Random inserts, replacements and removals against a Dictionary model (fixed seed),
    /// through growth, tombstones and arena rebuilds.
    @Test func matchesADictionaryModel() {
        let index = KeyIndex(seed: 7)
        var model: [String: UInt64] = [:]
        var generator = SeededGenerator(seed: 11)
        for step in 0..<60_000 {
            let key =
                "key-\(generator.next() % 5_000)-" + String(repeating: "x", count: Int(generator.next() % 40))
            var bytes = Array(key.utf8)
            let operation = generator.next() % 10
            bytes.withUnsafeBytes { keyBytes in
                if operation < 6 {
                    let entry = LogStore.IndexEntry(
                        offset: UInt64(step), valueLength: 1, metadata: metadata(UInt64(step)),
                        keyLength: UInt16(keyBytes.count), metadataMatchesRecord: true)
                    let previous = index.insert(keyBytes, entry)
                    #expect(previous?.offset == model[key])
                    model[key] = UInt64(step)
                } else if operation < 9 {
                    #expect(index.remove(keyBytes)?.offset == model.removeValue(forKey: key))
                } else {
                    #expect(index[keyBytes]?.offset == model[key])
                }
            }
            bytes.removeAll()
            if step % 20_000 == 19_999 {
                #expect(index.count == model.count)
                var seen: [String: UInt64] = [:]
                index.forEachEntry { _, keyBytes, entry in
                    seen[String(decoding: keyBytes, as: UTF8.self)] = entry.offset
                }
                #expect(seen == model)
                // Each key's slot carries its entry's offset, through every replacement and
                // rebuild: readers start on the record from there (`Spec/store.md` §8.1).
                var slotOffsetsDiffering = 0
                for (key, offset) in model {
                    Array(key.utf8).withUnsafeBytes { keyBytes in
                        let likely = index.findLikely(keyBytes)
                        if likely?.number != index.find(keyBytes) || likely?.recordOffset != offset {
                            slotOffsetsDiffering += 1
                        }
                    }
                }
                #expect(slotOffsetsDiffering == 0)
            }
        }
        index.removeAll()
        #expect(index.count == 0)
        #expect(Array("key-1-".utf8).withUnsafeBytes { index.find($0) } == nil)
    }
}
