#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// A shared store's `synchronize()` and `close()` called outside a section
/// (`Spec/store.md` §12.3): the fsync, which may take long, runs with no lock held, so the
/// other processes' sections do not wait for it.
extension LogStore {
    /// What the first section of a shared synchronize leaves for the rest: the log it wrote out,
    /// and a descriptor of its file to make durable.
    private struct PendingSynchronization {
        var generation: UInt64
        var length: UInt64
        var descriptor: Int32
    }

    /// Writes the staging area out in one section, makes the log durable with no lock held,
    /// then, in a second section, writes the sync mark unless another process's mark already
    /// covers as much, and (`writingSnapshot`) the snapshot when nothing was appended since
    /// (the snapshot describes this handle's index, which must hold the records up to the
    /// durable length and no more). Nothing happens when the mark already covers the log.
    func synchronizeOutsideSections(writingSnapshot: Bool) throws(LogStoreError) {
        var pending: PendingSynchronization?
        var inDoubt = false
        try withExclusiveAccess { () throws(LogStoreError) in
            try writerLock.withLock { () throws(LogStoreError) in
                if isClosed { throw .closed(path: path) }
                if logDataInDoubt {
                    inDoubt = true
                    return try rewriteLogInDoubt()
                }
                try flushBuffer()
                let marked = syncMarkLength == flushedLength && syncMarkGeneration == generation
                let snapshotDue = writingSnapshot && options.usesSnapshot && snapshotLength != flushedLength
                guard !marked || snapshotDue else { return }
                // A duplicate of the handle's descriptor, not a new one: Linux reports a failed
                // writeback only to descriptions open when it failed, and this one has been
                // open since the handle took up the generation, before any of its records were
                // written (`Spec/backends.md` §8.10). A duplicate, because another thread of
                // this process may replace the handle's while the fsync runs (a compaction
                // elsewhere, followed).
                let fd = try storeIO { try FileSystem.duplicate(descriptor, path: path) }
                pending = PendingSynchronization(
                    generation: generation, length: flushedLength, descriptor: fd)
            }
        }
        guard !inDoubt, let pending else { return }
        defer { FileSystem.close(pending.descriptor) }
        do {
            try storeIO {
                try FileSystem.synchronizeData(pending.descriptor, path: path, mode: options.flushMode)
            }
        } catch {
            // The rewrite is a compaction, so it runs in a section of its own.
            try withExclusiveAccess { () throws(LogStoreError) in
                try writerLock.withLock { () throws(LogStoreError) in
                    if isClosed { throw error }
                    try recoverFromFailedSynchronization(error)
                }
            }
            return
        }
        options.synchronizedBeforeMark?()
        try withExclusiveAccess { () throws(LogStoreError) in
            writerLock.withLock {
                // A compaction since made its own log durable, with its own mark.
                guard !isClosed, generation == pending.generation else { return }
                if (loadSyncMark(generation: generation) ?? 0) < pending.length {
                    writeSyncMark(length: pending.length, generation: generation)
                }
                if writingSnapshot && options.usesSnapshot && flushedLength == pending.length
                    && bufferedCount == 0 && snapshotLength != flushedLength
                {
                    // Only an optimisation of the next open (§4): a failure is not one of close.
                    try? writeSnapshot()
                }
            }
        }
    }
}
