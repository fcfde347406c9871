/// Keys in order of use, least recent first, with O(1) insert, touch and remove.
///
/// The memory tier keeps its bitmaps here in order of use.
struct RecencyList<Key: Hashable> {
    private struct Links {
        var previous: Key?
        var next: Key?
    }

    private var links: [Key: Links] = [:]
    private(set) var first: Key?
    private(set) var last: Key?

    var count: Int { links.count }

    func contains(_ key: Key) -> Bool { links[key] != nil }

    /// Moves `key` to the most-recent end, inserting it when absent.
    mutating func touch(_ key: Key) {
        if last == key { return }
        remove(key)
        links[key] = Links(previous: last, next: nil)
        if let last { links[last]!.next = key } else { first = key }
        last = key
    }

    mutating func remove(_ key: Key) {
        guard let node = links.removeValue(forKey: key) else { return }
        if let previous = node.previous { links[previous]!.next = node.next } else { first = node.next }
        if let next = node.next { links[next]!.previous = node.previous } else { last = node.previous }
    }

    mutating func removeAll() {
        links.removeAll()
        first = nil
        last = nil
    }

    /// The keys from least to most recent.
    var orderedKeys: [Key] {
        var result: [Key] = []
        result.reserveCapacity(links.count)
        var cursor = first
        while let key = cursor {
            result.append(key)
            cursor = links[key]!.next
        }
        return result
    }
}
