#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

extension LogStore {
    /// Whether a published record in the log file that fails its checks is damage this handle
    /// skips (§12.4): the owner skips damage, and the published bytes are known whole. A
    /// writer's coordination file was started afresh by a process alive beside it; a reader's
    /// may be left from an earlier boot, whose last unsynchronized pages a power cut may have
    /// torn, so only one started in this boot counts.
    var skipsPublishedDamage: Bool {
        options.skipsDamagedRecords && (isWritable || coordination?.wasStartedThisBoot == true)
    }

    /// The most bytes a skipping open searches for the next valid record after damage; beyond
    /// it, the rest of the synchronized part is given up as damaged (a bound on open's time).
    static let damageSearchLimit: UInt64 = 64 << 20

    /// Skips damaged bytes of the synchronized part (`Spec/store.md` §5.4) and returns where the
    /// scan goes on.
    ///
    /// 1. When the damaged header's own lengths lead to the durable length, or to a valid
    ///    record header, only that record is damaged. Its key is read from it; a put or remove
    ///    of that key removes it (an earlier value must not come back), a clear clears; a touch,
    ///    or a type byte of no known type, changes nothing.
    /// 2. Otherwise the next offset where a chain of valid records runs to the durable length
    ///    (or into the tail after it) is found by trying every offset; what lies between is
    ///    lost. A value holding bytes that look like records cannot start such a chain unless
    ///    it ends exactly where a real record begins, and the earliest start wins. The search
    ///    looks at most ``damageSearchLimit`` bytes past the damage; a chain that reaches the
    ///    end of that window counts (the scan checks what follows as usual).
    /// 3. Without one, everything up to the durable length is lost.
    ///
    /// The index is not changed here: the result names the record that stands in for the
    /// damaged one (a remove of its key, or a clear), which the caller applies where its scan
    /// applies records (at open, the index; in a catch-up, the records it collects).
    func skipDamage(
        at offset: UInt64, head: UnsafeRawBufferPointer, durableLength: UInt64, knownTypesOnly: Bool,
        in descriptor: Int32
    ) throws(LogStoreError) -> SkippedDamage {
        let headerSize = UInt64(RecordFormat.recordHeaderSize)
        let declared = RecordFormat.decodeHeader(head, major: formatMajor)
        let keyLength = UInt64(declared.keyLength)
        let blockLength = RecordFormat.userMetadataBlockLength(min(declared.userMetadataLength, 1 << 20))
        if declared.valueLength <= RecordFormat.maximumValueLength,
            durableLength - offset >= headerSize + keyLength + blockLength,
            durableLength - offset - headerSize - keyLength - blockLength >= declared.valueLength
        {
            let end = offset + headerSize + keyLength + blockLength + declared.valueLength
            let followedByRecord =
                end == durableLength
                ? true
                : try validHeader(
                    at: end, limit: durableLength, knownTypesOnly: knownTypesOnly, in: descriptor)
            if followedByRecord {
                let key = Array(
                    UnsafeRawBufferPointer(
                        start: head.baseAddress! + RecordFormat.recordHeaderSize, count: declared.keyLength))
                // The safe direction: a record that may have changed the key's value (a put, a
                // remove, or a type byte the damage may have hit) removes the key.
                var standIn: RecordFormat.RecordType?
                switch RecordFormat.RecordType(rawValue: declared.type) {
                case .clear?: standIn = .clear
                case .touch?, .userMetadata?: standIn = nil
                case .put?, .remove?, nil: standIn = keyLength > 0 ? .remove : nil
                }
                let record = DamagedRecord(
                    offset: offset, length: end - offset, key: keyLength > 0 ? key : nil)
                return SkippedDamage(
                    next: end, record: record,
                    standIn: standIn.map { ScannedHeader(standingInFor: $0, keyLength: key.count) })
            }
        }
        let next = try nextChainStart(
            after: offset, durableLength: durableLength, knownTypesOnly: knownTypesOnly, in: descriptor)
        return SkippedDamage(
            next: next, record: DamagedRecord(offset: offset, length: next - offset, key: nil), standIn: nil)
    }

    /// What skipping one damaged span does (``skipDamage``): where the scan goes on, the span
    /// as reported, and the record that stands in for it in the index.
    struct SkippedDamage {
        var next: UInt64
        var record: DamagedRecord
        /// A remove of the record's key, a clear, or nil: nothing changes.
        var standIn: ScannedHeader?
    }

    /// Whether a valid record header (with its key) starts at `offset` and ends by `limit`.
    private func validHeader(
        at offset: UInt64, limit: UInt64, knownTypesOnly: Bool, in descriptor: Int32
    ) throws(LogStoreError) -> Bool {
        let headerSize = RecordFormat.recordHeaderSize
        guard limit > offset, limit - offset >= UInt64(headerSize) else { return false }
        let head = UnsafeMutableRawBufferPointer.allocate(
            byteCount: headerSize + RecordFormat.maximumKeyLength, alignment: 8)
        defer { head.deallocate() }
        let fixed = UnsafeMutableRawBufferPointer(rebasing: head[..<headerSize])
        guard
            try storeIO({ try FileSystem.read(descriptor, into: fixed, at: offset, path: path) })
                == headerSize
        else {
            return false
        }
        let keyLength = Int(RecordFormat.load(at: 18, from: UnsafeRawBufferPointer(fixed)) as UInt16)
        let keyPart = UnsafeMutableRawBufferPointer(rebasing: head[headerSize..<(headerSize + keyLength)])
        guard
            try storeIO({
                try FileSystem.read(descriptor, into: keyPart, at: offset + UInt64(headerSize), path: path)
            })
                == keyLength
        else { return false }
        let whole = UnsafeRawBufferPointer(rebasing: head[..<(headerSize + keyLength)])
        return Self.validHeader(whole, legacy: false, major: formatMajor, knownTypesOnly: knownTypesOnly)
            != nil
    }

    /// The first offset after `offset` where valid records chain up to `durableLength` (or
    /// past it), or to the end of the search window, searched in memory; `durableLength` when
    /// there is none.
    private func nextChainStart(
        after offset: UInt64, durableLength: UInt64, knownTypesOnly: Bool, in descriptor: Int32
    ) throws(LogStoreError) -> UInt64 {
        let start = offset + 1
        guard durableLength > start else { return durableLength }
        let count = Int(min(durableLength - start, Self.damageSearchLimit))
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try storeIO {
            try bytes.withUnsafeMutableBytes {
                try FileSystem.read(descriptor, into: $0, at: start, path: path)
            }
        }
        guard got == count else { return durableLength }
        return bytes.withUnsafeBytes { region -> UInt64 in
            let headerSize = RecordFormat.recordHeaderSize
            /// The length of the valid record at `position` of the region, or nil.
            func record(at position: Int) -> Int? {
                guard count - position >= headerSize else { return nil }
                let keyLength = Int(RecordFormat.load(at: position + 18, from: region) as UInt16)
                guard count - position >= headerSize + keyLength else { return nil }
                let head = UnsafeRawBufferPointer(
                    rebasing: region[position..<(position + headerSize + keyLength)])
                guard
                    let header = Self.validHeader(
                        head, legacy: false, major: formatMajor, knownTypesOnly: knownTypesOnly),
                    header.recordLength <= UInt64(Int.max)
                else { return nil }
                return Int(header.recordLength)
            }
            for candidate in 0..<count {
                var position = candidate
                while let length = record(at: position) {
                    if length >= count - position { return start + UInt64(candidate) }
                    position += length
                }
            }
            return durableLength
        }
    }
}

extension LogStore.ScannedHeader {
    /// The record that stands in for a damaged one (§5.4 rule 1): a remove of its key, or a
    /// clear. It occupies no bytes of the log.
    init(standingInFor type: RecordFormat.RecordType, keyLength: Int) {
        self.init(
            valueChecksum: 0, type: type.rawValue, keyLength: keyLength, valueLength: 0,
            metadata: EntryMetadata(createdAt: 0), recordLength: 0)
    }
}
