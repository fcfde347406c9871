import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// The byte-level work of the fault switches (Fault.swift): each emulates an implementation
/// that breaks one rule, by changing the bytes the modules are given or the files they leave.
extension Driver {
    // MARK: PNG

    /// The chunks of a PNG from offset 8: (offset of the length field, data length, type).
    static func chunks(of png: [UInt8]) -> [(offset: Int, length: Int, type: [UInt8])] {
        var result: [(Int, Int, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { break }
            let type = Array(png[offset + 4..<offset + 8])
            result.append((offset, length, type))
            offset += 12 + length
            if type == Array("IEND".utf8) { break }
        }
        return result
    }

    /// ancillary-crc-unchecked: every ancillary chunk gets a matching CRC before decoding.
    static func repairAncillaryChecksums(_ png: inout [UInt8]) {
        for (offset, length, type) in chunks(of: png) where type[0] & 0x20 != 0 {
            let crc = CRC32.checksum(of: png[offset + 4..<offset + 8 + length])
            for index in 0..<4 {
                png[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index)))
            }
        }
    }

    /// data-after-iend-rejected: whether bytes follow the IEND chunk.
    static func hasDataAfterEnd(_ png: [UInt8]) -> Bool {
        guard let last = chunks(of: png).last, last.type == Array("IEND".utf8) else { return false }
        return last.offset + 12 + last.length < png.count
    }

    // MARK: Store files

    /// file-header-checksum-unchecked: a format-2 log's header checksum is made to match.
    static func repairFileHeaderChecksum(_ log: inout [UInt8]) {
        guard log.count >= 32, log[8] == 2, log[9] == 0 else { return }
        write(XXH3.checksum(of: log[0..<24]), into: &log, at: 24)
    }

    /// compaction-header-unchecked: every whole record of a format-2 log gets a matching header
    /// checksum, so a compaction finds no damaged header to answer for (Spec/store.md §7.1).
    static func repairRecordHeaderChecksums(_ log: inout [UInt8]) {
        for record in recordSpans(of: log) where record.end <= log.count {
            write(XXH3.checksum(of: log[record.start + 8..<record.headEnd]), into: &log, at: record.start)
        }
    }

    /// published-damage-read-as-a-tail: the log ends at its first record whose header fails
    /// its checksum, as a scan that took it for a torn tail would leave it.
    static func cutAtFirstFailingRecordHeader(_ log: inout [UInt8]) {
        for record in recordSpans(of: log) {
            let headChecksum = XXH3.checksum(of: log[record.start + 8..<record.headEnd])
            if littleEndian(log, at: record.start, count: 8) != headChecksum {
                log.removeSubrange(record.start...)
                return
            }
        }
    }

    /// The records of a format-2 log in file order, by their own lengths (checksums unchecked):
    /// where each starts, where its header and key end, and where it ends. The last one may end
    /// past the log (its value cut short); none follows it.
    static func recordSpans(of log: [UInt8]) -> [(start: Int, headEnd: Int, end: Int)] {
        guard log.count >= 32, log[8] == 2, log[9] == 0 else { return [] }
        var spans: [(start: Int, headEnd: Int, end: Int)] = []
        var offset = 32
        while offset + 56 <= log.count {
            let headEnd = offset + 56 + Int(littleEndian(log, at: offset + 18, count: 2))
            guard headEnd <= log.count else { break }
            let end = headEnd + Int(min(littleEndian(log, at: offset + 24, count: 8), UInt64(log.count)))
            spans.append((offset, headEnd, end))
            guard end <= log.count else { break }
            offset = end
        }
        return spans
    }

    /// snapshot-generation-unchecked: the snapshot is given the log's generation (its header
    /// checksum made to match), as if a reader did not compare them.
    static func adoptGeneration(of log: [UInt8], into hint: inout [UInt8]) {
        guard log.count >= 32, hint.count >= 48 else { return }
        hint.replaceSubrange(16..<24, with: log[16..<24])
        write(XXH3.checksum(of: hint[0..<40]), into: &hint, at: 40)
    }

    // MARK: Sync marks (Spec/store.md §4.1)

    /// The sync mark a store would write for the log of `generation`, durable up to `length`.
    static func syncMark(generation: UInt64, length: UInt64) -> [UInt8] {
        var mark: [UInt8] =
            [0x89, 0x49, 0x43, 0x53, 0x59, 0x4E, 0x43, 0x0A] + [UInt8](repeating: 0, count: 24)
        write(generation, into: &mark, at: 8)
        write(length, into: &mark, at: 16)
        write(XXH3.checksum(of: mark[0..<24]), into: &mark, at: 24)
        return mark
    }

    /// The generation of a format-2 log, from its header; nil for anything else.
    static func generation(ofLog log: [UInt8]) -> UInt64? {
        guard log.count >= 32, log[8] == 2, log[9] == 0 else { return nil }
        return littleEndian(log, at: 16, count: 8)
    }

    /// The length a reader takes from `mark` for `log` (magic, checksum and generation match,
    /// at least 32), or nil when it ignores the mark.
    static func usableLength(of mark: [UInt8], for log: [UInt8]) -> UInt64? {
        guard mark.count >= 32, let generation = generation(ofLog: log),
            mark[0..<8].elementsEqual(syncMark(generation: 0, length: 0)[0..<8]),
            XXH3.checksum(of: mark[0..<24]) == littleEndian(mark, at: 24, count: 8),
            littleEndian(mark, at: 8, count: 8) == generation
        else { return nil }
        let length = littleEndian(mark, at: 16, count: 8)
        return length >= 32 ? length : nil
    }

    /// tail-value-unchecked: where the records whose headers are valid (checksum, type, zero
    /// flags and reserved), one after the other from offset 32, end; the value of none is read.
    static func endOfValidHeaders(_ log: [UInt8]) -> Int {
        var offset = 32
        while offset + 56 <= log.count {
            let keyLength = Int(littleEndian(log, at: offset + 18, count: 2))
            guard offset + 56 + keyLength <= log.count,
                XXH3.checksum(of: log[offset + 8..<offset + 56 + keyLength])
                    == littleEndian(log, at: offset, count: 8),
                (1...4).contains(log[offset + 16]), log[offset + 17] == 0,
                littleEndian(log, at: offset + 20, count: 4) == 0
            else { break }
            let valueLength = littleEndian(log, at: offset + 24, count: 8)
            guard valueLength <= UInt64(log.count - offset - 56 - keyLength) else { break }
            offset += 56 + keyLength + Int(valueLength)
        }
        return offset
    }

    /// The sync mark the faults of the recovery rule put beside `log` instead of `given`: one
    /// that covers the whole file (torn-tail-refused), one that covers every record with a valid
    /// header too (tail-value-unchecked), or the given one with the log's generation
    /// (sync-mark-generation-unchecked). Nil when no fault applies.
    func faultyMark(_ given: [UInt8]?, for log: [UInt8]) -> [UInt8]? {
        guard let generation = Driver.generation(ofLog: log) else { return nil }
        if faults.contains(.tornTailRefused) {
            return Driver.syncMark(generation: generation, length: UInt64(log.count))
        }
        if faults.contains(.tailValueUnchecked) {
            let usable = given.flatMap { Driver.usableLength(of: $0, for: log) } ?? 32
            return Driver.syncMark(
                generation: generation, length: max(usable, UInt64(Driver.endOfValidHeaders(log))))
        }
        // Only a mark a reader would take but for its generation: its own checksum matches.
        if faults.contains(.syncMarkGenerationUnchecked), var mark = given, mark.count >= 32,
            XXH3.checksum(of: mark[0..<24]) == Driver.littleEndian(mark, at: 24, count: 8)
        {
            Driver.write(generation, into: &mark, at: 8)
            Driver.write(XXH3.checksum(of: mark[0..<24]), into: &mark, at: 24)
            return mark
        }
        return nil
    }

    static func write(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    // MARK: Cache files after a close

    /// The faults that change a backend's files after a clean close.
    func applyFileFaults(_ session: CacheSession) {
        let folder = session.folder
        if faults.contains(.dictionaryBlessesDamage), session.backend == "dictionary" {
            blessDamagedDictionaryRecords(session)
        }
        if faults.contains(.damagedVariantKept),
            let log = ["log": "cache.log", "hybrid": "hybrid.log"][session.backend]
        {
            dropRemovalsOfRemadeVariants(logAt: folder.appendingPathComponent(log).path)
        }
        switch session.backend {
        case "dictionary" where faults.contains(.dictionaryRecordsReversed):
            let path = folder.appendingPathComponent("cache.dictionary").path
            guard let data = FileManager.default.contents(atPath: path), data.count >= 16 else { return }
            let bytes = [UInt8](data)
            var records: [ArraySlice<UInt8>] = []
            var offset = 16
            while offset + 52 <= bytes.count {
                let keyLength = bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
                let valueLength = bytes[offset + 4..<offset + 12].reversed().reduce(0) { $0 << 8 | Int($1) }
                let end = offset + 52 + keyLength + valueLength
                guard end <= bytes.count else { return }
                records.append(bytes[offset..<end])
                offset = end
            }
            let rewritten = Array(bytes[0..<16]) + records.reversed().flatMap { $0 }
            _ = FileManager.default.createFile(atPath: path, contents: Data(rewritten))
        case "directory" where faults.contains(.directoryIndexChecksumZeroed):
            let path = folder.appendingPathComponent("index").path
            guard var bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }),
                bytes.count >= 8
            else { return }
            bytes.replaceSubrange(bytes.count - 8..<bytes.count, with: [UInt8](repeating: 0, count: 8))
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        case "log" where faults.contains(.logSnapshotMissing):
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("cache.log.hint"))
        default:
            return
        }
    }
}
