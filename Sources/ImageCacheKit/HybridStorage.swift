#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import LogStoreKit
    import Platform
#endif

/// The `hybrid` backend (`Spec/backends.md` §5): values below the threshold live in a log
/// store, larger values in files beside it that log records reference, like Core Data's
/// external storage.
///
/// Layout under the cache folder:
///
///     hybrid.log               the LogStore; each value starts with a tag byte (§5.2)
///     external/<name>          one file per large value: the value's bytes, nothing else;
///                              <name> = hex SHA-256 of the key, "-", 16 hex digits of the
///                              accessSequence the value was stored with
///     external/.tmp-*          temporary files
final class HybridStorage: CacheStorage, @unchecked Sendable {
    static let logName = "hybrid.log"
    static let externalName = "external"
    static let inlineTag: UInt8 = 0
    /// The tag of a reference (tag 1 was format 1's, with a CRC-32: `Spec/backends.md` §6).
    static let externalTag: UInt8 = 2
    /// Tag, length, checksum and an 81-character name: every reference is this long.
    static let referenceLength = 1 + 8 + 8 + 81

    struct Reference: Equatable {
        var length: UInt64
        var checksum: UInt64
        var name: String
        /// The size the entry counts with (`Spec/backends.md` §5.6): the length, unless open
        /// found the file missing or of another size. Not part of the encoding.
        var byteCount: Int

        var encoded: [UInt8] {
            var writer = ByteWriter(capacity: HybridStorage.referenceLength)
            writer.append(HybridStorage.externalTag)
            writer.append(length)
            writer.append(checksum)
            writer.append(name.utf8)
            return writer.bytes
        }

        init(length: UInt64, checksum: UInt64, name: String) {
            self.length = length
            self.checksum = checksum
            self.name = name
            byteCount = Int(clamping: length)
        }

        /// Parses a log value; nil unless it is a well-formed reference.
        init?(_ bytes: [UInt8]) {
            guard bytes.count == HybridStorage.referenceLength, bytes[0] == HybridStorage.externalTag else {
                return nil
            }
            var reader = ByteReader(bytes, offset: 1)
            guard let length = reader.read(UInt64.self), let checksum = reader.read(UInt64.self),
                let nameBytes = reader.readBytes(81), HybridStorage.isExternalFileName(nameBytes)
            else { return nil }
            self.init(length: length, checksum: checksum, name: String(decoding: nameBytes, as: UTF8.self))
        }
    }

    let directory: String
    let externalPath: String
    let threshold: Int
    let readOnly: Bool
    let log: LogStorage
    /// The external folder, opened without following links; nil for a reader whose folder is
    /// missing (every reference then reads as missing).
    let external: Directory?
    /// External files written since they were last made durable (a writer's only). The log
    /// makes them durable before any record can reach its file (§8.6).
    let externalFiles: PendingFiles?

    // Guarded by `lock`; mutated only by the cache's one writer.
    private let lock = ReadWriteLock()
    /// The reference of every entry stored outside the log.
    private var references: [[UInt8]: Reference] = [:]
    // Touched only by the writer.
    /// External files that records appended since the last synchronize() stopped referencing.
    /// They are deleted only once those records are durable (§5.3): a crash before then
    /// reopens the log as it was synchronized, still naming them.
    private var supersededFiles: [String] = []

    /// Whether other processes write the folder too (`Spec/backends.md` §9).
    let shared: Bool

    init(
        directory: String, threshold: Int, readOnly: Bool, mode: FlushMode, sharing: LogStore.Sharing? = nil
    ) throws(CacheError) {
        shared = sharing != nil
        self.directory = directory
        self.threshold = threshold
        self.readOnly = readOnly
        let externalPath = directory + "/" + Self.externalName
        self.externalPath = externalPath
        let external = try openSubfolder(externalPath, creating: !readOnly)
        self.external = external
        let externalFiles = readOnly ? nil : external.map { PendingFiles(folder: $0, mode: mode) }
        self.externalFiles = externalFiles
        // No record that names an external file reaches the log's file before that file is
        // durable: not at a flush of the write buffer, not at a compaction (§8.6).
        var hook: (@Sendable () throws(SystemCallError) -> Void)?
        if let externalFiles {
            hook = { () throws(SystemCallError) in try externalFiles.makeDurable() }
        }
        log = try LogStorage(
            directory: directory, fileName: Self.logName, readOnly: readOnly, mode: mode,
            willWriteRecords: hook, sharing: sharing)
        try loadReferences()
    }

    static func externalFileName(forKey key: [UInt8], accessSequence: UInt64) -> String {
        let digits = String(accessSequence, radix: 16)
        return SHA256.hexDigest(key) + "-" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func isExternalFileName<Bytes: Collection>(_ name: Bytes) -> Bool where Bytes.Element == UInt8 {
        // The key's name (§1.2), "-", then 16 hex digits of the access sequence.
        guard name.count == 81 else { return false }
        let dash = name.index(name.startIndex, offsetBy: 64)
        return name[dash] == 0x2D && FileNames.isLowercaseHex(name[..<dash])
            && FileNames.isLowercaseHex(name[name.index(after: dash)...])
    }

    /// The size of the regular file `name` in `external/`, or nil when it is missing or is not
    /// a regular file (a link is never followed).
    private func externalFileSize(_ name: String) throws(CacheError) -> Int? {
        guard let status = try cacheIO({ () throws(SystemCallError) in try external?.status(of: name) }),
            status.kind == .regular
        else {
            return nil
        }
        return Int(clamping: status.size)
    }

    /// Reads the log values exactly one reference long, the only ones that can be references,
    /// and counts each with the size of its file: a hostile or damaged reference must not make
    /// the cache's totals (and so its evictions) believe in bytes that are not there.
    private func loadReferences() throws(CacheError) {
        var candidates: [[UInt8]] = []
        try log.forEachEntry { key, state in
            if state.byteCount == Self.referenceLength { candidates.append(Array(key)) }
        }
        var loaded: [[UInt8]: Reference] = [:]
        for key in candidates { loaded[key] = try reference(forKey: key) }
        lock.withWriteLock { references = loaded }
    }

    /// The reference the log holds for `key`, counted with its file's size, or nil when its
    /// value is inline (or gone).
    private func reference(forKey key: [UInt8]) throws(CacheError) -> Reference? {
        do {
            guard let raw = try log.storedValue(key), var reference = Reference(raw.value) else { return nil }
            reference.byteCount = try externalFileSize(reference.name) ?? 0
            return reference
        } catch {
            // A damaged record is reported when the entry is read (Spec/cache.md §8.2).
            guard case .corruptEntry = error else { throw error }
            return nil
        }
    }

    // MARK: Sharing (`Spec/backends.md` §9)

    func withExclusiveAccess<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError) -> Result {
        try log.withExclusiveAccess(body)
    }

    func withExclusiveAccessIfAvailable<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError)
        -> Result?
    {
        try log.withExclusiveAccessIfAvailable(body)
    }

    var sharedSequence: UInt64 {
        get { log.sharedSequence }
        set { log.sharedSequence = newValue }
    }

    /// The log's changes, with the sizes of external values, and the references they bring.
    func takeChanges() throws(CacheError) -> [StorageChange] {
        var translated: [StorageChange] = []
        for change in try log.takeChanges() {
            switch change {
            case .reloaded:
                try loadReferences()
                translated.append(.reloaded)
            case .cleared:
                lock.withWriteLock { references.removeAll() }
                translated.append(.cleared)
            case .entry(let key, let before, let after):
                let previous = lock.withReadLock { references[key] }
                let current = after?.byteCount == Self.referenceLength ? try reference(forKey: key) : nil
                lock.withWriteLock { references[key] = current }
                func translate(_ state: EntryState, _ reference: Reference?) -> EntryState {
                    key.withUnsafeBytes { self.state($0, state, reference.map { [key: $0] } ?? [:]) }
                }
                let beforeState = before.map { translate($0, previous) }
                let afterState = after.map { translate($0, current) }
                translated.append(.entry(key: key, before: beforeState, after: afterState))
            }
        }
        return translated
    }

    // MARK: Reads

    var entryCount: Int { log.entryCount }

    /// The entry's state from its log record: the size of an external value is its
    /// reference's length, an inline value's is one less than the log value (the tag).
    private func state(
        _ key: UnsafeRawBufferPointer, _ logState: EntryState, _ references: [[UInt8]: Reference]
    )
        -> EntryState
    {
        var state = logState
        if logState.byteCount == Self.referenceLength, let reference = references[Array(key)] {
            state.byteCount = reference.byteCount
        } else {
            state.byteCount = max(logState.byteCount - 1, 0)
        }
        return state
    }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? {
        guard let logState = try log.state(forKey: key) else { return nil }
        return key.withUnsafeBytes { keyBytes in
            lock.withReadLock { state(keyBytes, logState, references) }
        }
    }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        try lock.withReadLock { () throws(CacheError) in
            try log.forEachEntry { key, logState in body(key, state(key, logState, references)) }
        }
    }

    /// Reads the value; when its external file is missing or wrong and another process may
    /// have replaced or removed the entry meanwhile (a shared or read-only cache), the entry
    /// is looked up again, caught up, and read once more if it changed: a replaced value reads
    /// as the new one or a miss, never as corrupt (`Spec/backends.md` §9.5).
    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? {
        var version: UInt64?
        do {
            return try readOnce(key, version: &version)
        } catch {
            guard case .corruptEntry = error, shared || readOnly, let first = version else { throw error }
            guard try log.state(forKey: key)?.version != first else { throw error }
            return try readOnce(key, version: &version)
        }
    }

    /// One read; `version` is set to the version of the record it found.
    private func readOnce(_ key: [UInt8], version: inout UInt64?) throws(CacheError) -> StoredValue? {
        guard let (raw, info) = try log.storedValue(key) else { return nil }
        version = info.recordOffset
        let shownKey = displayKey(key)
        guard let tag = raw.first else {
            throw .corruptEntry(key: shownKey, reason: "empty hybrid log value")
        }
        let state = LogStorage.state(info)
        if tag == Self.inlineTag {
            return StoredValue(bytes: Array(raw[1...]), metadata: state.metadata, version: state.version)
        }
        guard let reference = Reference(raw) else {
            throw .corruptEntry(key: shownKey, reason: "malformed hybrid log value (tag \(tag))")
        }
        let bytes: [UInt8]?
        do {
            bytes = try external?.readFile(reference.name)
        } catch {
            throw error.errno == .tooManySymbolicLinks
                ? .corruptEntry(key: shownKey, reason: "external file \(reference.name) is a symbolic link")
                : CacheError(error)
        }
        guard let bytes else {
            throw .corruptEntry(key: shownKey, reason: "external file \(reference.name) is missing")
        }
        guard UInt64(bytes.count) == reference.length, XXH3.checksum(of: bytes) == reference.checksum else {
            throw .corruptEntry(
                key: shownKey, reason: "external file \(reference.name) fails its length or checksum")
        }
        return StoredValue(bytes: bytes, metadata: state.metadata, version: state.version)
    }

    // MARK: Mutations (the cache's one writer)

    /// The user metadata rides in the log record, whether the value is inline or a reference.
    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError) {
        var previous = lock.withReadLock { references[key] }
        if value.count >= threshold {
            let name = Self.externalFileName(forKey: key, accessSequence: metadata.accessSequence)
            if previous?.name == name || supersededFiles.contains(name) {
                // A variant's name repeats (its accessSequence is always 0, `Spec/thumbnail.md`
                // §5.2). The file of that name is first unreferenced, durably, and deleted, so
                // the new file never replaces one a durable record names, nor is deleted as
                // superseded itself (§5.3).
                if previous?.name == name {
                    try remove(key)
                    previous = nil
                }
                try synchronize()
            }
            let path = externalPath + "/" + name
            // The file is in place before any record refers to it (§5.3), and durable before
            // that record can reach the disk (the log's write hook, §8.6).
            try cacheIO { () throws(SystemCallError) in
                try FileSystem.writeFileAtomically(value, to: path, .unsynchronized)
            }
            externalFiles?.noteWritten(name)
            if shared {
                // Another sharing process may write the log's staging area to its file, and
                // synchronize it, before this one does: its write hook knows only its own files
                // (`Spec/backends.md` §9.5).
                try cacheIO { () throws(SystemCallError) in try externalFiles?.makeDurable() }
            }
            let reference = Reference(
                length: UInt64(value.count), checksum: XXH3.checksum(of: value), name: name)
            let encoded = reference.encoded
            try withBytes(of: encoded) { (bytes) throws(CacheError) in
                try log.write(bytes, forKey: key, metadata: metadata, userMetadata: userMetadata)
            }
            lock.withWriteLock { references[key] = reference }
        } else {
            var tagged = [UInt8]()
            tagged.reserveCapacity(value.count + 1)
            tagged.append(Self.inlineTag)
            tagged.append(contentsOf: value)
            try withBytes(of: tagged) { (bytes) throws(CacheError) in
                try log.write(bytes, forKey: key, metadata: metadata, userMetadata: userMetadata)
            }
            lock.withWriteLock { _ = references.removeValue(forKey: key) }
        }
        if let previous { supersededFiles.append(previous.name) }
    }

    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]? {
        try log.userMetadata(forKey: key)
    }

    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool {
        try log.setUserMetadata(userMetadata, forKey: key)
    }

    func applyHits(
        _ hits: HitLog.Batch,
        newMetadata: (_ position: Int, _ current: CacheEntryMetadata) -> CacheEntryMetadata
    ) throws(CacheError) {
        try log.applyHits(hits, newMetadata: newMetadata)
    }

    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {
        try log.updateMetadata(updates)
    }

    func remove(_ key: [UInt8]) throws(CacheError) {
        try log.remove(key)
        if let reference = lock.withWriteLock({ references.removeValue(forKey: key) }) {
            supersededFiles.append(reference.name)
        }
    }

    func removeAll() throws(CacheError) {
        try log.removeAll()
        lock.withWriteLock { references.removeAll() }
        // The clear record must be durable before the files it stops referencing go (§5.3).
        try synchronize()
        try removeUnreferencedFiles()
    }

    /// Makes new external files durable, then the log; then deletes the files the now durable
    /// records stopped referencing (§5.3).
    func synchronize() throws(CacheError) {
        try cacheIO { () throws(SystemCallError) in try externalFiles?.makeDurable() }
        try log.synchronize()
        try publishOwnRecords()
        try deleteSupersededFiles()
    }

    /// Shared, inside a section: publishes the records this section wrote before a file they
    /// stopped naming is deleted. Were this process to die unpublished, the next holder would
    /// cut them, and the records they superseded, which name the file, would be current again
    /// (`Spec/backends.md` §9.5).
    private func publishOwnRecords() throws(CacheError) {
        guard shared else { return }
        try log.publishWrittenRecords()
    }

    /// Deletes the files the durable log no longer names. Their removal need not be durable:
    /// a file that comes back is unreferenced, and the next writable open deletes it (§5.5).
    private func deleteSupersededFiles() throws(CacheError) {
        guard let external else { return }
        // Another process may have stored a file of the same name since (a variant made
        // again): one the current entries name stays.
        let referenced = shared ? lock.withReadLock { Set(references.values.map(\.name)) } : []
        while let name = supersededFiles.last {
            if !referenced.contains(name) {
                try cacheIO { () throws(SystemCallError) in try external.removeFile(name) }
            }
            externalFiles?.noteRemoved(name, mustPersist: false)
            supersededFiles.removeLast()
        }
    }

    func compact(now: Int64) throws(CacheError) {
        // Compaction writes, syncs and renames a whole new log: afterwards it is durable.
        try log.compact(now: now)
        try deleteSupersededFiles()
        try removeUnreferencedFiles()
    }

    var compactionIsDue: Bool { log.compactionIsDue }

    var damagedRecordsSkipped: Int { log.damagedRecordsSkipped }

    /// Deletes files in `external/` that no record references, temporary files and links
    /// included (§5.5), but not files waiting for their superseding record to be durable.
    func removeUnreferencedFiles() throws(CacheError) {
        guard !readOnly, let external else { return }
        // Another process's records that stopped naming a file become durable first, so no
        // file a durable record names is deleted (§9.5).
        if shared {
            try log.synchronize()
            try publishOwnRecords()
        }
        let referenced = lock.withReadLock { Set(references.values.map(\.name)) }.union(supersededFiles)
        for entry in try cacheIO({ () throws(SystemCallError) in try external.entries() })
        where !referenced.contains(entry.name) {
            // A folder inside external/ is not ours to delete; it is left alone.
            guard entry.kind != .directory else { continue }
            try cacheIO { () throws(SystemCallError) in try external.removeFile(entry.name) }
            externalFiles?.noteRemoved(entry.name, mustPersist: false)
        }
    }

    func close() throws(CacheError) {
        if !readOnly { try synchronize() }
        try log.close()
    }

}
