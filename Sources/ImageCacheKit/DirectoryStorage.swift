#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// The `directory` backend (`Spec/backends.md` §3): one file per entry plus an index file.
///
/// Layout under the cache folder:
///
///     index                 the index file (§3.3), replaced atomically by synchronize()
///     entries/<name>        one entry file per key (§3.2); <name> is the lowercase hex
///                           SHA-256 of the key's UTF-8 bytes (§1.2)
///     entries/.tmp-*        temporary files, renamed into place or deleted
final class DirectoryStorage: CacheStorage {
    static let indexName = "index"
    static let entriesName = "entries"
    static let entryMagic = Array("ICENTR01".utf8)
    static let indexMagic = Array("ICINDX01".utf8)
    static let indexVersion: UInt32 = 1

    private struct Entry {
        var key: String
        var fileName: String
        var byteCount: Int
        var metadata: CacheEntryMetadata
    }

    let directory: String
    let indexPath: String
    let entriesPath: String
    private var entries: [[UInt8]: Entry] = [:]
    private var isDirty = false
    /// Entry files written since the last synchronize(), to fsync before the index.
    private var unsynchronizedFiles: Set<String> = []

    init(directory: String) throws(CacheError) {
        self.directory = directory
        indexPath = directory + "/" + Self.indexName
        entriesPath = directory + "/" + Self.entriesName
        try FileSystem.createDirectory(at: entriesPath)
    }

    /// The entry file name for a key (`Spec/backends.md` §1.2).
    static func fileName(forKey key: String) -> String {
        SHA256.hexDigest(key.utf8)
    }

    static func isEntryFileName(_ name: String) -> Bool {
        name.utf8.count == 64
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    // MARK: Open (§3.4)

    func loadEntries() throws(CacheError) -> [StoredEntry] {
        let indexed = try readIndex()
        var byFileName: [String: Entry] = [:]
        for entry in indexed ?? [] { byFileName[entry.fileName] = entry }
        var loaded: [[UInt8]: Entry] = [:]
        var sawOrphan = false
        for name in try FileSystem.contentsOfDirectory(at: entriesPath) {
            let path = entriesPath + "/" + name
            guard Self.isEntryFileName(name) else {
                // Leftover temporary files from an interrupted write.
                try FileSystem.removeFile(at: path)
                continue
            }
            if let entry = byFileName.removeValue(forKey: name) {
                loaded[Array(entry.key.utf8)] = entry
                continue
            }
            // A file the index does not know: written after the last synchronize().
            sawOrphan = true
            guard let bytes = try FileSystem.readFile(at: path),
                case .record(let record, valueIsIntact: true)? = Self.decodeEntryFile(bytes),
                Self.fileName(forKey: String(decoding: record.key, as: UTF8.self)) == name
            else {
                // No key can be attributed to damaged bytes; nothing references them.
                try FileSystem.removeFile(at: path)
                continue
            }
            let key = String(decoding: record.key, as: UTF8.self)
            loaded[record.key] = Entry(
                key: key, fileName: name, byteCount: record.value.count, metadata: record.metadata)
        }
        // Index entries whose files are gone were removed after the last synchronize().
        entries = loaded
        isDirty = sawOrphan || indexed == nil || !byFileName.isEmpty
        return loaded.values.map { StoredEntry(key: $0.key, byteCount: $0.byteCount, metadata: $0.metadata) }
    }

    /// The index entries, or nil when the index is missing or damaged (then the entry files
    /// are the truth, §3.4).
    private func readIndex() throws(CacheError) -> [Entry]? {
        guard let bytes = try FileSystem.readFile(at: indexPath) else { return nil }
        guard bytes.count >= 20 else { return nil }
        let storedChecksum = bytes.withUnsafeBytes {
            UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
        }
        guard CRC32.checksum(of: bytes[0..<bytes.count - 4]) == storedChecksum else { return nil }
        var reader = ByteReader(Array(bytes[0..<bytes.count - 4]))
        guard let magic = reader.readBytes(8), Array(magic) == Self.indexMagic,
            let version = reader.read(UInt32.self), let count = reader.read(UInt32.self)
        else { return nil }
        guard version == Self.indexVersion else {
            throw .unsupportedFormatVersion(path: indexPath, version: version)
        }
        var result: [Entry] = []
        result.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let keyLength = reader.read(UInt32.self), let valueLength = reader.read(UInt64.self),
                let createdAt = reader.read(Int64.self), let expiresAt = reader.read(Int64.self),
                let accessSequence = reader.read(UInt64.self), keyLength >= 1,
                let keyBytes = reader.readBytes(Int(keyLength)), valueLength <= UInt64(Int.max)
            else { return nil }
            let key = String(decoding: keyBytes, as: UTF8.self)
            result.append(
                Entry(
                    key: key, fileName: Self.fileName(forKey: key), byteCount: Int(valueLength),
                    metadata: CacheEntryMetadata(
                        createdAt: createdAt, expiresAt: expiresAt, accessSequence: accessSequence)))
        }
        return reader.remaining == 0 ? result : nil
    }

    static func decodeEntryFile(_ bytes: [UInt8]) -> EntryRecord.Decoded? {
        var reader = ByteReader(bytes)
        guard let magic = reader.readBytes(8), Array(magic) == entryMagic else { return nil }
        let decoded = EntryRecord.decode(from: &reader)
        return reader.remaining == 0 ? decoded : .unreadable(reason: "bytes after the record")
    }

    // MARK: Entries

    func value(forKey key: String) throws(CacheError) -> [UInt8] {
        let fileName = Self.fileName(forKey: key)
        let path = entriesPath + "/" + fileName
        guard let bytes = try FileSystem.readFile(at: path) else {
            throw .corruptEntry(key: key, reason: "entry file \(fileName) is missing")
        }
        switch Self.decodeEntryFile(bytes) {
        case nil:
            throw .corruptEntry(key: key, reason: "entry file \(fileName) has a bad magic number")
        case .unreadable(let reason)?:
            throw .corruptEntry(key: key, reason: "entry file \(fileName): \(reason)")
        case .record(let record, let valueIsIntact)?:
            guard record.key.elementsEqual(key.utf8) else {
                throw .corruptEntry(key: key, reason: "entry file \(fileName) holds another key")
            }
            guard valueIsIntact else {
                throw .corruptEntry(key: key, reason: "entry file \(fileName): value checksum mismatch")
            }
            return record.value
        }
    }

    func write(_ value: [UInt8], forKey key: String, metadata: CacheEntryMetadata) throws(CacheError) {
        let keyBytes = Array(key.utf8)
        let fileName = Self.fileName(forKey: key)
        var writer = ByteWriter(capacity: 8 + EntryRecord.overhead + keyBytes.count + value.count)
        writer.append(Self.entryMagic)
        EntryRecord.encode(key: keyBytes, value: value, metadata: metadata, into: &writer)
        let path = entriesPath + "/" + fileName
        try FileSystem.writeAtomically(writer.bytes, to: path, durable: false)
        unsynchronizedFiles.insert(path)
        entries[keyBytes] = Entry(key: key, fileName: fileName, byteCount: value.count, metadata: metadata)
        isDirty = true
    }

    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError) {
        entries[Array(key.utf8)]?.metadata = metadata
        isDirty = true
    }

    func removeValue(forKey key: String) throws(CacheError) {
        let keyBytes = Array(key.utf8)
        let path = entriesPath + "/" + Self.fileName(forKey: key)
        try FileSystem.removeFile(at: path)
        unsynchronizedFiles.remove(path)
        if entries.removeValue(forKey: keyBytes) != nil { isDirty = true }
    }

    func removeAll() throws(CacheError) {
        entries.removeAll()
        unsynchronizedFiles.removeAll()
        isDirty = true
        // The empty index goes first, so a crash part-way leaves files the next open removes.
        try synchronize()
        for name in try FileSystem.contentsOfDirectory(at: entriesPath) {
            try FileSystem.removeFile(at: entriesPath + "/" + name)
        }
    }

    /// Makes the entry files written since the last call durable, then writes the index (§3.3).
    func synchronize() throws(CacheError) {
        if !unsynchronizedFiles.isEmpty {
            for path in unsynchronizedFiles.sorted() {
                try FileSystem.synchronizeFile(at: path, ignoringMissing: true)
            }
            try FileSystem.synchronizeDirectory(at: entriesPath)
            unsynchronizedFiles.removeAll()
        }
        guard isDirty else { return }
        try FileSystem.writeAtomically(encodedIndex(), to: indexPath, durable: true)
        isDirty = false
    }

    /// The index file (§3.3); entries in ascending key byte order.
    func encodedIndex() -> [UInt8] {
        var writer = ByteWriter(capacity: 20 + entries.count * 64)
        writer.append(Self.indexMagic)
        writer.append(Self.indexVersion)
        writer.append(UInt32(entries.count))
        for (key, entry) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            writer.append(UInt32(key.count))
            writer.append(UInt64(entry.byteCount))
            writer.append(entry.metadata.createdAt)
            writer.append(entry.metadata.expiresAt)
            writer.append(entry.metadata.accessSequence)
            writer.append(key)
        }
        writer.append(CRC32.checksum(of: writer.bytes))
        return writer.bytes
    }

    func compact(now: Int64) throws(CacheError) {
        try removeUnreferencedFiles()
        try synchronize()
    }

    /// Deletes temporary files and entry files that no entry names.
    func removeUnreferencedFiles() throws(CacheError) {
        var referenced = Set<String>()
        for entry in entries.values { referenced.insert(entry.fileName) }
        for name in try FileSystem.contentsOfDirectory(at: entriesPath) where !referenced.contains(name) {
            try FileSystem.removeFile(at: entriesPath + "/" + name)
        }
        for name in try FileSystem.contentsOfDirectory(at: directory)
        where name.hasPrefix(FileSystem.temporaryPrefix + Self.indexName) {
            try FileSystem.removeFile(at: directory + "/" + name)
        }
    }

    func close() throws(CacheError) {
        try synchronize()
    }
}
