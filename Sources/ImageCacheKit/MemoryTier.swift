/// The optional in-memory tier: decoded values bounded by total cost, least recently used
/// dropped first (`Spec/cache.md` §7).
///
/// The tier only ever holds values of entries the cache's index holds: the cache removes a key
/// from the tier whenever it removes, replaces, evicts or expires the entry, so a tier hit is
/// always a live entry. It does no bookkeeping of its own beyond recency; the cache applies
/// sliding expiry and the access sequence for tier hits exactly as for disk hits.
struct MemoryTier<Value> {
    private struct Item {
        var value: Value
        var cost: Int
    }

    let costLimit: Int
    private var items: [[UInt8]: Item] = [:]
    private var recency = RecencyList<[UInt8]>()
    private(set) var totalCost = 0

    init(costLimit: Int) {
        self.costLimit = costLimit
    }

    var count: Int { items.count }

    /// The value for `key`, marking it most recently used.
    mutating func value(forKey key: [UInt8]) -> Value? {
        guard let item = items[key] else { return nil }
        recency.touch(key)
        return item.value
    }

    /// Inserts or replaces a value; a value costing more than the limit is not kept.
    mutating func insert(_ value: Value, cost: Int, forKey key: [UInt8]) {
        removeValue(forKey: key)
        guard cost <= costLimit else { return }
        items[key] = Item(value: value, cost: cost)
        recency.touch(key)
        totalCost += cost
        while totalCost > costLimit, let victim = recency.first {
            removeValue(forKey: victim)
        }
    }

    mutating func removeValue(forKey key: [UInt8]) {
        guard let item = items.removeValue(forKey: key) else { return }
        recency.remove(key)
        totalCost -= item.cost
    }

    mutating func removeAll() {
        items.removeAll()
        recency.removeAll()
        totalCost = 0
    }
}
