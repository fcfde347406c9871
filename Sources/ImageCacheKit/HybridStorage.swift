#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
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
final class HybridStorage: CacheStorage {
    static let logName = "hybrid.log"
    static let externalName = "external"
    static let inlineTag: UInt8 = 0
    static let externalTag: UInt8 = 1
    /// Tag, length, checksum and an 81-character name: every reference is this long.
    static let referenceLength = 1 + 8 + 4 + 81

    struct Reference: Equatable {
        var length: UInt64
        var checksum: UInt32
        var name: String

        var encoded: [UInt8] {
            var writer = ByteWriter(capacity: HybridStorage.referenceLength)
            writer.append(HybridStorage.externalTag)
            writer.append(length)
            writer.append(checksum)
            writer.append(name.utf8)
            return writer.bytes
        }

        init(length: UInt64, checksum: UInt32, name: String) {
            self.length = length
            self.checksum = checksum
            self.name = name
        }

        /// Parses a log value; nil unless it is a well-formed reference.
        init?(_ bytes: [UInt8]) {
            guard bytes.count == HybridStorage.referenceLength, bytes[0] == HybridStorage.externalTag else {
                return nil
            }
            var reader = ByteReader(bytes, offset: 1)
            guard let length = reader.read(UInt64.self), let checksum = reader.read(UInt32.self),
                let nameBytes = reader.readBytes(81), HybridStorage.isExternalFileName(nameBytes)
            else { return nil }
            self.init(length: length, checksum: checksum, name: String(decoding: nameBytes, as: UTF8.self))
        }
    }

    let directory: String
    let externalPath: String
    let threshold: Int
    let log: LogStorage
    /// The external file of every entry stored outside the log.
    private var externalNames: [[UInt8]: String] = [:]
    /// External files written since the last synchronize(), to fsync before the log.
    private var unsynchronizedFiles: [String] = []

    init(directory: String, threshold: Int) throws(CacheError) {
        self.directory = directory
        self.threshold = threshold
        externalPath = directory + "/" + Self.externalName
        try FileSystem.createDirectory(at: externalPath)
        log = try LogStorage(directory: directory, fileName: Self.logName)
    }

    static func externalFileName(forKey key: String, accessSequence: UInt64) -> String {
        let digits = String(accessSequence, radix: 16)
        return SHA256.hexDigest(key.utf8) + "-" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func isExternalFileName<Bytes: Collection>(_ name: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard name.count == 81 else { return false }
        for (position, byte) in name.enumerated() {
            let isHex = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
            if position == 64 ? byte != 0x2D : !isHex { return false }
        }
        return true
    }

    func loadEntries() throws(CacheError) -> [StoredEntry] {
        var result: [StoredEntry] = []
        for entry in try log.loadEntries() {
            var byteCount = max(entry.byteCount - 1, 0)
            // Only a value exactly as long as a reference can be one; read just those.
            if entry.byteCount == Self.referenceLength {
                do {
                    if let reference = Reference(try log.storedValue(forKey: entry.key)) {
                        byteCount = Int(clamping: reference.length)
                        externalNames[Array(entry.key.utf8)] = reference.name
                    }
                } catch {
                    // A damaged record is reported when the entry is read (Spec/cache.md §8.2).
                    guard case .corruptEntry = error else { throw error }
                }
            }
            result.append(StoredEntry(key: entry.key, byteCount: byteCount, metadata: entry.metadata))
        }
        return result
    }

    func value(forKey key: String) throws(CacheError) -> [UInt8] {
        let raw = try log.storedValue(forKey: key)
        guard let tag = raw.first else { throw .corruptEntry(key: key, reason: "empty hybrid log value") }
        if tag == Self.inlineTag { return Array(raw[1...]) }
        guard let reference = Reference(raw) else {
            throw .corruptEntry(key: key, reason: "malformed hybrid log value (tag \(tag))")
        }
        guard let bytes = try FileSystem.readFile(at: externalPath + "/" + reference.name) else {
            throw .corruptEntry(key: key, reason: "external file \(reference.name) is missing")
        }
        guard UInt64(bytes.count) == reference.length, CRC32.checksum(of: bytes) == reference.checksum else {
            throw .corruptEntry(
                key: key, reason: "external file \(reference.name) fails its length or checksum")
        }
        return bytes
    }

    func write(_ value: [UInt8], forKey key: String, metadata: CacheEntryMetadata) throws(CacheError) {
        let keyBytes = Array(key.utf8)
        let previous = externalNames[keyBytes]
        if value.count >= threshold {
            let name = Self.externalFileName(forKey: key, accessSequence: metadata.accessSequence)
            let path = externalPath + "/" + name
            // The file is in place before any record refers to it (§5.3).
            try FileSystem.writeAtomically(value, to: path, durable: false)
            unsynchronizedFiles.append(path)
            let reference = Reference(
                length: UInt64(value.count), checksum: CRC32.checksum(of: value), name: name)
            try log.write(reference.encoded, forKey: key, metadata: metadata)
            externalNames[keyBytes] = name
        } else {
            var tagged = [UInt8]()
            tagged.reserveCapacity(value.count + 1)
            tagged.append(Self.inlineTag)
            tagged.append(contentsOf: value)
            try log.write(tagged, forKey: key, metadata: metadata)
            externalNames.removeValue(forKey: keyBytes)
        }
        if let previous, previous != externalNames[keyBytes] {
            try FileSystem.removeFile(at: externalPath + "/" + previous)
        }
    }

    func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) throws(CacheError) {
        try log.updateMetadata(metadata, forKey: key)
    }

    func removeValue(forKey key: String) throws(CacheError) {
        try log.removeValue(forKey: key)
        // The record is gone first, so a crash here leaves an orphan, never a dangling reference.
        if let name = externalNames.removeValue(forKey: Array(key.utf8)) {
            try FileSystem.removeFile(at: externalPath + "/" + name)
        }
    }

    func removeAll() throws(CacheError) {
        try log.removeAll()
        externalNames.removeAll()
        unsynchronizedFiles.removeAll()
        for name in try FileSystem.contentsOfDirectory(at: externalPath) {
            try FileSystem.removeFile(at: externalPath + "/" + name)
        }
    }

    func synchronize() throws(CacheError) {
        for path in unsynchronizedFiles {
            // A file replaced or removed since is no longer referenced; nothing to make durable.
            try FileSystem.synchronizeFile(at: path, ignoringMissing: true)
        }
        if !unsynchronizedFiles.isEmpty { try FileSystem.synchronizeDirectory(at: externalPath) }
        unsynchronizedFiles.removeAll()
        try log.synchronize()
    }

    func compact(now: Int64) throws(CacheError) {
        try log.compact(now: now)
        try removeUnreferencedFiles()
    }

    var compactionIsDue: Bool { log.compactionIsDue }

    /// Deletes external files no log record references, and temporary files (§5.4).
    func removeUnreferencedFiles() throws(CacheError) {
        let referenced = Set(externalNames.values)
        for name in try FileSystem.contentsOfDirectory(at: externalPath) where !referenced.contains(name) {
            try FileSystem.removeFile(at: externalPath + "/" + name)
        }
    }

    func close() throws(CacheError) {
        try synchronize()
        try log.close()
    }
}
