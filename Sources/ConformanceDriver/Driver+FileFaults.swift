import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import LogStoreKit
#endif

/// The faults that change a cache folder's files around an open or after a close, each
/// emulating a backend that breaks one rule of `Spec/backends.md` (Fault.swift).
extension Driver {
    // MARK: Before an open

    /// Applies the faults that act on the folder before `session`'s cache is opened.
    func prepareFolder(_ session: CacheSession, readOnly: Bool) {
        let folder = session.folder
        if faults.contains(.linksFollowed) {
            for name in ["entries", "external"] {
                Self.replaceLinksByTheirTargets(in: folder.appendingPathComponent(name))
            }
        }
        if faults.contains(.readOnlyRemovesStrays), readOnly { Self.removeStrayFiles(in: folder) }
        if faults.contains(.directoryAdoptsMisnamedFiles), !readOnly, session.backend == "directory" {
            Self.renameEntryFilesAfterTheirKeys(in: folder.appendingPathComponent("entries"))
        }
        if faults.contains(.dictionaryBlessesDamage), !readOnly, session.backend == "dictionary" {
            session.damagedDictionaryRecords = Self.damagedDictionaryRecords(
                in: Self.bytes(at: folder.appendingPathComponent("cache.dictionary")) ?? [])
        }
    }

    /// links-followed: every link in the folder becomes a copy of the file it names, as if a
    /// reader had followed it.
    static func replaceLinksByTheirTargets(in folder: URL) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let item = folder.appendingPathComponent(name)
            guard (try? manager.destinationOfSymbolicLink(atPath: item.path)) != nil,
                let target = manager.contents(atPath: item.resolvingSymlinksInPath().path)
            else { continue }
            try? manager.removeItem(at: item)
            _ = manager.createFile(atPath: item.path, contents: target)
        }
    }

    /// read-only-removes-strays: what a writable open deletes (Spec/backends.md §1.4, §1.6,
    /// §3.4, §5.5; Spec/store.md §1), deleted by a read-only one.
    static func removeStrayFiles(in folder: URL) {
        let manager = FileManager.default
        func isEntryName(_ name: String) -> Bool {
            name.utf8.count == 64
                && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        func names(_ sub: String) -> [String] {
            (try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? []
        }
        for name in names("")
        where name.hasPrefix(".tmp-") || name.hasSuffix(".compacting") || name.hasSuffix(".hint.tmp") {
            try? manager.removeItem(at: folder.appendingPathComponent(name))
        }
        for name in names("entries") where !isEntryName(name) {
            try? manager.removeItem(at: folder.appendingPathComponent("entries/" + name))
        }
        for name in names("external") {
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            let valid = parts.count == 2 && isEntryName(String(parts[0])) && parts[1].utf8.count == 16
            if !valid { try? manager.removeItem(at: folder.appendingPathComponent("external/" + name)) }
        }
    }

    /// directory-adopts-misnamed-files: an intact entry file whose key maps to another name is
    /// renamed to that name, so the open adopts it under its key.
    static func renameEntryFilesAfterTheirKeys(in entries: URL) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: entries.path)) ?? [] {
            let item = entries.appendingPathComponent(name)
            guard let bytes = bytes(at: item), bytes.count >= 60, bytes[0..<8].elementsEqual("ICENTR02".utf8)
            else {
                continue
            }
            let keyLength = Int(littleEndian(bytes, at: 8, count: 4))
            guard bytes.count >= 60 + keyLength else { continue }
            let owner = SHA256.hexDigest(bytes[60..<60 + keyLength])
            let destination = entries.appendingPathComponent(owner)
            if owner != name, !manager.fileExists(atPath: destination.path) {
                try? manager.moveItem(at: item, to: destination)
            }
        }
    }

    // MARK: dictionary-blesses-damage

    /// The records of a dictionary file whose header is intact and whose value fails its
    /// checksum, by key.
    static func damagedDictionaryRecords(in file: [UInt8]) -> [[UInt8]: [UInt8]] {
        var damaged: [[UInt8]: [UInt8]] = [:]
        for record in dictionaryRecords(in: file) {
            let keyLength = Int(littleEndian(record, at: 0, count: 4))
            let key = Array(record[52..<52 + keyLength])
            let headerIsIntact =
                XXH3.checksum(of: Array(record[0..<44]) + key) == littleEndian(record, at: 44, count: 8)
            let valueIsIntact =
                XXH3.checksum(of: record[(52 + keyLength)...]) == littleEndian(record, at: 36, count: 8)
            if headerIsIntact && !valueIsIntact { damaged[key] = record }
        }
        return damaged
    }

    /// The entry records of a dictionary file (Spec/backends.md §2.1), as far as they are whole.
    static func dictionaryRecords(in file: [UInt8]) -> [[UInt8]] {
        guard file.count >= 16 else { return [] }
        var records: [[UInt8]] = []
        var offset = 16
        while offset + 52 <= file.count {
            let end =
                offset + 52 + Int(littleEndian(file, at: offset, count: 4))
                + Int(min(littleEndian(file, at: offset + 4, count: 8), UInt64(file.count)))
            guard end <= file.count, end > offset else { break }
            records.append(Array(file[offset..<end]))
            offset = end
        }
        return records
    }

    /// After a close: the damaged records the backend dropped from its rewritten file come back
    /// with fresh checksums, as a rewrite that blessed them would have written them.
    func blessDamagedDictionaryRecords(_ session: CacheSession) {
        let path = session.folder.appendingPathComponent("cache.dictionary")
        guard !session.damagedDictionaryRecords.isEmpty, let file = Self.bytes(at: path) else { return }
        var records = Self.dictionaryRecords(in: file)
        let held = Set(records.map { Array($0[52..<52 + Int(Self.littleEndian($0, at: 0, count: 4))]) })
        for (key, var record) in session.damagedDictionaryRecords where !held.contains(key) {
            Self.write(XXH3.checksum(of: record[(52 + key.count)...]), into: &record, at: 36)
            Self.write(XXH3.checksum(of: Array(record[0..<44]) + key), into: &record, at: 44)
            records.append(record)
        }
        records.sort { $0[52...].lexicographicallyPrecedes($1[52...]) }
        var rewritten = Array(file[0..<12])
        withUnsafeBytes(of: UInt32(records.count).littleEndian) { rewritten += $0 }
        _ = FileManager.default.createFile(atPath: path.path, contents: Data(rewritten + records.joined()))
        session.damagedDictionaryRecords = [:]
    }

    // MARK: damaged-variant-kept

    /// After a close: a log loses the remove record of each damaged variant that a request made
    /// again (remove, the original's touch, put), as if the variant had been written over
    /// without being removed; the snapshot is made again for the shorter log.
    func dropRemovalsOfRemadeVariants(logAt path: String) {
        guard var log = Self.bytes(at: URL(fileURLWithPath: path)), log.count >= 32 else { return }
        var records: [(offset: Int, end: Int, type: UInt8, key: [UInt8])] = []
        var offset = 32
        while offset + 56 <= log.count {
            let keyLength = Int(Self.littleEndian(log, at: offset + 18, count: 2))
            let end =
                offset + 56 + keyLength
                + Int(min(Self.littleEndian(log, at: offset + 24, count: 8), UInt64(log.count)))
            guard end <= log.count, end > offset else { break }
            records.append((offset, end, log[offset + 16], Array(log[offset + 56..<offset + 56 + keyLength])))
            offset = end
        }
        var removals: [Range<Int>] = []
        for index in records.indices.dropLast(2) {
            let (remove, touch, put) = (records[index], records[index + 1], records[index + 2])
            guard remove.type == 2, remove.key.count > 6, remove.key[0] == 0xFF, remove.key[1] == 0x56,
                touch.type == 3, touch.key == Array(remove.key[6...]), put.type == 1, put.key == remove.key
            else { continue }
            removals.append(remove.offset..<remove.end)
        }
        guard !removals.isEmpty else { return }
        for range in removals.reversed() { log.removeSubrange(range) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(log))
        try? FileManager.default.removeItem(atPath: path + ".hint")
        if let store = try? LogStore(path: path) { try? store.close() }
    }

    // MARK: hybrid-superseded-deleted-early

    /// The external files of `key` in a hybrid folder (Spec/backends.md §5.1).
    static func externalFiles(of key: String, in folder: URL) -> Set<String> {
        let prefix = SHA256.hexDigest(Array(key.utf8)) + "-"
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("external").path)) ?? []
        return Set(names.filter { $0.hasPrefix(prefix) })
    }

    /// Deletes external files at once, without waiting for the records that supersede them.
    static func deleteExternalFiles(_ names: Set<String>, in folder: URL) {
        for name in names {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("external/" + name))
        }
    }

    // MARK: Bytes

    static func bytes(at url: URL) -> [UInt8]? {
        FileManager.default.contents(atPath: url.path).map { [UInt8]($0) }
    }

    /// The unsigned little-endian integer of `count` bytes at `offset`.
    static func littleEndian<Bytes: Collection>(_ bytes: Bytes, at offset: Int, count: Int) -> UInt64
    where Bytes.Element == UInt8, Bytes.Index == Int {
        (0..<count).reversed().reduce(0) { $0 << 8 | UInt64(bytes[bytes.startIndex + offset + $1]) }
    }
}
