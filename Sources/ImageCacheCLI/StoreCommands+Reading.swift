import Foundation
import ImageCacheKit
import LogStoreKit
import PNG

/// `get`, `ls`, `stat` and `verify` (`Spec/cache.md` §12.4, `Spec/store.md` §10.2).
extension StoreCommands {
    @Sendable static func get(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        try rejectCacheOptions(["--ttl", "--max-age"], in: arguments, for: location)
        // The destination is checked (and its temporary file made) before the store is read.
        let output = try OutputFile(arguments.operands.count > 1 ? arguments.operands[1] : "-")
        let value = try location.withStoreForReading(
            settings: settings, readOnly: arguments.has("--read-only"), mustWrite: true
        ) { store in
            // Spec/cache.md §13.3: the user metadata is inspected, not a hit.
            try arguments.has("--user-metadata")
                ? store.liveUserMetadata(forKey: key, at: settings.now)
                : store.liveValue(forKey: key, at: settings.now)
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
        let bitmap = try location.withStoreForReading(
            settings: settings, readOnly: arguments.has("--read-only"), mustWrite: true
        ) { store in
            try store.variant(forKey: key, maximumPixelSize: maximum)
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
        let entries = try location.withStoreForReading(
            settings: settings, readOnly: arguments.has("--read-only")
        ) {
            $0.entries(at: settings.now)
        }
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
        // (name, JSON value, human text); numbers show exactly, then in human units.
        var fields: [(String, JSONText.Value, String)] = [("store", .string(location.path), location.path)]
        switch location {
        case .logFile:
            fields.append(("kind", .string("log-store"), "log store file"))
        case .cacheFolder(_, let backend, _):
            fields.append(("kind", .string("cache"), "cache folder"))
            fields.append(("backend", .string(backend.rawValue), backend.rawValue))
        }
        let figures = try location.withStoreForReading(
            settings: settings, readOnly: arguments.has("--read-only")
        ) { store in
            try store.statistics(at: settings.now)
        }
        for figure in figures {
            switch figure {
            case .count(let name, let value):
                fields.append((name, .integer(Int64(value)), String(value)))
            case .bytes(let name, let value):
                fields.append((name, .unsigned(value), "\(value) (\(HumanFormat.size(value)))"))
            }
        }
        if arguments.has("--json") {
            let members = fields.map { ($0.0.replacingOccurrences(of: " ", with: "_"), $0.1) }
            try StandardOutput.write(JSONText.object(members) + "\n")
        } else {
            try StandardOutput.write(fields.map { "\($0.0): \($0.2)\n" }.joined())
        }
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
            let verdict = try location.withStoreForReading(
                settings: settings, readOnly: arguments.has("--read-only")
            ) { store in
                try store.verifyEntries()
            }
            try printVerdict(verdict, record: nil)
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
            try printVerdict(EntryVerification(entries: 0, intactBytes: 0, damaged: []), record: scan)
            return
        }
        let store = try opened.get()
        defer { try? store.close() }
        // Only a damaged log needs every value read again, to name the damaged keys.
        try printVerdict(
            store.verifyEntries(readingValues: !scan.isValid), record: scan,
            records: " (\(scan.validRecords) records, \(scan.checkedBytes) bytes of log checked)")
    }

    /// Prints the verdict and throws exit 3 when anything is damaged (`Spec/cache.md` §12.4).
    private static func printVerdict(
        _ verdict: EntryVerification, record: LogStore.VerificationReport?, records: String = ""
    ) throws {
        let (entries, damaged) = (verdict.entries, verdict.damaged)
        let badRecord = record.flatMap { report in report.firstDamagedOffset.map { (report, $0) } }
        guard !damaged.isEmpty || badRecord != nil else {
            try StandardOutput.write("ok: \(entries) entries, \(verdict.intactBytes) bytes\(records)\n")
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
