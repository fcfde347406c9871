#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

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

    /// Writes the log's bytes in `range` again, in place, from what the page cache holds, so
    /// that the fdatasync after it writes them whatever their pages' state. For a writable open
    /// that keeps records past the durable length (`Spec/store.md` §5.3 rule 4): the handle
    /// that appended them is gone, and it may have been told that their writeback failed, in
    /// which case their pages are clean and an fdatasync would not write them.
    func writeAgainInPlace(_ range: Range<UInt64>) throws(LogStoreError) {
        let piece = Int(min(UInt64(Self.rewritePiece), UInt64(range.count)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = Int(min(UInt64(piece), range.upperBound - offset))
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            let read = try storeIO { try FileSystem.read(descriptor, into: bytes, at: offset, path: path) }
            // The writer's lock keeps the file from shrinking under the open.
            guard read == count else { throw .truncatedRecord(offset: offset + UInt64(read)) }
            try storeIO {
                try FileSystem.write(descriptor, UnsafeRawBufferPointer(bytes), at: offset, path: path)
            }
            offset += UInt64(count)
        }
    }

    /// How much of the log ``writeAgainInPlace(_:)`` moves at a time.
    static let rewritePiece = 1 << 20
}
