#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

/// The sync mark (`<log>.sync`, `Spec/store.md` §4.1): how much of the log a `synchronize()`
/// had made durable, so that open tells a write torn by a power cut (after the mark) from damage
/// to synchronized data (before it).
enum SyncMarkFormat {
    /// `89 49 43 53 59 4E 43 0A`: a high-bit byte, "ICSYNC", LF.
    static let magic: [UInt8] = [0x89, 0x49, 0x43, 0x53, 0x59, 0x4E, 0x43, 0x0A]
    /// Magic, generation, length, checksum: one sector, so a write of it is never torn apart.
    static let size = 32
}

extension LogStore {
    var syncMarkPath: String { path + ".sync" }

    /// The length the sync mark vouches for when it exists, passes its checksum and names this
    /// log's generation; nil otherwise. Every field is untrusted.
    func loadSyncMark(generation: UInt64) -> UInt64? {
        guard let fd = try? FileSystem.open(syncMarkPath, .readOnly, options: .noFollow) else { return nil }
        defer { FileSystem.close(fd) }
        return withUnsafeTemporaryAllocation(byteCount: SyncMarkFormat.size, alignment: 8) {
            bytes -> UInt64? in
            guard (try? FileSystem.read(fd, into: bytes, at: 0, path: syncMarkPath)) == SyncMarkFormat.size
            else {
                return nil
            }
            let mark = UnsafeRawBufferPointer(bytes)
            guard (0..<8).allSatisfy({ mark[$0] == SyncMarkFormat.magic[$0] }),
                XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: mark[0..<24]))
                    == RecordFormat.load(at: 24, from: mark),
                RecordFormat.load(at: 8, from: mark) as UInt64 == generation
            else { return nil }
            let length: UInt64 = RecordFormat.load(at: 16, from: mark)
            return length >= UInt64(RecordFormat.fileHeaderSize) ? length : nil
        }
    }

    /// Records that the log of `generation` is durable up to `length`: called only after an
    /// fdatasync covering those bytes returned. The mark itself is not synchronized: it is a
    /// lower bound that reaches the disk with the next synchronization or by writeback, and a
    /// lost or stale mark only widens the part of the log open checks in full (§5.3). So a
    /// failure to write it is not an error of the caller's. `durable` synchronizes it too: after
    /// a compaction, whose new log has no mark yet and may carry damaged records (§7.1), that
    /// open must not take for a torn tail.
    func writeSyncMark(length: UInt64, generation: UInt64, durable: Bool = false) {
        guard syncMarkLength != length || syncMarkGeneration != generation else { return }
        if syncMarkDescriptor < 0 {
            guard
                let fd = try? FileSystem.open(syncMarkPath, .readWrite, options: [.create, .noFollow])
            else { return }
            syncMarkDescriptor = fd
        }
        let written = withUnsafeTemporaryAllocation(byteCount: SyncMarkFormat.size, alignment: 8) {
            bytes -> Bool in
            for position in 0..<8 { bytes[position] = SyncMarkFormat.magic[position] }
            RecordFormat.store(generation, at: 8, in: bytes)
            RecordFormat.store(length, at: 16, in: bytes)
            RecordFormat.store(
                XXH3.checksum(of: UnsafeRawBufferPointer(rebasing: bytes[0..<24])), at: 24, in: bytes)
            return
                (try? FileSystem.write(
                    syncMarkDescriptor, UnsafeRawBufferPointer(bytes), at: 0, path: syncMarkPath)) != nil
        }
        if written {
            syncMarkLength = length
            syncMarkGeneration = generation
            if durable {
                try? FileSystem.synchronizeData(
                    syncMarkDescriptor, path: syncMarkPath, mode: options.flushMode)
            }
        }
    }

    /// Closes the mark's descriptor (with the store's).
    func closeSyncMark() {
        if syncMarkDescriptor >= 0 { FileSystem.close(syncMarkDescriptor) }
        syncMarkDescriptor = -1
    }
}
