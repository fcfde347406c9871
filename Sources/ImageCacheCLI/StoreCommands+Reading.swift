import Foundation
import ImageCacheKit
import LogStoreKit
import PNG
import Platform

/// `get`, `ls`, `stat` and `verify` (`Spec/cache.md` §12.4, `Spec/store.md` §10.2).
extension StoreCommands {
    @Sendable static func get(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        try rejectCacheOptions(["--ttl", "--max-age"], in: arguments, for: location)
        // The destination is checked (and its temporary file made) before the store is read.
        let output = try OutputFile(arguments.operands.count > 1 ? arguments.operands[1] : "-")
        let opened = try OpenedStore.forReading(
            location, settings: settings, readOnly: arguments.has("--read-only"), mustWrite: true)
        let value = try OpenedStore.using(opened) { store -> [UInt8]? in
            switch store {
            case .empty:
                return nil
            case .cache(let cache):
                return try cache.bytes(forKey: key)
            case .log(let log):
                guard let metadata = log.metadata(forKey: key), !metadata.isExpired(at: settings.now) else {
                    return nil
                }
                return try log.value(forKey: key)
            }
        }
        guard let value else {
            output.discard()
            throw CommandLineError.notFound(key)
        }
        try output.write(value)
        try output.commit()
    }

    @Sendable static func variant(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let maximum = try ArgumentValues.maximumPixelSize(arguments, command: "variant")
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        if case .logFile(let path) = location {
            throw CommandLineError.usage("variant needs a cache folder, and \(path) is a log store file")
        }
        let output = try OutputFile(arguments.operands.count > 1 ? arguments.operands[1] : "-")
        let opened = try OpenedStore.forReading(
            location, settings: settings, readOnly: arguments.has("--read-only"), mustWrite: true)
        let bitmap = try OpenedStore.using(opened) { store -> Bitmap? in
            guard case .cache(let cache) = store else { return nil }
            return try cache.variant(forKey: key, maximumPixelSize: maximum)
        }
        guard let bitmap else {
            output.discard()
            throw CommandLineError.notFound(key)
        }
        try output.write(PNGEncoder.encode(bitmap))
        try output.commit()
    }

    @Sendable static func list(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let opened = try OpenedStore.forReading(
            location, settings: settings, readOnly: arguments.has("--read-only"))
        let entries = try OpenedStore.using(opened) { $0.entries(at: settings.now) }
        var text = ""
        for entry in entries {
            if arguments.has("--json") {
                text += JSONText.object([
                    ("key", .string(entry.key)), ("bytes", .unsigned(entry.byteCount)),
                    ("created_ms", .integer(entry.createdAt)),
                    ("expires_ms", entry.expiresAt == .max ? .null : .integer(entry.expiresAt)),
                    ("access_sequence", .unsigned(entry.accessSequence)),
                ])
            } else {
                text += [
                    KeyEscaping.escaped(entry.key), HumanFormat.size(entry.byteCount),
                    HumanFormat.instant(entry.createdAt), HumanFormat.expiry(entry.expiresAt),
                    String(entry.accessSequence),
                ].joined(separator: "\t")
            }
            text += "\n"
        }
        try StandardOutput.write(text)
    }

    @Sendable static func statistics(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let opened = try OpenedStore.forReading(
            location, settings: settings, readOnly: arguments.has("--read-only"))
        // (name, JSON value, human text); numbers show exactly, then in human units.
        var fields: [(String, JSONText.Value, String)] = [("store", .string(location.path), location.path)]
        func count(_ name: String, _ value: Int) {
            fields.append((name, .integer(Int64(value)), String(value)))
        }
        func bytes(_ name: String, _ value: UInt64) {
            fields.append((name, .unsigned(value), "\(value) (\(HumanFormat.size(value)))"))
        }
        switch location {
        case .logFile:
            fields.append(("kind", .string("log-store"), "log store file"))
        case .cacheFolder(_, let backend, _):
            fields.append(("kind", .string("cache"), "cache folder"))
            fields.append(("backend", .string(backend.rawValue), backend.rawValue))
        }
        try OpenedStore.using(opened) { store in
            let now = settings.now
            switch store {
            case .empty:
                count("entries", 0)
                bytes("bytes", 0)
            case .cache(let cache):
                let statistics = cache.statistics
                count("entries", statistics.entries)
                bytes("bytes", UInt64(statistics.bytes))
                count("expired entries", statistics.expiredEntries)
                count("variants", statistics.variants)
                bytes("variant bytes", UInt64(statistics.variantBytes))
                bytes("file bytes", bytesOfFiles(under: location.path))
                bytes("disk bytes", UInt64(statistics.diskBytes))
            case .log(let log):
                let held = log.entries()
                let live = held.filter { !$0.metadata.isExpired(at: now) }
                count("entries", live.count)
                bytes("bytes", live.reduce(0) { $0 + $1.valueLength })
                count("expired entries", held.count - live.count)
                let statistics = log.statistics
                bytes("file bytes", statistics.fileSize)
                bytes("dead bytes", statistics.deadBytes)
                bytes("index bytes", UInt64(statistics.indexBytes))
                // The log and its snapshot (`Spec/store.md` §1), as a cache folder counts them.
                bytes(
                    "disk bytes",
                    try FileSystem.allocatedBytes(under: location.path)
                        + FileSystem.allocatedBytes(under: location.path + ".hint"))
            }
        }
        if arguments.has("--json") {
            let members = fields.map { ($0.0.replacingOccurrences(of: " ", with: "_"), $0.1) }
            try StandardOutput.write(JSONText.object(members) + "\n")
        } else {
            try StandardOutput.write(fields.map { "\($0.0): \($0.2)\n" }.joined())
        }
    }

    /// The sizes of the regular files under `path`, added up (links are not followed).
    private static func bytesOfFiles(under path: String) -> UInt64 {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total: UInt64 = 0
        while walker.nextObject() != nil {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                total += (walker.fileAttributes?[.size] as? NSNumber)?.uint64Value ?? 0
            }
        }
        return total
    }

    @Sendable static func verify(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        switch location {
        case .logFile(let path):
            try verifyLog(at: path)
        case .cacheFolder(let directory, .log, exists: true):
            try verifyLog(at: directory.appendingPathComponent(Backend.log.markerNames[0]).path)
        case .cacheFolder:
            let opened = try OpenedStore.forReading(
                location, settings: settings, readOnly: arguments.has("--read-only"))
            guard case .cache(let cache) = opened else {
                try StandardOutput.write("ok: 0 entries, 0 bytes\n")
                return
            }
            let verdict = try OpenedStore.using(opened) { _ in try cache.verify() }
            try printVerdict(
                entries: verdict.checkedEntries, bytes: UInt64(verdict.intactBytes),
                damaged: verdict.damagedEntries.map { ($0.key, $0.reason) }, record: nil)
        }
    }

    /// Checks every record of a log store's file (`Spec/store.md` §8.5) without opening it for
    /// writing; when a record is damaged, reads every entry to name the damaged keys.
    private static func verifyLog(at path: String) throws {
        let scan = try LogStore.verify(path: path)
        let opened = Result { () throws(LogStoreError) in
            try LogStore(path: path, options: .init(readOnly: true))
        }
        if case .failure(.corruptRecord) = opened {
            // Damage in the middle stops a plain open; the scan names the offset all the same.
            try printVerdict(entries: 0, bytes: 0, damaged: [], record: scan)
            return
        }
        let store = try opened.get()
        defer { try? store.close() }
        let held = store.entries().sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var intact: UInt64 = 0
        var damaged: [(String, String)] = []
        for entry in held {
            // Only a damaged log needs every value read again, to name the damaged keys.
            let read =
                scan.isValid
                ? .success(nil) : Result { () throws(LogStoreError) in try store.value(forKey: entry.key) }
            switch read {
            case .success: intact += entry.valueLength
            case .failure(let error):
                switch error {
                case .checksumMismatch, .truncatedRecord: damaged.append((entry.key, error.description))
                default: throw error
                }
            }
        }
        try printVerdict(
            entries: held.count, bytes: intact, damaged: damaged, record: scan,
            records: " (\(scan.validRecords) records, \(scan.checkedBytes) bytes of log checked)")
    }

    /// Prints the verdict and throws exit 3 when anything is damaged (`Spec/cache.md` §12.4).
    private static func printVerdict(
        entries: Int, bytes: UInt64, damaged: [(key: String, reason: String)],
        record: LogStore.VerificationReport?, records: String = ""
    ) throws {
        let badRecord = record.flatMap { report in report.firstDamagedOffset.map { (report, $0) } }
        guard !damaged.isEmpty || badRecord != nil else {
            try StandardOutput.write("ok: \(entries) entries, \(bytes) bytes\(records)\n")
            return
        }
        var text = ""
        var summary: [String] = []
        if let (report, offset) = badRecord {
            let reason = report.failure.map { "\($0)" } ?? "damaged"
            text += "damaged: record at offset \(offset): \(reason)\n"
            summary.append(
                "the log is damaged at offset \(offset) after \(report.validRecords) intact records")
        }
        for (key, reason) in damaged { text += "damaged: \(KeyEscaping.escaped(key)): \(reason)\n" }
        if let first = damaged.first {
            summary.append(
                "\(damaged.count) of \(entries) entries are damaged, first '\(KeyEscaping.escaped(first.key))': "
                    + first.reason)
        }
        try StandardOutput.write(text)
        throw CommandLineError(summary.joined(separator: "; "), status: .damaged)
    }
}
