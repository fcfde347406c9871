import Testing

@testable import ImageCacheKit

/// The memory tier of decoded bitmaps (`MemoryTier`): least recently used dropped first past
/// its cost limit.
@Suite struct MemoryTierTests {
    @Test func dropsTheLeastRecentlyUsedPastTheCostLimit() {
        let tier = MemoryTier<String>(costLimit: 100)
        tier.insert("a", cost: 40, forKey: [1], version: 1) { true }
        tier.insert("b", cost: 40, forKey: [2], version: 1) { true }
        #expect(tier.value(forKey: [1], version: 1) == "a")
        tier.insert("c", cost: 40, forKey: [3], version: 1) { true }
        #expect(tier.value(forKey: [2], version: 1) == nil)
        #expect(tier.value(forKey: [1], version: 1) == "a")
        #expect(tier.count == 2)
        tier.insert("too big", cost: 101, forKey: [4], version: 1) { true }
        #expect(tier.value(forKey: [4], version: 1) == nil)
        #expect(tier.count == 2)
        tier.insert("a2", cost: 10, forKey: [1], version: 2) { true }
        #expect(tier.value(forKey: [1], version: 1) == nil)
        #expect(tier.value(forKey: [1], version: 2) == "a2")
    }

    @Test func insertsOnlyWhenTheEntryIsStillCurrent() {
        let tier = MemoryTier<String>(costLimit: 100)
        tier.insert("stale", cost: 1, forKey: [1], version: 7) { false }
        #expect(tier.count == 0)
    }
}
