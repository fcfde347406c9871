#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// Cache folders written by format 1 (CRC-32 records, `Spec/backends.md` §6). A cache may drop
/// what it holds, so a writable open discards them: it deletes the backend's files and starts
/// empty; a read-only open sees an empty cache. Either way nothing of format 1 is ever read as
/// format 2.
extension CacheFolder {
    /// Whether the folder holds `backend`'s files of format 1, decided from the file that names
    /// the format: the log's file header, the dictionary file's or the index's version.
    func holdsFormatOne(_ backend: Backend) throws(CacheError) -> Bool {
        switch backend {
        case .log: return try logIsFormatOne(LogStorage.fileName)
        case .hybrid: return try logIsFormatOne(HybridStorage.logName)
        case .dictionary:
            return try versionField(of: DictionaryStorage.fileName, magic: DictionaryStorage.magic)
                == DictionaryStorage.formatOneVersion
        case .directory:
            return try versionField(of: DirectoryStorage.indexName, magic: DirectoryStorage.indexMagic)
                == DirectoryStorage.formatOneIndexVersion
        }
    }

    /// Deletes `backend`'s files of format 1: the main file and its companions, and every
    /// regular file in the backend's subfolder (links are removed, never followed).
    func discardFormatOne(_ backend: Backend) throws(CacheError) {
        let names: [String]
        var subfolder: String?
        switch backend {
        case .log: names = Self.logFiles(LogStorage.fileName)
        case .hybrid:
            names = Self.logFiles(HybridStorage.logName)
            subfolder = HybridStorage.externalName
        case .dictionary: names = [DictionaryStorage.fileName]
        case .directory:
            names = [DirectoryStorage.indexName]
            subfolder = DirectoryStorage.entriesName
        }
        // The file that names the format goes last, so a crash part-way is found again.
        if let subfolder, let folder = try openSubfolder(path + "/" + subfolder, creating: false) {
            for entry in try cacheIO({ () throws(SystemCallError) in try folder.entries() })
            where entry.kind != .directory {
                try cacheIO { () throws(SystemCallError) in try folder.removeFile(entry.name) }
            }
        }
        for name in names {
            try cacheIO { () throws(SystemCallError) in try FileSystem.remove(path + "/" + name) }
        }
    }

    /// A log's files, in the order they are deleted: the log itself, which names the format,
    /// last.
    private static func logFiles(_ name: String) -> [String] {
        [name + ".compacting", name + ".hint.tmp", name + ".hint", name + ".sync", name]
    }

    /// Whether the LogStore file `name` has a format-1 header (major version 1 at offset 8).
    private func logIsFormatOne(_ name: String) throws(CacheError) -> Bool {
        guard let header = try leadingBytes(of: name, count: 12), header.count == 12 else { return false }
        let magic: [UInt8] = [0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A]
        return Array(header[0..<8]) == magic && header[8] == 1 && header[9] == 0
    }

    /// The u32 at offset 8 of the file `name` when it starts with `magic`.
    private func versionField(of name: String, magic: [UInt8]) throws(CacheError) -> UInt32? {
        guard let header = try leadingBytes(of: name, count: 12), header.count == 12,
            Array(header[0..<8]) == magic
        else { return nil }
        return UInt32(header[8]) | UInt32(header[9]) << 8 | UInt32(header[10]) << 16 | UInt32(header[11])
            << 24
    }

    /// Up to `count` bytes from the start of the regular file `name`; nil when it is missing.
    private func leadingBytes(of name: String, count: Int) throws(CacheError) -> [UInt8]? {
        let filePath = path + "/" + name
        let fd: Int32
        do {
            fd = try FileSystem.open(filePath, .readOnly, options: .noFollow)
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw CacheError(error)
        }
        defer { FileSystem.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try cacheIO { () throws(SystemCallError) in
            try withMutableBytes(of: &bytes) { (buffer) throws(SystemCallError) in
                try FileSystem.read(fd, into: buffer, at: 0, path: filePath)
            }
        }
        return Array(bytes[..<got])
    }
}
