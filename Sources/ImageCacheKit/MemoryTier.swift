#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The optional in-memory tier: decoded bitmaps bounded by total cost, least recently used
/// dropped first (`Spec/cache.md` §7). Safe from any thread (its own lock, held briefly).
///
/// Each bitmap is kept with the version of the entry it was decoded from, and is returned
/// only for that version, so a tier hit is always the value the index holds now. The cache
/// removes a key from the tier whenever it removes, replaces, evicts or expires the entry;
/// the tier does no bookkeeping of its own beyond recency.
final class MemoryTier<Value>: @unchecked Sendable {
    private struct Item {
        var value: Value
        var version: UInt64
        var cost: Int
    }

    let costLimit: Int
    private let lock = MutualExclusion()
    private var items: [[UInt8]: Item] = [:]
    private var recency = RecencyList<[UInt8]>()
    private var cost = 0
    /// Trims the tier when the system reports memory pressure; cancelled with the tier.
    private var pressureSubscription: MemoryPressureSubscription?

    init(costLimit: Int) {
        self.costLimit = costLimit
        pressureSubscription = MemoryPressureSubscription(
            warning: { [weak self] in self?.trimForMemoryWarning() },
            critical: { [weak self] in self?.removeAll() })
    }

    var count: Int { lock.withLock { items.count } }

    /// The summed cost of the values kept.
    var totalCost: Int { lock.withLock { cost } }

    /// The value kept for `key` at `version`, marking it most recently used.
    func value(forKey key: [UInt8], version: UInt64) -> Value? {
        lock.withLock {
            guard let item = items[key], item.version == version else { return nil }
            recency.touch(key)
            return item.value
        }
    }

    /// Inserts or replaces a value; a value costing more than the limit is not kept.
    /// `isCurrent` runs under the tier's lock, so a removal that follows a replacement of the
    /// entry cannot slip between the check and the insertion.
    func insert(_ value: Value, cost: Int, forKey key: [UInt8], version: UInt64, if isCurrent: () -> Bool) {
        lock.withLock {
            guard isCurrent() else { return }
            removeLocked(key)
            guard cost <= costLimit else { return }
            items[key] = Item(value: value, version: version, cost: cost)
            recency.touch(key)
            self.cost += cost
            while self.cost > costLimit, let victim = recency.first {
                removeLocked(victim)
            }
        }
    }

    /// Drops the least recently used values until the total cost is at most `target`
    /// (`Spec/cache.md` §7.5); a `target` of 0 or less drops every value.
    func trim(toCost target: Int) {
        lock.withLock {
            while let victim = recency.first, target <= 0 || cost > target {
                removeLocked(victim)
            }
        }
    }

    /// What a memory warning does: keep the most recently used half of the limit (§7.5).
    func trimForMemoryWarning() {
        trim(toCost: costLimit / 2)
    }

    func removeValue(forKey key: [UInt8]) {
        lock.withLock { removeLocked(key) }
    }

    func removeAll() {
        lock.withLock {
            items.removeAll()
            recency.removeAll()
            cost = 0
        }
    }

    private func removeLocked(_ key: [UInt8]) {
        guard let item = items.removeValue(forKey: key) else { return }
        recency.remove(key)
        cost -= item.cost
    }
}
