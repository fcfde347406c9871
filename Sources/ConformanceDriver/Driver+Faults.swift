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
        guard log.count >= 32, log[8] == 2, log[9] == 0 else { return }
        var offset = 32
        while offset + 56 <= log.count {
            let keyLength = Int(littleEndian(log, at: offset + 18, count: 2))
            let end =
                offset + 56 + keyLength
                + Int(min(littleEndian(log, at: offset + 24, count: 8), UInt64(log.count)))
            guard end <= log.count, end > offset else { return }
            write(XXH3.checksum(of: log[offset + 8..<offset + 56 + keyLength]), into: &log, at: offset)
            offset = end
        }
    }

    /// snapshot-generation-unchecked: the snapshot is given the log's generation (its header
    /// checksum made to match), as if a reader did not compare them.
    static func adoptGeneration(of log: [UInt8], into hint: inout [UInt8]) {
        guard log.count >= 32, hint.count >= 48 else { return }
        hint.replaceSubrange(16..<24, with: log[16..<24])
        write(XXH3.checksum(of: hint[0..<40]), into: &hint, at: 40)
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
