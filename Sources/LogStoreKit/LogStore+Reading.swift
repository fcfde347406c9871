#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// What the index holds for one key: enough to decide about an entry without reading it.
    public struct EntryInfo: Sendable, Hashable {
        /// The value's length in bytes.
        public var valueLength: UInt64
        /// The entry's current metadata (touch records included).
        public var metadata: EntryMetadata
        /// The offset of the key's put record. It changes whenever the value is replaced (and
        /// when compaction moves the record), so it tells whether two reads saw the same value.
        public var recordOffset: UInt64

        init(_ entry: IndexEntry) {
            valueLength = entry.valueLength
            metadata = entry.metadata
            recordOffset = entry.offset
        }
    }

    // MARK: Reads by key bytes (`Spec/store.md` §3.1: a key is any 1 … 65,535 bytes)

    /// The value stored under the key `key`, or nil.
    ///
    /// One positioned read of the record; its checksum is checked unless
    /// `verifyChecksumsOnRead` is off (`Spec/store.md` §8.2).
    /// - Throws: `checksumMismatch`, `truncatedRecord`, `ioError`, `closed`.
    public func value(forKey key: [UInt8]) throws(LogStoreError) -> [UInt8]? {
        try read(forKey: key)?.value
    }

    /// The value stored under `key` together with the index's information about it, read at
    /// one moment: the value is the one `info.recordOffset` names.
    /// - Throws: as ``value(forKey:)-(String)``.
    public func read(forKey key: [UInt8]) throws(LogStoreError) -> (value: [UInt8], info: EntryInfo)? {
        try rethrowingStoreErrors {
            try key.withUnsafeBytes { keyBytes in try readRecord(forKey: keyBytes) }
        }
    }

    /// What the index holds for `key`, or nil when absent.
    /// - Throws: `closed` after ``close()``.
    public func entryInfo(forKey key: [UInt8]) throws(LogStoreError) -> EntryInfo? {
        let (info, closed) = key.withUnsafeBytes { keyBytes in
            stateLock.withReadLock { isClosed ? (nil, true) : (index[keyBytes].map(EntryInfo.init), false) }
        }
        if closed { throw .closed(path: path) }
        return info
    }

    /// Calls `body` with every live entry's key bytes and information, under the read lock:
    /// `body` must not call back into the store. No order is promised.
    /// - Throws: `closed` after ``close()``.
    public func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryInfo) -> Void) throws(LogStoreError) {
        try stateLock.withReadLock { () throws(LogStoreError) in
            if isClosed { throw .closed(path: path) }
            index.forEach { _, keyBytes, entry in body(keyBytes, EntryInfo(entry)) }
        }
    }

    // MARK: Reads by string key (the key is its UTF-8 bytes)

    /// The value stored for `key` (its UTF-8 bytes), or nil.
    ///
    /// One positioned read of the record; its checksum is checked unless
    /// `verifyChecksumsOnRead` is off (`Spec/store.md` §8.2).
    /// - Throws: `checksumMismatch`, `truncatedRecord`, `ioError`, `closed`.
    public func value(forKey key: String) throws(LogStoreError) -> [UInt8]? {
        var utf8Key = key
        return try rethrowingStoreErrors {
            try utf8Key.withUTF8 { keyBytes in try readRecord(forKey: UnsafeRawBufferPointer(keyBytes))?.value }
        }
    }

    /// The metadata stored for `key`, or nil when the key is absent (or the store closed).
    public func metadata(forKey key: String) -> EntryMetadata? {
        withKeyBytes(key) { entryInfo(forKeyBytes: $0)?.metadata }
    }

    /// Whether the store holds `key`.
    public func contains(_ key: String) -> Bool {
        withKeyBytes(key) { entryInfo(forKeyBytes: $0) != nil }
    }

    // MARK: Internals

    func entryInfo(forKeyBytes keyBytes: UnsafeRawBufferPointer) -> EntryInfo? {
        stateLock.withReadLock { isClosed ? nil : index[keyBytes].map(EntryInfo.init) }
    }

    /// Looks `keyBytes` up and reads its record under the read lock, then checks it (§8.2).
    func readRecord(forKey keyBytes: UnsafeRawBufferPointer) throws(LogStoreError)
        -> (value: [UInt8], info: EntryInfo)?
    {
        let headLength = RecordFormat.recordHeaderSize + keyBytes.count
        return try withUnsafeTemporaryAllocation(byteCount: headLength, alignment: 8) {
            (head) throws(LogStoreError) -> (value: [UInt8], info: EntryInfo)? in
            var found: IndexEntry?
            var failure: LogStoreError?
            let value: [UInt8]? = stateLock.withReadLock {
                if isClosed {
                    failure = .closed(path: path)
                    return nil
                }
                guard let entry = index[keyBytes] else { return nil }
                found = entry
                return readRecord(entry, head: head, failure: &failure)
            }
            if let failure { throw failure }
            guard let entry = found, let value else { return nil }
            try check(entry, head: UnsafeRawBufferPointer(head), key: keyBytes, value: value)
            return (value, EntryInfo(entry))
        }
    }

    /// Reads one record into `head` (header and key) and a new array (value). Caller holds a lock.
    private func readRecord(
        _ entry: IndexEntry, head: UnsafeMutableRawBufferPointer, failure: inout LogStoreError?
    ) -> [UInt8]? {
        guard entry.valueLength <= UInt64(Int.max) else {
            failure = .valueTooLarge(length: entry.valueLength)
            return nil
        }
        let valueLength = Int(entry.valueLength)
        var ok = true
        let value = [UInt8](unsafeUninitializedCapacity: valueLength) { storage, count in
            count = valueLength
            let valueBuffer = UnsafeMutableRawBufferPointer(storage)
            if entry.offset >= flushedLength {
                let start = buffer + Int(entry.offset - flushedLength)
                head.copyMemory(from: UnsafeRawBufferPointer(start: start, count: head.count))
                if valueLength > 0 {
                    valueBuffer.copyMemory(
                        from: UnsafeRawBufferPointer(start: start + head.count, count: valueLength))
                }
            } else {
                do {
                    ok = try storeIO { try FileSystem.read(
                        descriptor, head: head, value: valueBuffer, at: entry.offset, path: path) }
                    if !ok { failure = .truncatedRecord(offset: entry.offset) }
                } catch {
                    failure = error as? LogStoreError
                    ok = false
                }
            }
            if !ok { count = 0 }
        }
        return ok ? value : nil
    }

    /// Checks a read record against the index and its CRC-32 (§8.2).
    private func check(
        _ entry: IndexEntry, head: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, value: [UInt8]
    ) throws(LogStoreError) {
        let header = RecordFormat.decodeHeader(head)
        let keyMatches =
            header.keyLength == key.count
            && memcmp(head.baseAddress! + RecordFormat.recordHeaderSize, key.baseAddress!, key.count) == 0
        if options.verifyChecksumsOnRead {
            var crc = CRC32()
            crc.update(UnsafeRawBufferPointer(rebasing: head[4...]))
            crc.update(value)
            if crc.value != header.recordChecksum {
                throw .checksumMismatch(
                    offset: entry.offset, declared: header.recordChecksum, computed: crc.value)
            }
        }
        guard header.type == RecordFormat.RecordType.put.rawValue, keyMatches,
            header.valueLength == entry.valueLength
        else {
            // The bytes at this offset are not the record the index was built from.
            throw .checksumMismatch(offset: entry.offset, declared: header.recordChecksum, computed: 0)
        }
    }
}
