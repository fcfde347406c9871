import Testing

@testable import LogStoreKit

/// The table of metadata a touch batch gave its entries (`TouchedEntries`), against a
/// dictionary: numbers that collide, that come back, and more of them than it was sized for.
@Suite struct TouchedEntriesTests {
    @Test func holdsTheLatestMetadataOfEveryNumberLikeADictionary() {
        for capacity in [0, 1, 5, 256] {
            var table = TouchedEntries(capacity: capacity)
            var model: [Int: EntryMetadata] = [:]
            // Up to four times the capacity, so the table grows; numbers drawn from a small
            // range come back, from a large one collide in the hash.
            for step in 0..<(capacity * 4 + 40) {
                let number = step % 3 == 0 ? step % 64 : step * 40_503 % 1_000_003
                #expect(table[number] == model[number])
                let metadata = EntryMetadata(
                    createdAt: Int64(step), expiresAt: Int64(number), accessSequence: UInt64(step) * 3)
                table.record(metadata, for: number)
                model[number] = metadata
            }
            for (number, metadata) in model { #expect(table[number] == metadata) }
            #expect(table[-1] == nil)
            #expect(table[Int.max] == nil)
        }
    }
}
