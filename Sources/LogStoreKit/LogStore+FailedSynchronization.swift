/// What a handle does after an fdatasync of its log failed (`Spec/store.md` §8.3).
///
/// Linux marks the pages that a failed writeback could not write clean, so they are not
/// written again, and reports the error once: a later fdatasync of the same file succeeds
/// without writing them (other systems promise no better). So once an fdatasync of the log
/// failed, no later one may vouch for the log's unsynchronized bytes. The handle rewrites the
/// log instead, by a compaction that drops nothing: every live record is copied into a new file
/// (from the page cache, which still holds what was written, or carrying detectable damage
/// where it does not, §7.1), which is made durable and renamed over the log.
extension LogStore {
    /// Answers a failed fdatasync of the log: rewrites the log at once, and, when that fails
    /// too, throws `failure` and leaves the rewrite to the next `synchronize()` or `close()`.
    /// Holds `writerLock`, in a section when shared.
    func recoverFromFailedSynchronization(_ failure: LogStoreError) throws(LogStoreError) {
        logDataInDoubt = true
        do {
            try rewriteLogInDoubt()
        } catch {
            throw failure
        }
    }

    /// The compaction that makes the log durable again after a failed fdatasync; it ends the
    /// doubt when the new log and its name are durable. Holds `writerLock`, in a section when
    /// shared.
    func rewriteLogInDoubt() throws(LogStoreError) {
        _ = try compactHoldingWriterLock(now: nil)
    }
}
