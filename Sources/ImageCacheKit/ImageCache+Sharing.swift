extension ImageCache {
    /// Brings what the cache derives from its backend's index (byte total, earliest expiry,
    /// variants, the next sequence, the eviction batch, the memory tier) up to the changes other
    /// processes made, which the backend applied when it caught up (`Spec/backends.md` §9.4).
    /// The caller holds the writer lock.
    func absorbChangesOfOtherProcesses() throws(CacheError) {
        if configuration.sharedAcrossProcesses && !configuration.readOnly {
            // Sequences keep rising across processes, even past entries removed since (§9.4).
            nextSequence = max(nextSequence, storage.sharedSequence)
        }
        let changes = try storage.takeChanges()
        guard !changes.isEmpty else { return }
        candidates.reset()
        var recount = false
        for change in changes {
            switch change {
            case .cleared, .reloaded:
                recount = true
            case .entry(let key, let before, let after):
                if let before {
                    totalBytes = max(0, totalBytes - before.byteCount)
                    if let variant = VariantKey(key) { forget(variant) }
                }
                if let after {
                    totalBytes = Self.saturatingSum(totalBytes, after.byteCount)
                    expiryLowerBound = min(expiryLowerBound, after.metadata.expiresAt)
                    let sequence = after.metadata.accessSequence
                    nextSequence = max(nextSequence, sequence &+ 1 == 0 ? .max : sequence + 1)
                    if let variant = VariantKey(key),
                        variants[variant.original, default: []].insert(variant.maximumPixelSize).inserted
                    {
                        variantCount += 1
                    }
                }
                // A bitmap of a replaced or removed value must not be served (§9.6).
                memory?.removeValue(forKey: key)
            }
        }
        if recount {
            memory?.removeAll()
            try recountFromStorage()
        }
        if configuration.readOnly { orphanedVariantBytes = try orphanedVariantByteCount() }
    }

    /// Leaves the next access sequence where the other sharing processes take theirs from
    /// (`Spec/backends.md` §9.4); nothing for a cache that does not share.
    func publishSequence() {
        guard configuration.sharedAcrossProcesses, !configuration.readOnly else { return }
        storage.sharedSequence = max(storage.sharedSequence, nextSequence)
    }
}
