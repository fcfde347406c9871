import Testing

@testable import ImageCacheKit

/// Keys in order of use, least recent first (`RecencyList`): the order the memory tier drops in.
@Suite struct RecencyListTests {
    @Test func keepsKeysInOrderOfUse() {
        var list = RecencyList<Int>()
        for key in [1, 2, 3, 4] { list.touch(key) }
        list.touch(2)
        list.remove(3)
        list.touch(5)
        #expect(list.orderedKeys == [1, 4, 2, 5])
        #expect(list.first == 1)
        #expect(list.last == 5)
        list.remove(1)
        list.remove(5)
        #expect(list.orderedKeys == [4, 2])
        list.removeAll()
        #expect(list.first == nil && list.count == 0)
    }
}
