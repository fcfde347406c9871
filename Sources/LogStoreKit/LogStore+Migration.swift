#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Rewrites a format-1 store as format 2 under the same path (`Spec/store.md` §11.2), the
    /// way compaction replaces a log: the live entries go, as format-2 put records with their
    /// current metadata, into `<log>.compacting`, which is synchronized and renamed over the
    /// log. A crash at any point leaves the old store or the new one, both complete.
    ///
    /// Each value is read once: its record CRC-32 checks the old record, and its record
    /// checksum completes the new one. A value whose old record fails its CRC-32 is written with
    /// the complement of its checksum, so the damage stays detectable instead of being blessed.
    /// The caller holds the store's lock and opens the store again afterwards.
    func migrateFromFormat1(_ header: RecordFormat.FileHeader, fileSize: UInt64) throws(LogStoreError) {
        var report = RecoveryReport(
            usedSnapshot: false, scannedRecords: 0, tailOffset: nil, discardedBytes: 0)
        let end = try scan(
            from: UInt64(RecordFormat.fileHeaderSize), fileSize: fileSize, durableLength: .max,
            knownTypesOnly: header.minor == 0, legacy: true, report: &report)
        let live = liveEntriesInFileOrder()

        let temporary = compactionPath
        try storeIO { try FileSystem.remove(temporary) }
        let newDescriptor = try storeIO {
            try FileSystem.open(temporary, .readWrite, options: .exclusiveCreate)
        }
        var renamed = false
        defer {
            FileSystem.close(newDescriptor)
            if !renamed { try? FileSystem.remove(temporary) }
        }
        let appender = FileAppender(descriptor: newDescriptor, path: temporary)
        let newGeneration = UInt64.random(in: 1...UInt64.max)
        try withUnsafeTemporaryAllocation(byteCount: RecordFormat.fileHeaderSize, alignment: 8) {
            (bytes) throws(LogStoreError) in
            RecordFormat.encodeFileHeader(generation: newGeneration, into: bytes)
            try appender.append(UnsafeRawBufferPointer(bytes))
        }
        let reader = WindowedReader(descriptor: descriptor, path: path, end: end)
        let oldHead = UnsafeMutableRawBufferPointer.allocate(
            byteCount: LegacyRecordFormat.recordHeaderSize + RecordFormat.maximumKeyLength, alignment: 8)
        let newHead = UnsafeMutableRawBufferPointer.allocate(
            byteCount: RecordFormat.recordHeaderSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer {
            oldHead.deallocate()
            newHead.deallocate()
        }
        for (number, entry) in live {
            let headLength = LegacyRecordFormat.recordHeaderSize + Int(entry.keyLength)
            try reader.copy(entry.offset, count: headLength, into: oldHead.baseAddress!)
            let declared = LegacyRecordFormat.decodeHeader(UnsafeRawBufferPointer(oldHead)).recordChecksum
            // Pass 1 over the value: both checksums.
            var crc = CRC32()
            crc.update(UnsafeRawBufferPointer(rebasing: oldHead[4..<headLength]))
            var checksum = XXH3()
            try reader.read(entry.offset + UInt64(headLength), count: entry.valueLength) { piece in
                crc.update(piece)
                checksum.update(piece)
            }
            let valueChecksum = crc.value == declared ? checksum.value : ~checksum.value
            RecordFormat.encodeHead(
                type: .put, key: index.key(at: number), valueLength: entry.valueLength,
                valueChecksum: valueChecksum, metadata: entry.metadata, into: newHead.baseAddress!)
            try appender.append(
                UnsafeRawBufferPointer(
                    rebasing: newHead[..<(RecordFormat.recordHeaderSize + Int(entry.keyLength))]))
            // Pass 2: the bytes themselves, from the reader's window (or the page cache).
            try reader.read(entry.offset + UInt64(headLength), count: entry.valueLength) {
                piece throws(LogStoreError) in
                try appender.append(piece)
            }
        }
        try appender.flush()
        try storeIO {
            try FileSystem.synchronizeFile(newDescriptor, path: temporary, mode: options.flushMode)
        }
        try storeIO { try FileSystem.rename(temporary, to: path) }
        renamed = true
        do {
            try storeIO {
                try FileSystem.synchronizeDirectory(FileSystem.directory(of: path), mode: options.flushMode)
            }
        } catch {
            // The new log's name may not be durable, and an open made again would find it
            // migrated and synchronize no folder: the open goes on in doubt instead (§8.3).
            logDataInDoubt = true
        }
        // The migrated log is synchronized whole; its damaged records (complemented checksums)
        // are synchronized data, not a torn tail (§5.3).
        writeSyncMark(length: appender.length, generation: newGeneration, durable: true)
        closeSyncMark()
        // A format-1 snapshot describes the old file; the new generation already rules it out.
        try? FileSystem.remove(snapshotPath)
    }
}
