#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

extension LogStore {
    /// The least a mapping covers; it grows to twice the file whenever appends outgrow it, so a
    /// growing store maps again only a logarithmic number of times.
    static let minimumMappingLength: UInt64 = 64 << 20

    /// Keeps ``mapping`` covering the flushed file (`Spec/store.md` §8.2): maps the file again,
    /// twice as long, when appends have outgrown it. Without a mapping reads use `pread`, so a
    /// failure to map only costs speed. Caller holds the write side of `stateLock` (or has the
    /// handle to itself), so no reader is copying from the mapping it replaces.
    func mapFlushedLength() {
        if isWritable { mappedReadLimit = flushedLength }
        guard options.mapsFileForReads, !mappingUnavailable, descriptor >= 0 else { return }
        if let mapping, UInt64(mapping.length) >= flushedLength { return }
        unmapFile()
        let (doubled, overflow) = flushedLength.multipliedReportingOverflow(by: 2)
        let length = max(overflow ? .max : doubled, Self.minimumMappingLength)
        guard length <= UInt64(Int.max) else {
            mappingUnavailable = true
            return
        }
        do {
            mapping = try FileMapping.map(descriptor, length: Int(length), path: path)
        } catch {
            mappingUnavailable = true
        }
    }

    /// Ends the mapping; the caller holds the write side of `stateLock` (or has the handle to
    /// itself).
    func unmapFile() {
        // Unmapped when the last reader holding it lets go (`withValue` may hold it).
        mapping = nil
    }

    /// The log's `count` bytes at `offset` where they are in memory already, without a copy:
    /// in the write buffer or a staging area (not yet in the file, §12.7) or in the mapping
    /// (``mappedRecord(at:length:)``); nil otherwise. Caller holds the read lock or the writer
    /// lock.
    func bytesInMemory(at offset: UInt64, count: Int) -> UnsafeRawPointer? {
        if offset >= flushedLength {
            var start = Int(offset - flushedLength)
            if start < olderCount {
                guard start + count <= olderCount else { return nil }
                return UnsafeRawPointer(olderBuffer + start)
            }
            start -= olderCount
            guard start + count <= bufferedCount else { return nil }
            return UnsafeRawPointer(buffer + start)
        }
        return mappedRecord(at: offset, length: UInt64(count))
    }

    /// The mapped bytes of the record at `offset`, `length` bytes long, when the mapping covers
    /// them and they lie below ``mappedReadLimit`` (in the file, and for a read-only handle
    /// where no writer cuts the file back); nil otherwise. Caller holds the read lock.
    @inline(__always)
    func mappedRecord(at offset: UInt64, length: UInt64) -> UnsafeRawPointer? {
        guard let mapping else { return nil }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= mappedReadLimit, end <= UInt64(mapping.length) else { return nil }
        return mapping.base + Int(offset)
    }

    /// For a read-only handle: the length below which no writer cuts the file back, so a
    /// mapped read never meets the end of the file (`Spec/store.md` §8.2). With a coordination
    /// file that names this log, what the writers published (a shared writer cuts back only
    /// what it has not published, §12.3); otherwise what the log's sync mark says a
    /// synchronize made durable (a writer cuts back only a write that failed, after
    /// everything it synchronized, §8.4, and open cuts only a torn tail, §5.3). Reads the sync
    /// mark (file I/O): call it outside the state lock.
    func readerReadLimit(flushed: UInt64, generation: UInt64) -> UInt64 {
        if let coordination, let published = coordination.published,
            published.generation == generation
        {
            return min(flushed, published.length)
        }
        return min(flushed, loadSyncMark(generation: generation) ?? 0)
    }
}
