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

    /// Calls `body` with the value stored under `key`, checked, and returns its result; nil when
    /// the key is absent. For callers that consume bytes in place, such as a decoder.
    ///
    /// A record a read would copy from the file mapping (§8.2) is lent straight from the
    /// mapping, with no copy: it is checked there, and the mapping stays valid while `body`
    /// runs, even if the store maps its file again, is compacted or closes meanwhile. Other
    /// records (ones still in the write buffer, or past what a read-only handle maps) are read
    /// into a buffer first. No lock is held while
    /// `body` runs, so it may use the store.
    /// - Throws: as ``value(forKey:)-(String)``, and whatever `body` throws.
    @inlinable
    public func withValue<Result>(
        forKey key: [UInt8], _ body: (UnsafeRawBufferPointer, EntryInfo) throws -> Result
    ) throws -> Result? {
        // Generic only here, where the caller's module specialises it: the read itself is not
        // generic, so it instantiates no generic type at run time.
        var result: Result?
        try lendValue(forKey: key) { result = try body($0, $1) }
        return result
    }

    /// ``withValue(forKey:_:)`` without a result: calls `body` once when the key is present and
    /// returns whether it did.
    /// - Throws: as ``withValue(forKey:_:)``.
    @discardableResult
    public func lendValue(forKey key: [UInt8], _ body: (UnsafeRawBufferPointer, EntryInfo) throws -> Void)
        throws -> Bool
    {
        try key.withUnsafeBytes { (keyBytes) throws -> Bool in
            var lending = try lending(forKey: keyBytes, exactly: false)
            if case .mapped(let mapping, let entry) = lending {
                let value: UnsafeRawBufferPointer
                do throws(LogStoreError) {
                    value = try checkedValue(entry, key: keyBytes, in: mapping)
                } catch {
                    // The likely entry was another key's, or the record is damaged: the exact
                    // lookup tells which.
                    lending = try self.lending(forKey: keyBytes, exactly: true)
                    if case .mapped(_, let exact) = lending, exact.offset == entry.offset { throw error }
                    return try lend(lending, key: keyBytes, body)
                }
                try withExtendedLifetime(mapping) { try body(value, EntryInfo(entry)) }
                return true
            }
            return try lend(lending, key: keyBytes, body)
        }
    }

    /// Calls `body` with the value `lending` found, if any: lent from the mapping, or read into
    /// an array first.
    private func lend(
        _ lending: Lending, key keyBytes: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, EntryInfo) throws -> Void
    ) throws -> Bool {
        switch lending {
        case .absent:
            return false
        case .mapped(let mapping, let entry):
            let value = try checkedValue(entry, key: keyBytes, in: mapping)
            try withExtendedLifetime(mapping) { try body(value, EntryInfo(entry)) }
            return true
        case .notMapped:
            guard let (value, info) = try readRecord(forKey: keyBytes) else { return false }
            try value.withUnsafeBytes { try body($0, info) }
            return true
        }
    }

    /// Where ``withValue(forKey:_:)`` finds a record.
    private enum Lending {
        case absent
        case notMapped
        /// The whole record lies in this mapping, below the flushed length.
        case mapped(FileMapping, IndexEntry)
    }

    /// Looks `keyBytes` up under the read lock and, when its record is in the mapping, takes a
    /// reference to that mapping, which keeps it valid once the lock is released. Not
    /// `exactly`: the likely entry (``KeyIndex/findLikely(_:)``), which the record's key check
    /// confirms.
    private func lending(forKey keyBytes: UnsafeRawBufferPointer, exactly: Bool) throws(LogStoreError)
        -> Lending
    {
        return try withCaughtUpReadLock { () throws(LogStoreError) -> Lending in
            if isClosed { throw .closed(path: path) }
            let headLength = UInt64(RecordFormat.recordHeaderSize + keyBytes.count)
            let number: Int
            if exactly {
                guard let exact = index.find(keyBytes) else { return .absent }
                number = exact
            } else {
                guard let likely = index.findLikely(keyBytes) else { return .absent }
                // The record's head is fetched from where the table says it lies before the
                // entry is loaded, so that both cache misses are under way at once.
                if let head = mappedRecord(at: likely.recordOffset, length: headLength) {
                    _ = SystemMemory.touchEachCacheLine(
                        of: UnsafeRawBufferPointer(start: head, count: Int(headLength)))
                }
                number = likely.number
            }
            let entry = index.entry(at: number)
            let (length, overflow) = headLength.addingReportingOverflow(entry.valueLength)
            guard !overflow, let mapping, mappedRecord(at: entry.offset, length: length) != nil else {
                return .notMapped
            }
            return .mapped(mapping, entry)
        }
    }

    /// The value of `entry`'s record in `mapping`, after the checks of §8.2: header checksum,
    /// type, key and length, then the value checksum.
    private func checkedValue(_ entry: IndexEntry, key: UnsafeRawBufferPointer, in mapping: FileMapping)
        throws(LogStoreError) -> UnsafeRawBufferPointer
    {
        let record = mapping.base + Int(entry.offset)
        let headLength = RecordFormat.recordHeaderSize + key.count
        let header = try checkHead(
            entry, key: key, head: UnsafeRawBufferPointer(start: record, count: headLength))
        let value = UnsafeRawBufferPointer(start: record + headLength, count: Int(entry.valueLength))
        if options.verifyChecksumsOnRead {
            // Lent in place, so hashed from the mapping, where it is likely cold: its lines are
            // fetched all at once first (a copy does that by itself).
            if value.count <= Self.touchedBeforeHashing { _ = SystemMemory.touchEachCacheLine(of: value) }
            try checkValueChecksum(RecordFormat.valueChecksum(value), of: header, at: entry.offset)
        }
        return value
    }

    /// Throws `checksumMismatch` unless `computed` is the value checksum `header` declares.
    @inline(__always)
    private func checkValueChecksum(_ computed: UInt64, of header: RecordFormat.Header, at offset: UInt64)
        throws(LogStoreError)
    {
        if computed != header.valueChecksum {
            throw .checksumMismatch(offset: offset, declared: header.valueChecksum, computed: computed)
        }
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
            withCaughtUpReadLock { isClosed ? (nil, true) : (index[keyBytes].map(EntryInfo.init), false) }
        }
        if closed { throw .closed(path: path) }
        return info
    }

    /// Calls `body` with every live entry's key bytes and information, under the read lock:
    /// `body` must not call back into the store. No order is promised.
    /// - Throws: `closed` after ``close()``.
    public func forEachEntry(_ body: (UnsafeRawBufferPointer, EntryInfo) -> Void) throws(LogStoreError) {
        return try withCaughtUpReadLock { () throws(LogStoreError) in
            if isClosed { throw .closed(path: path) }
            index.forEachEntry { _, keyBytes, entry in body(keyBytes, EntryInfo(entry)) }
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
            try utf8Key.withUTF8 { keyBytes in try readRecord(forKey: UnsafeRawBufferPointer(keyBytes))?.value
            }
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
        withCaughtUpReadLock { isClosed ? nil : index[keyBytes].map(EntryInfo.init) }
    }

    /// Looks `keyBytes` up, under the read lock, and reads its value into a new array, checked
    /// as it is read (§8.2).
    func readRecord(forKey keyBytes: UnsafeRawBufferPointer) throws(LogStoreError)
        -> (value: [UInt8], info: EntryInfo)?
    {
        let headLength = RecordFormat.recordHeaderSize + keyBytes.count
        return try withUnsafeTemporaryAllocation(byteCount: headLength, alignment: 8) {
            (head) throws(LogStoreError) -> (value: [UInt8], info: EntryInfo)? in
            // A record copied from the staging area counts only if no other process reused the
            // area meanwhile (§12.7).
            try withStableStaging { () throws(LogStoreError) -> (value: [UInt8], info: EntryInfo)? in
                if isClosed { throw .closed(path: path) }
                guard let likely = index.findLikely(keyBytes) else { return nil }
                do throws(LogStoreError) {
                    // The head is copied from where the table says the record lies before the
                    // entry is loaded, so that both cache misses are under way at once.
                    let copiedHead = copyHead(at: likely.recordOffset, into: head)
                    return try readValue(
                        of: index.entry(at: likely.number), key: keyBytes, head: head, copiedFrom: copiedHead)
                } catch {
                    // The likely entry was another key's, or the record is damaged: the exact
                    // lookup tells which.
                    guard let exact = index.find(keyBytes) else { return nil }
                    if exact == likely.number { throw error }
                    return try readValue(of: index.entry(at: exact), key: keyBytes, head: head)
                }
            }
        }
    }

    /// Copies the head (header and key) of the record at `offset` into `head` when it is in
    /// memory (the write buffer or the mapping), and returns where it was copied from.
    @inline(__always)
    private func copyHead(at offset: UInt64, into head: UnsafeMutableRawBufferPointer) -> UnsafeRawPointer? {
        guard let record = bytesInMemory(at: offset, count: head.count) else { return nil }
        head.copyMemory(from: UnsafeRawBufferPointer(start: record, count: head.count))
        return record
    }

    /// Reads `entry`'s value into a new array, checked as it is read (§8.2). Caller holds the
    /// read lock. `copiedFrom`: where `head` was already copied from, under this hold of the
    /// lock.
    @inline(__always)
    private func readValue(
        of entry: IndexEntry, key keyBytes: UnsafeRawBufferPointer, head: UnsafeMutableRawBufferPointer,
        copiedFrom copiedHead: UnsafeRawPointer? = nil
    )
        throws(LogStoreError) -> (value: [UInt8], info: EntryInfo)
    {
        guard entry.valueLength <= UInt64(Int.max) else {
            throw .valueTooLarge(length: entry.valueLength)
        }
        let count = Int(entry.valueLength)
        if count <= Self.readPiece,
            let record = bytesInMemory(at: entry.offset, count: head.count + count)
        {
            // A value in the write buffer or the mapped file, small enough to check in one go:
            // copied by the array initialiser that takes a buffer, which the compiler
            // specialises. (`init(unsafeUninitializedCapacity:)` calls the standard library's
            // generic allocation, which looks the array's storage type up in the runtime's
            // metadata cache on every call.) The copy is checked while still in the caches.
            if record != copiedHead {
                head.copyMemory(from: UnsafeRawBufferPointer(start: record, count: head.count))
            }
            let value = [UInt8](UnsafeRawBufferPointer(start: record + head.count, count: count))
            let header = try checkHead(entry, key: keyBytes, head: UnsafeRawBufferPointer(head))
            if options.verifyChecksumsOnRead {
                let computed = value.withUnsafeBytes { RecordFormat.valueChecksum($0) }
                try checkValueChecksum(computed, of: header, at: entry.offset)
            }
            return (value, EntryInfo(entry))
        }
        var failure: LogStoreError?
        let value = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            if let base = storage.baseAddress {
                SystemMemory.adviseHugePages(UnsafeMutableRawPointer(base), count: count)
            }
            do throws(LogStoreError) {
                try readChecked(
                    entry, key: keyBytes, head: head, into: UnsafeMutableRawBufferPointer(storage))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return (value, EntryInfo(entry))
    }

    /// Values lent from the mapping up to this size have their cache lines fetched before they
    /// are hashed (``SystemMemory/touchEachCacheLine(of:)``): cache hits through `withValue`
    /// ran 15–20% faster at 4 and 8 KiB; at 16 and 64 KiB the hardware prefetcher keeps up on
    /// its own and touching first gained nothing.
    static let touchedBeforeHashing = 8 << 10

    /// Values up to this size are read with one vector read and then checked (still hot in the
    /// CPU cache); larger ones are read and checked in pieces of this size.
    static let readPiece = 256 << 10

    /// Reads `entry`'s record: header and key into `head`, the value into `destination`, and
    /// checks it as it arrives (§8.2): the header checksum and the index's key, type and length
    /// first, then the value checksum, computed over each piece right after it is read. Caller
    /// holds the read lock.
    private func readChecked(
        _ entry: IndexEntry, key: UnsafeRawBufferPointer, head: UnsafeMutableRawBufferPointer,
        into destination: UnsafeMutableRawBufferPointer
    ) throws(LogStoreError) {
        let verify = options.verifyChecksumsOnRead
        var valueChecksum = XXH3()
        var checkedHeader: RecordFormat.Header?
        if let record = bytesInMemory(at: entry.offset, count: head.count + destination.count) {
            // In the write buffer or the mapped file (a value larger than one piece; smaller
            // ones take ``readValue(of:key:head:)``'s one copy): copy each piece, then checksum
            // the copy while it is still in the processor's caches, so the checksum is that of
            // the bytes returned. A plain copy keeps more cache misses in flight than a loop
            // that hashes as it loads (§8.2).
            head.copyMemory(from: UnsafeRawBufferPointer(start: record, count: head.count))
            var done = 0
            while done < destination.count {
                let count = min(Self.readPiece, destination.count - done)
                let target = destination.baseAddress! + done
                target.copyMemory(from: record + head.count + done, byteCount: count)
                if verify { valueChecksum.update(UnsafeRawBufferPointer(start: target, count: count)) }
                done += count
            }
        } else if destination.count <= Self.readPiece {
            guard
                try storeIO({
                    try FileSystem.read(
                        descriptor, head: head, value: destination, at: entry.offset, path: path)
                })
            else { throw .truncatedRecord(offset: entry.offset) }
            if verify { valueChecksum.update(UnsafeRawBufferPointer(destination)) }
        } else {
            guard
                try storeIO({ try FileSystem.read(descriptor, into: head, at: entry.offset, path: path) })
                    == head.count
            else { throw .truncatedRecord(offset: entry.offset) }
            // Check the header before reading a value whose length it vouches for.
            checkedHeader = try checkHead(entry, key: key, head: UnsafeRawBufferPointer(head))
            var done = 0
            var position = entry.offset + UInt64(head.count)
            while done < destination.count {
                let piece = UnsafeMutableRawBufferPointer(
                    rebasing: destination[done..<min(done + Self.readPiece, destination.count)])
                guard
                    try storeIO({ try FileSystem.read(descriptor, into: piece, at: position, path: path) })
                        == piece.count
                else { throw .truncatedRecord(offset: entry.offset) }
                if verify { valueChecksum.update(UnsafeRawBufferPointer(piece)) }
                done += piece.count
                position += UInt64(piece.count)
            }
        }
        let header: RecordFormat.Header
        if let checkedHeader {
            header = checkedHeader
        } else {
            header = try checkHead(entry, key: key, head: UnsafeRawBufferPointer(head))
        }
        if verify {
            try checkValueChecksum(valueChecksum.value, of: header, at: entry.offset)
        }
    }

    /// Checks a record's header and key against their checksum and the index (§8.2).
    @discardableResult
    private func checkHead(_ entry: IndexEntry, key: UnsafeRawBufferPointer, head: UnsafeRawBufferPointer)
        throws(LogStoreError) -> RecordFormat.Header
    {
        let header = RecordFormat.decodeHeader(head)
        if options.verifyChecksumsOnRead {
            let computed = RecordFormat.headChecksum(head)
            if computed != header.headerChecksum {
                throw .checksumMismatch(
                    offset: entry.offset, declared: header.headerChecksum, computed: computed)
            }
        }
        let keyMatches =
            header.keyLength == key.count
            && SystemMemory.bytesEqual(
                head.baseAddress! + RecordFormat.recordHeaderSize, key.baseAddress!, count: key.count)
        guard header.type == RecordFormat.RecordType.put.rawValue, keyMatches,
            header.valueLength == entry.valueLength
        else {
            // The bytes at this offset are not the record the index was built from.
            throw .checksumMismatch(offset: entry.offset, declared: header.headerChecksum, computed: 0)
        }
        return header
    }
}
