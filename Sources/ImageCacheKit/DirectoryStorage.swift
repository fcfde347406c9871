#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

/// The `directory` backend (`Spec/backends.md` §3): one file per entry plus an index file.
///
/// Layout under the cache folder:
///
///     index                 the index file (§3.3), replaced atomically by synchronize()
///     entries/<name>        one entry file per key (§3.2); <name> is the lowercase hex
///                           SHA-256 of the key's bytes (§1.2)
///     entries/.tmp-*        temporary files, renamed into place or deleted
final class DirectoryStorage: CacheStorage, @unchecked Sendable {
    static let indexName = "index"
    static let entriesName = "entries"
    static let entryMagic = Array("ICENTR02".utf8)
    /// An entry file whose record carries user metadata (`Spec/backends.md` §1.9, §3.2).
    static let userMetadataEntryMagic = Array("ICENTR03".utf8)
    static let indexMagic = Array("ICINDX01".utf8)
    static let indexVersion: UInt32 = 2
    /// An index whose entries carry user metadata (§3.3); written only when one has some.
    static let userMetadataIndexVersion: UInt32 = 3
    /// An index of this version belongs to format 1 (CRC-32 records, `Spec/backends.md` §6).
    static let formatOneIndexVersion: UInt32 = 1

    struct Entry: TableEntry {
        var byteCount: Int
        var metadata: CacheEntryMetadata
        var version: UInt64
        /// The current user metadata (`Spec/cache.md` §13), which the index records.
        var userMetadata: [UInt8] = []
        /// How many bytes of user metadata the entry file holds (what it was stored with), which
        /// decides its size (§3.4).
        var fileUserMetadataLength = 0
    }

    let directory: String
    let indexPath: String
    let entriesPath: String
    let readOnly: Bool
    let mode: FlushMode
    /// `entries/`, opened without following links; nil for a reader whose folder is missing.
    let entriesFolder: Directory?
    /// Entry files written, and names changed, since the last synchronize() (a writer's only).
    let entryFiles: PendingFiles?

    let table = EntryTable<Entry>()
    // Touched only by the writer.
    /// Originals whose variants were removed since the last synchronize(): their next value
    /// must not become durable before those removals (§8.5).
    private var originalsWithRemovedVariants: Set<[UInt8]> = []

    init(directory: String, readOnly: Bool, mode: FlushMode) throws(CacheError) {
        self.directory = directory
        self.readOnly = readOnly
        self.mode = mode
        indexPath = directory + "/" + Self.indexName
        let entriesPath = directory + "/" + Self.entriesName
        self.entriesPath = entriesPath
        let entriesFolder = try openSubfolder(entriesPath, creating: !readOnly)
        self.entriesFolder = entriesFolder
        entryFiles = readOnly ? nil : entriesFolder.map { PendingFiles(folder: $0, mode: mode) }
        try load()
        // A reader loads the index and the folder again when the writer replaced the index (§1.5).
        if readOnly {
            table.follow(directory + "/" + Self.indexName) { [unowned self] () throws(CacheError) in
                try load()
            }
        }
    }

    func takeChanges() throws(CacheError) -> [StorageChange] { table.takeReload() }

    /// The entry file name for a key (`Spec/backends.md` §1.2).
    static func fileName(forKey key: [UInt8]) -> String {
        SHA256.hexDigest(key)
    }

    static func isEntryFileName(_ name: String) -> Bool {
        name.utf8.count == 64 && FileNames.isLowercaseHex(name.utf8)
    }

    /// The size of an entry file holding a key of `keyLength` bytes, a value of `valueLength`
    /// and `userMetadataLength` bytes of user metadata (a format-3 file when not 0).
    static func entryFileSize(keyLength: Int, valueLength: Int, userMetadataLength: Int = 0) -> UInt64 {
        userMetadataLength == 0
            ? UInt64(entryMagic.count + EntryRecord.overhead) + UInt64(keyLength) + UInt64(valueLength)
            : UInt64(entryMagic.count + EntryRecord.userMetadataOverhead) + UInt64(keyLength)
                + UInt64(userMetadataLength) + UInt64(valueLength)
    }

    // MARK: Open (§3.4)

    private func load() throws(CacheError) {
        let indexed = try readIndex()
        var byName: [String: (key: [UInt8], entry: Entry)] = [:]
        for (key, entry) in indexed?.entries ?? [] { byName[Self.fileName(forKey: key)] = (key, entry) }
        var loaded: [[UInt8]: Entry] = [:]
        var changed = indexed == nil
        // §3.4: a folder last changed before the index was written holds every indexed file as
        // the index describes it (entry files are only ever created, renamed and removed), so
        // the per-file check is skipped. Read before the listing: a later change is not seen.
        let folderTime = try cacheIO { () throws(SystemCallError) in
            try entriesFolder?.status().modificationTime
        }
        let folderPredatesIndex =
            if let folderTime, let indexTime = indexed?.modificationTime { folderTime < indexTime } else {
                false
            }
        for item in try cacheIO({ () throws(SystemCallError) in try entriesFolder?.entries() ?? [] }) {
            guard item.kind == .regular, Self.isEntryFileName(item.name) else {
                // Leftover temporary files, and anything that is not a plain entry file (a
                // link is removed itself, never followed; a folder is left alone), §1.6.
                if !readOnly && item.kind != .directory {
                    try cacheIO { () throws(SystemCallError) in try entriesFolder?.removeFile(item.name) }
                }
                continue
            }
            if let (key, entry) = byName.removeValue(forKey: item.name) {
                if folderPredatesIndex {
                    loaded[key] = entry
                    continue
                }
                let status = try cacheIO { () throws(SystemCallError) in
                    try entriesFolder?.status(of: item.name)
                }
                let expectedSize = Self.entryFileSize(
                    keyLength: key.count, valueLength: entry.byteCount,
                    userMetadataLength: entry.fileUserMetadataLength)
                if let status, let indexTime = indexed?.modificationTime, status.size == expectedSize,
                    status.modificationTime < indexTime
                {
                    loaded[key] = entry
                    continue
                }
                // Written at or after the index: the file may hold a newer store than the index
                // describes (a crash before the next synchronize). The file is the truth.
                if let record = try readEntryFile(item.name), record.key == key {
                    // Spec/backends.md §3.4: the store the index describes when only hits
                    // followed it (they keep createdAt and only raise the sequence; a later
                    // store takes a larger one). Timestamps are too coarse to tell alone: a file
                    // written in the index's clock tick would otherwise lose the hits' metadata.
                    let sameStore =
                        record.value.count == entry.byteCount
                        && record.metadata.createdAt == entry.metadata.createdAt
                        && record.metadata.accessSequence <= entry.metadata.accessSequence
                    loaded[key] =
                        sameStore
                        ? entry
                        : Entry(
                            byteCount: record.value.count, metadata: record.metadata, version: 0,
                            userMetadata: record.userMetadata,
                            fileUserMetadataLength: record.userMetadata.count)
                    changed = changed || !sameStore
                } else {
                    // Unreadable: held as indexed, so the read that finds it reports it (§8.2).
                    loaded[key] = entry
                }
                continue
            }
            // A file the index does not know: written after the last synchronize().
            changed = true
            if let record = try readEntryFile(item.name), Self.fileName(forKey: record.key) == item.name {
                loaded[record.key] = Entry(
                    byteCount: record.value.count, metadata: record.metadata, version: 0,
                    userMetadata: record.userMetadata, fileUserMetadataLength: record.userMetadata.count)
            } else if !readOnly {
                // No key can be attributed to damaged bytes; nothing references them.
                try cacheIO { () throws(SystemCallError) in try entriesFolder?.removeFile(item.name) }
            }
        }
        // Index entries whose files are gone were removed after the last index write.
        if !byName.isEmpty { changed = true }
        table.load(loaded, dirty: changed && !readOnly)
    }

    /// An entry file's record when it is a well-formed entry file with an intact value.
    private func readEntryFile(_ name: String) throws(CacheError) -> EntryRecord? {
        let bytes: [UInt8]?
        do {
            bytes = try entriesFolder?.readFile(name)
        } catch {
            if error.errno == .tooManySymbolicLinks { return nil }
            throw CacheError(error)
        }
        guard let bytes, case .record(let record, valueIsIntact: true)? = Self.decodeEntryFile(bytes) else {
            return nil
        }
        return record
    }

    /// The index entries and the index file's modification time, or nil when the index is
    /// missing or damaged (then the entry files are the truth, §3.4).
    private func readIndex() throws(CacheError) -> (entries: [([UInt8], Entry)], modificationTime: Int64)? {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: indexPath)
        } catch {
            throw CacheError(error)
        }
        let status = try cacheIO { () throws(SystemCallError) in try FileSystem.status(ofPath: indexPath) }
        guard let bytes, bytes.count >= 24, let status else { return nil }
        let storedChecksum = bytes.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        guard XXH3.checksum(of: bytes[0..<bytes.count - 8]) == storedChecksum else { return nil }
        var reader = ByteReader(Array(bytes[0..<bytes.count - 8]))
        guard let magic = reader.readBytes(8), Array(magic) == Self.indexMagic,
            let version = reader.read(UInt32.self), let count = reader.read(UInt32.self)
        else { return nil }
        guard version == Self.indexVersion || version == Self.userMetadataIndexVersion else {
            throw .unsupportedFormatVersion(path: indexPath, version: version)
        }
        let withUserMetadata = version == Self.userMetadataIndexVersion
        var result: [([UInt8], Entry)] = []
        // Each entry takes at least 37 bytes: a count beyond that cannot be real.
        result.reserveCapacity(min(Int(count), reader.remaining / 37))
        for _ in 0..<count {
            guard let keyLength = reader.read(UInt32.self), let valueLength = reader.read(UInt64.self),
                let createdAt = reader.read(Int64.self), let expiresAt = reader.read(Int64.self),
                let accessSequence = reader.read(UInt64.self), (1...65_535).contains(keyLength),
                let keyBytes = reader.readBytes(Int(keyLength)), valueLength <= UInt64(Int.max)
            else { return nil }
            var entry = Entry(
                byteCount: Int(valueLength),
                metadata: CacheEntryMetadata(
                    createdAt: createdAt, expiresAt: expiresAt, accessSequence: accessSequence),
                version: 0)
            if withUserMetadata {
                // §3.3, version 3: the entry file's user-metadata length, then the current bytes.
                let limit = UInt32(ImageCache.maximumUserMetadataByteCount)
                guard let fileLength = reader.read(UInt32.self), fileLength <= limit,
                    let length = reader.read(UInt32.self), length <= limit,
                    let bytes = reader.readBytes(Int(length))
                else { return nil }
                entry.fileUserMetadataLength = Int(fileLength)
                entry.userMetadata = Array(bytes)
            }
            result.append((Array(keyBytes), entry))
        }
        return reader.remaining == 0 ? (result, status.modificationTime) : nil
    }

    static func decodeEntryFile(_ bytes: [UInt8]) -> EntryRecord.Decoded? {
        var reader = ByteReader(bytes)
        guard let magic = reader.readBytes(8) else { return nil }
        let decoded: EntryRecord.Decoded
        switch Array(magic) {
        case entryMagic: decoded = EntryRecord.decode(from: &reader)
        case userMetadataEntryMagic: decoded = EntryRecord.decode(from: &reader, withUserMetadata: true)
        default: return nil
        }
        return reader.remaining == 0 ? decoded : .unreadable(reason: "bytes after the record")
    }

    // MARK: Reads

    var entryCount: Int { table.count }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? { try table.state(forKey: key) }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        try table.forEachEntry(body)
    }

    /// Reads the entry file whole, outside any lock: a missing file, a link, a wrong magic, an
    /// unreadable record, bytes after it, another key or a damaged value is a corrupt entry
    /// (§3.5).
    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? {
        guard let entry = try table.entry(forKey: key) else { return nil }
        let fileName = Self.fileName(forKey: key)
        let shownKey = displayKey(key)
        let bytes: [UInt8]?
        do {
            bytes = try entriesFolder?.readFile(fileName)
        } catch {
            if error.errno == .tooManySymbolicLinks {
                throw .corruptEntry(key: shownKey, reason: "entry file \(fileName) is a symbolic link")
            }
            throw CacheError(error)
        }
        guard let bytes else {
            if readOnly {
                // The writer removed it and has not written its index since: a miss (§1.5).
                table.followWriter(force: true)
                return nil
            }
            throw .corruptEntry(key: shownKey, reason: "entry file \(fileName) is missing")
        }
        switch Self.decodeEntryFile(bytes) {
        case nil:
            throw .corruptEntry(key: shownKey, reason: "entry file \(fileName) has a bad magic number")
        case .unreadable(let reason)?:
            throw .corruptEntry(key: shownKey, reason: "entry file \(fileName): \(reason)")
        case .record(let record, let valueIsIntact)?:
            guard record.key == key else {
                throw .corruptEntry(key: shownKey, reason: "entry file \(fileName) holds another key")
            }
            guard valueIsIntact else {
                throw .corruptEntry(key: shownKey, reason: "entry file \(fileName): value checksum mismatch")
            }
            return StoredValue(bytes: record.value, metadata: entry.metadata, version: entry.version)
        }
    }

    // MARK: Mutations (the cache's one writer)

    /// §8.5: a file that replaces one a durable index names gets its content synchronized
    /// before the rename, so a power cut leaves the old value or the new one, never a name
    /// without its data; a new file is synchronized with the next synchronize().
    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError) {
        let fileName = Self.fileName(forKey: key)
        var writer = ByteWriter(
            capacity: 8 + EntryRecord.userMetadataOverhead + key.count + userMetadata.count + value.count)
        // The user metadata goes into the entry file with the value: one rename makes both
        // durable (§3.2). Without any, the file stays format 2.
        writer.append(userMetadata.isEmpty ? Self.entryMagic : Self.userMetadataEntryMagic)
        EntryRecord.encode(
            key: key, value: value, metadata: metadata,
            userMetadata: userMetadata.isEmpty ? nil : userMetadata, into: &writer)
        // Files are independent here, so the cache's order (variants removed, original written,
        // variant written) must be made durable where it matters, or a power cut could pair a
        // variant with another value of its original (`Spec/thumbnail.md` §5.5): a variant is
        // written only once its original and every earlier removal are durable, and an
        // original only once the removal of its old variants is.
        if VariantKey.isVariant(key) || originalsWithRemovedVariants.contains(key) {
            try makePendingChangesDurable()
        }
        let replacesDurableFile =
            try table.entry(forKey: key) != nil && entryFiles?.isUnsynchronized(fileName) == false
        try cacheIO { () throws(SystemCallError) in
            try withBytes(of: writer.bytes) { (bytes) throws(SystemCallError) in
                try FileSystem.writeFileAtomically(
                    bytes, to: entriesPath + "/" + fileName,
                    replacesDurableFile ? .contentFirst : .unsynchronized,
                    mode: mode)
            }
        }
        if replacesDurableFile {
            entryFiles?.noteNamed(fileName)
        } else {
            entryFiles?.noteWritten(fileName)
        }
        table.set(
            Entry(
                byteCount: value.count, metadata: metadata, version: table.takeVersion(),
                userMetadata: userMetadata,
                fileUserMetadataLength: userMetadata.count),
            forKey: key)
    }

    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]? {
        try table.entry(forKey: key)?.userMetadata
    }

    /// The index records it (§3.3); the entry file keeps the user metadata it was stored with.
    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool {
        table.setUserMetadata(userMetadata, forKey: key)
    }

    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {
        table.updateMetadata(updates)
    }

    func remove(_ key: [UInt8]) throws(CacheError) {
        let fileName = Self.fileName(forKey: key)
        try cacheIO { () throws(SystemCallError) in try entriesFolder?.removeFile(fileName) }
        // The index that no longer names it must not be durable before the removal (§8.5).
        entryFiles?.noteRemoved(fileName, mustPersist: true)
        if let variant = VariantKey(key) { originalsWithRemovedVariants.insert(variant.original) }
        table.remove(key)
    }

    func removeAll() throws(CacheError) {
        table.removeAll()
        // The empty index goes first, so a crash part-way leaves files the next open removes.
        try synchronize()
        try removeUnreferencedFiles()
    }

    /// Makes the entry files written since the last call, and every creation, replacement and
    /// removal in `entries/`, durable; then writes the index (§3.3, §8.5).
    func synchronize() throws(CacheError) {
        guard !readOnly else { return }
        try makePendingChangesDurable()
        guard table.isDirty else { return }
        let index = encodedIndex()
        try cacheIO { () throws(SystemCallError) in
            try withBytes(of: index) { (bytes) throws(SystemCallError) in
                try FileSystem.writeFileAtomically(bytes, to: indexPath, .durable, mode: mode)
            }
        }
        table.isDirty = false
    }

    private func makePendingChangesDurable() throws(CacheError) {
        try cacheIO { () throws(SystemCallError) in try entryFiles?.makeDurable() }
        originalsWithRemovedVariants.removeAll()
    }

    /// The index file (§3.3); entries in ascending key byte order.
    func encodedIndex() -> [UInt8] {
        let entries = table.writerSnapshot
        var writer = ByteWriter(capacity: 24 + entries.count * 64)
        // Version 2 while no entry or entry file has user metadata (§3.3).
        let withUserMetadata = entries.values.contains {
            !$0.userMetadata.isEmpty || $0.fileUserMetadataLength > 0
        }
        writer.append(Self.indexMagic)
        writer.append(withUserMetadata ? Self.userMetadataIndexVersion : Self.indexVersion)
        writer.append(UInt32(entries.count))
        for (key, entry) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            writer.append(UInt32(key.count))
            writer.append(UInt64(entry.byteCount))
            writer.append(entry.metadata.createdAt)
            writer.append(entry.metadata.expiresAt)
            writer.append(entry.metadata.accessSequence)
            writer.append(key)
            if withUserMetadata {
                writer.append(UInt32(entry.fileUserMetadataLength))
                writer.append(UInt32(entry.userMetadata.count))
                writer.append(entry.userMetadata)
            }
        }
        writer.append(XXH3.checksum(of: writer.bytes))
        return writer.bytes
    }

    func compact(now: Int64) throws(CacheError) {
        try removeUnreferencedFiles()
        try synchronize()
    }

    /// Deletes files in `entries/` that no entry names (links and temporary files included;
    /// a folder is left alone), and leftover temporary index files (§3.5).
    func removeUnreferencedFiles() throws(CacheError) {
        guard !readOnly, let entriesFolder else { return }
        let referenced = Set(table.writerSnapshot.keys.map(Self.fileName))
        for item in try cacheIO({ () throws(SystemCallError) in try entriesFolder.entries() })
        where item.kind != .directory && (item.kind != .regular || !referenced.contains(item.name)) {
            try cacheIO { () throws(SystemCallError) in try entriesFolder.removeFile(item.name) }
        }
        try removeLeftoverTemporaryFiles(of: Self.indexName, in: directory)
    }

    func close() throws(CacheError) {
        try synchronize()
        table.close()
    }

}
