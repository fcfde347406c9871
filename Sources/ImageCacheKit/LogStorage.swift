#if !IMAGECACHE_SINGLE_MODULE
    import LogStoreKit
    import Platform
#endif

/// The `log` backend (`Spec/backends.md` §4): one LogStore file, `cache.log`, holding each
/// entry's value and metadata; a hit appends a metadata-only touch record. The LogStore's
/// index is the cache's index.
final class LogStorage: CacheStorage, @unchecked Sendable {
    static let fileName = "cache.log"

    let store: LogStore

    /// Opens `<directory>/<fileName>`; read-only opens take no lock and change nothing.
    /// - Parameter willWriteRecords: runs before records reach the file (`Spec/store.md` §8.3):
    ///   the hybrid backend makes the external files they name durable there.
    init(
        directory: String, fileName: String = LogStorage.fileName, readOnly: Bool, mode: FlushMode,
        willWriteRecords: (@Sendable () throws(SystemCallError) -> Void)? = nil,
        sharing: LogStore.Sharing? = nil
    ) throws(CacheError) {
        // The caller refused a link at the log's name (CacheFolder.checkForLinks, §1.6).
        let path = directory + "/" + fileName
        // The cache decides when to compact (after purging, so its index and the log agree).
        // Damage to synchronized records costs those records, never the cache (§4.3).
        let options = LogStore.Options(
            readOnly: readOnly, compactionDeadRatio: nil, skipsDamagedRecords: true,
            willWriteRecords: willWriteRecords, flushMode: mode, sharing: sharing)
        do {
            store = try LogStore(path: path, options: options)
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// The cache's error for a LogStore error (`Spec/backends.md` §4.3): damage to the whole
    /// file is `corruptFile`, an unknown major version `unsupportedFormatVersion`, operating
    /// system failures `ioFailure`, a second writer `locked`, use after close `cacheClosed`;
    /// anything else `logStoreFailure`.
    static func translate(_ error: LogStoreError, path storePath: String) -> CacheError {
        switch error {
        case .ioError(let operation, let code, let path):
            return CacheError(SystemCallError(operation: operation, path: path, errno: Errno(rawValue: code)))
        case .diskFull(let path):
            return .ioFailure(operation: "write", path: path, errno: Errno.noSpace.rawValue)
        case .fileSizeLimitExceeded(let path):
            return .ioFailure(operation: "write", path: path, errno: Errno.fileTooLarge.rawValue)
        case .notAStore(let path), .corruptFileHeader(let path):
            return .corruptFile(path: path, reason: error.description)
        case .corruptRecord:
            return .corruptFile(path: storePath, reason: error.description)
        case .unsupportedVersion(let path, let major, _):
            return .unsupportedFormatVersion(path: path, version: UInt32(major))
        case .storeLocked(let path, let byThisProcess):
            return .locked(path: FileSystem.directory(of: path), byThisProcess: byThisProcess)
        case .readOnly(let path):
            return .readOnly(path: FileSystem.directory(of: path))
        case .closed:
            return .cacheClosed
        default:
            return .logStoreFailure(path: storePath, reason: error.description)
        }
    }

    func perform<Result>(_ body: () throws(LogStoreError) -> Result) throws(CacheError) -> Result {
        do {
            return try body()
        } catch {
            throw Self.translate(error, path: store.path)
        }
    }

    static func metadata(_ metadata: CacheEntryMetadata) -> EntryMetadata {
        EntryMetadata(
            createdAt: metadata.createdAt, expiresAt: metadata.expiresAt,
            accessSequence: metadata.accessSequence)
    }

    static func metadata(_ metadata: EntryMetadata) -> CacheEntryMetadata {
        CacheEntryMetadata(
            createdAt: metadata.createdAt, expiresAt: metadata.expiresAt,
            accessSequence: metadata.accessSequence)
    }

    static func state(_ info: LogStore.EntryInfo) -> EntryState {
        EntryState(
            byteCount: Int(clamping: info.valueLength), metadata: metadata(info.metadata),
            version: info.recordOffset)
    }

    // MARK: Reads

    var entryCount: Int { store.count }

    func state(forKey key: [UInt8]) throws(CacheError) -> EntryState? {
        try perform { () throws(LogStoreError) in try store.entryInfo(forKey: key) }.map(Self.state)
    }

    func read(_ key: [UInt8]) throws(CacheError) -> StoredValue? {
        try storedValue(key).map {
            let state = Self.state($0.info)
            return StoredValue(bytes: $0.value, metadata: state.metadata, version: state.version)
        }
    }

    /// The raw log value and its record; a damaged record is a corrupt entry (§4.3).
    func storedValue(_ key: [UInt8]) throws(CacheError) -> (value: [UInt8], info: LogStore.EntryInfo)? {
        do {
            return try store.read(forKey: key)
        } catch {
            throw readFailure(error, key: key)
        }
    }

    /// Lends the value from the log's file mapping without a copy when the record is there
    /// (`Spec/store.md` §8.2); the mapping holds across a concurrent store and compaction.
    func lend(
        _ key: [UInt8], _ body: (UnsafeRawBufferPointer, CacheEntryMetadata, UInt64) -> Void
    ) throws(CacheError) -> Bool {
        do {
            return try store.lendValue(forKey: key) { bytes, info in
                let state = Self.state(info)
                body(bytes, state.metadata, state.version)
            }
        } catch let error as LogStoreError {
            switch error {
            case .checksumMismatch, .truncatedRecord:
                throw .corruptEntry(key: displayKey(key), reason: error.description)
            default:
                throw Self.translate(error, path: store.path)
            }
        } catch {
            // `body` throws nothing, and the store throws only LogStoreError.
            throw .logStoreFailure(path: store.path, reason: "\(error)")
        }
    }

    func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryState) -> Void) throws(CacheError) {
        try perform { () throws(LogStoreError) in
            try store.forEachEntry { key, info in body(key, Self.state(info)) }
        }
    }

    // MARK: Mutations

    /// One put record holds the value and its user metadata (`Spec/store.md` §13.2).
    func write(
        _ value: UnsafeRawBufferPointer, forKey key: [UInt8], metadata: CacheEntryMetadata,
        userMetadata: [UInt8]
    ) throws(CacheError) {
        try perform { () throws(LogStoreError) in
            if userMetadata.isEmpty {
                try store.put(value, forKey: key, metadata: Self.metadata(metadata))
            } else {
                try store.put(
                    value, forKey: key, metadata: Self.metadata(metadata), userMetadata: userMetadata)
            }
        }
    }

    /// A damaged record is a corrupt entry, as a damaged value is (§4.3).
    func userMetadata(forKey key: [UInt8]) throws(CacheError) -> [UInt8]? {
        do {
            return try store.userMetadata(forKey: key)
        } catch {
            throw readFailure(error, key: key)
        }
    }

    func setUserMetadata(_ userMetadata: [UInt8], forKey key: [UInt8]) throws(CacheError) -> Bool {
        try perform { () throws(LogStoreError) in try store.setUserMetadata(userMetadata, forKey: key) }
    }

    /// Checks and touches each hit in one lookup
    /// (`LogStore.touchRecords(count:key:recordOffset:newMetadata:)`), the keys read where the
    /// batch holds them.
    func applyHits(
        _ hits: HitLog.Batch,
        newMetadata: (_ position: Int, _ current: CacheEntryMetadata) -> CacheEntryMetadata
    ) throws(CacheError) {
        try perform { () throws(LogStoreError) in
            try hits.withKeys { (key) throws(LogStoreError) in
                try store.touchRecords(count: hits.count, key: key, recordOffset: { hits[$0].version }) {
                    position, current in Self.metadata(newMetadata(position, Self.metadata(current)))
                }
            }
        }
    }

    func updateMetadata(_ updates: [(key: [UInt8], metadata: CacheEntryMetadata)]) throws(CacheError) {
        try perform { () throws(LogStoreError) in
            try store.updateMetadata(updates.map { (key: $0.key, metadata: Self.metadata($0.metadata)) })
        }
    }

    func remove(_ key: [UInt8]) throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.removeValue(forKey: key) }
    }

    func removeAll() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.removeAll() }
    }

    func synchronize() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.synchronize() }
    }

    /// Inside a section of a shared store: publishes what the section wrote so far
    /// (`Spec/store.md` §12.3).
    func publishWrittenRecords() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.publishWrittenRecords() }
    }

    func compact(now: Int64) throws(CacheError) {
        _ = try perform { () throws(LogStoreError) in try store.compact(now: now) }
    }

    /// Compaction pays once dead records are over half of a file of at least 4 MiB (§4.4).
    var compactionIsDue: Bool {
        let statistics = store.statistics
        return statistics.fileSize >= 4 << 20 && statistics.deadBytes * 2 > statistics.fileSize
    }

    func removeUnreferencedFiles() throws(CacheError) {}

    var damagedRecordsSkipped: Int { store.recovery.damagedRecords.count }

    // MARK: Sharing (`Spec/backends.md` §9)

    func withExclusiveAccess<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError) -> Result {
        try exclusiveAccess(waiting: true, body)!
    }

    func withExclusiveAccessIfAvailable<Result>(_ body: () throws(CacheError) -> Result) throws(CacheError)
        -> Result?
    {
        try exclusiveAccess(waiting: false, body)
    }

    /// The store's section around `body`, its errors kept apart from the store's own.
    private func exclusiveAccess<Result>(waiting: Bool, _ body: () throws(CacheError) -> Result)
        throws(CacheError) -> Result?
    {
        var failure: CacheError?
        var result: Result?
        try withoutActuallyEscaping(body) { (body) throws(CacheError) in
            let section = { () throws(LogStoreError) -> Void in
                do throws(CacheError) {
                    result = try body()
                } catch {
                    failure = error
                }
            }
            try perform { () throws(LogStoreError) in
                if waiting {
                    try store.withExclusiveAccess(section)
                } else {
                    _ = try store.withExclusiveAccessIfAvailable(section)
                }
            }
        }
        if let failure { throw failure }
        return result
    }

    func takeChanges() throws(CacheError) -> [StorageChange] {
        store.takeChanges().map { change in
            switch change {
            case .entry(let key, let before, let after):
                .entry(key: key, before: before.map(Self.state), after: after.map(Self.state))
            case .cleared: .cleared
            case .reloaded: .reloaded
            }
        }
    }

    var sharedSequence: UInt64 {
        get { store.sharedCounter }
        set { store.sharedCounter = newValue }
    }

    func close() throws(CacheError) {
        try perform { () throws(LogStoreError) in try store.close() }
    }

    /// A damaged or cut record read for `key` is a corrupt entry (§4.3); anything else is
    /// the store's failure.
    private func readFailure(_ error: LogStoreError, key: [UInt8]) -> CacheError {
        switch error {
        case .checksumMismatch, .truncatedRecord:
            .corruptEntry(key: displayKey(key), reason: error.description)
        default:
            Self.translate(error, path: store.path)
        }
    }
}
