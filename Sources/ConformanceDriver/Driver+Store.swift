import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import LogStoreKit
#endif

/// `store.read` and `store.write` (Spec/conformance.md §5.4).
extension Driver {
    func readStore(_ request: Request) throws(RequestFailure) -> [String: Message] {
        var file = try request.bytes("file")
        if faults.contains(.fileHeaderChecksumUnchecked) { Driver.repairFileHeaderChecksum(&file) }
        if faults.contains(.publishedDamageReadAsATail), request.has("shared") {
            Driver.cutAtFirstFailingRecordHeader(&file)
        }
        let compactAt = try request.optionalInteger("compactAt")
        if faults.contains(.compactionHeaderUnchecked), compactAt != nil, request.has("hint") {
            Driver.repairRecordHeaderChecksums(&file)
        }
        let readOnly = request.fields["readOnly"] == .bool(true)
        let damage = DamageHandling(
            skips: request.fields["skipsDamage"] == .bool(true),
            repairs: request.fields["repairsDamage"] == .bool(true))
        let folder = try freshFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store").path
        guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
            throw RequestFailure(name: "driverSetup: cannot write \(path)")
        }
        if request.has("hint") {
            var hint = try request.bytes("hint")
            if faults.contains(.snapshotGenerationUnchecked) { Driver.adoptGeneration(of: file, into: &hint) }
            guard FileManager.default.createFile(atPath: path + ".hint", contents: Data(hint)) else {
                throw RequestFailure(name: "driverSetup: cannot write \(path).hint")
            }
        }
        let givenMark = request.has("sync") ? try request.bytes("sync") : nil
        // A fault changes only what the open believes: a read-only open reports the mark given.
        let faultyMark = faultyMark(givenMark, for: file)
        if let mark = faultyMark ?? givenMark {
            guard FileManager.default.createFile(atPath: path + ".sync", contents: Data(mark)) else {
                throw RequestFailure(name: "driverSetup: cannot write \(path).sync")
            }
        }
        // A coordination file makes the open a shared one (Spec/store.md §12.2), the first
        // process's or, with joins, a later one's.
        var sharing: LogStore.Sharing?
        if request.has("shared") {
            var coordination = try Driver.coordinationFile(request)
            if faults.contains(.currentAreaIgnored), coordination.count >= 88 {
                coordination[87] &= 0x7F  // bit 63 of the areas word at offset 80
            }
            guard FileManager.default.createFile(atPath: path + ".shared", contents: Data(coordination))
            else { throw RequestFailure(name: "driverSetup: cannot write \(path).shared") }
            let first = request.fields["joins"] != .bool(true)
            sharing = LogStore.Sharing(isOnlyProcess: { first })
        }
        var store = try openStore(path, readOnly: readOnly, damage: damage, sharing: sharing)
        let damaged = store.recovery.damagedRecords
        if let compactAt {
            do {
                _ = try store.compact(now: faults.contains(.compactionKeepsExpired) ? Int64.min : compactAt)
                try store.close()
            } catch {
                throw RequestFailure(name: Driver.name(of: error))
            }
            store = try openStore(path, damage: damage)
        }
        var answer: [String: Message] = ["entries": .array(listEntries(store))]
        if damage.skips { answer["damaged"] = .array(damaged.map(Driver.message)) }
        guard request.fields["returnFile"] == .bool(true) else {
            try? store.close()
            return answer
        }
        // The log as the open (a migration, a cut tail, a compaction) left it, after a clean close.
        do {
            try store.close()
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
        guard let written = FileManager.default.contents(atPath: path) else {
            throw RequestFailure(name: "driverSetup: cannot read \(path)")
        }
        if faults.contains(.tornTailKept), file.count > 9, file[8] == 2, written.count < file.count {
            answer["file"] = .bytes(file)
        } else {
            answer["file"] = .bytes([UInt8](written))
        }
        if faultyMark != nil, readOnly {
            answer["sync"] = givenMark.map { .bytes($0) }
        } else if let mark = FileManager.default.contents(atPath: path + ".sync") {
            answer["sync"] = .bytes([UInt8](mark))
        }
        if sharing != nil, let coordination = FileManager.default.contents(atPath: path + ".shared") {
            // The header only: the staging area after it is 1 MiB (Spec/store.md §12.2).
            answer["shared"] = .bytes([UInt8](coordination.prefix(Driver.coordinationHeaderSize)))
            answer["sharedLength"] = .integer(Int64(coordination.count))
        }
        return answer
    }

    /// The size of a coordination file's header (Spec/store.md §12.2), all a response carries.
    static let coordinationHeaderSize = 4_096

    /// Where a coordination file's second area begins (Spec/store.md §12.7).
    static let secondAreaOffset = 528_384

    /// The coordination file a store.read asks for (Spec/conformance.md §5.4): the bytes of
    /// `shared`, extended with zeros to `sharedLength`, with `sharedArea1` at the second area's
    /// start and the current boot's identity at offset 72 when `currentBoot` is true.
    private static func coordinationFile(_ request: Request) throws(RequestFailure) -> [UInt8] {
        var bytes = try request.bytes("shared")
        if let length = try request.optionalInteger("sharedLength") {
            guard length >= bytes.count, length <= 1 << 30 else {
                throw RequestFailure.badRequest("sharedLength \(length) is shorter than shared or too large")
            }
            bytes += [UInt8](repeating: 0, count: Int(length) - bytes.count)
        }
        if request.fields["sharedArea1"] != nil {
            let area = try request.bytes("sharedArea1")
            guard bytes.count >= secondAreaOffset + area.count else {
                throw RequestFailure.badRequest(
                    "sharedArea1 needs a sharedLength of at least \(secondAreaOffset + area.count)")
            }
            bytes.replaceSubrange(secondAreaOffset..<secondAreaOffset + area.count, with: area)
        }
        if request.fields["currentBoot"] == .bool(true) {
            guard bytes.count >= 80 else {
                throw RequestFailure.badRequest("currentBoot needs a coordination file of at least 80 bytes")
            }
            var identity = currentBootIdentity
            for index in 72..<80 {
                bytes[index] = UInt8(truncatingIfNeeded: identity)
                identity >>= 8
            }
        }
        return bytes
    }

    /// The identity of the system's current boot, computed as Spec/store.md §12.10 says and not
    /// with the implementation's own code, so a wrong one in the store does not go unnoticed:
    /// on Linux the UUID of `/proc/sys/kernel/random/boot_id`, its 16 bytes read as two
    /// big-endian words combined by exclusive or; on Darwin `kern.boottime` as seconds ×
    /// 1,000,000 + microseconds; 0 where the system does not tell.
    static let currentBootIdentity: UInt64 = {
        #if os(Linux)
            guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            else { return 0 }
            let digits = text.compactMap { $0.hexDigitValue }.map(UInt64.init)
            guard digits.count == 32 else { return 0 }
            let high = digits[0..<16].reduce(0) { $0 << 4 | $1 }
            let low = digits[16..<32].reduce(0) { $0 << 4 | $1 }
            return high ^ low
        #elseif canImport(Darwin)
            var time = timeval()
            var size = MemoryLayout<timeval>.size
            guard sysctlbyname("kern.boottime", &time, &size, nil, 0) == 0 else { return 0 }
            return UInt64(time.tv_sec) &* 1_000_000 &+ UInt64(time.tv_usec)
        #else
            return 0
        #endif
    }()

    /// What a store.read asks the open to do with damage to synchronized data (Spec/store.md
    /// §5.3 rule 4): skip it record by record (§5.4), cut it off as a tail, or neither (refuse).
    struct DamageHandling {
        var skips = false
        var repairs = false
    }

    /// A span open skipped, as store.read reports it (Spec/conformance.md §5.4).
    private static func message(_ damaged: LogStore.DamagedRecord) -> Message {
        var fields: [String: Message] = [
            "offset": .integer(Int64(clamping: damaged.offset)),
            "length": .integer(Int64(clamping: damaged.length)),
        ]
        if let key = damaged.key, !key.isEmpty { fields["keyBytes"] = .bytes(key) }
        return .object(fields)
    }

    func writeStore(_ request: Request) throws(RequestFailure) -> [String: Message] {
        let folder = try freshFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store").path
        let store = try openStore(path)
        // For the keep-removed-key-after-compaction fault: what each removed key held.
        var removed: [(String, [UInt8], EntryMetadata)] = []
        do {
            for operation in try request.array("operations") {
                if operation.has("put"), operation.has("userMetadata") {
                    // A put with user metadata (Spec/store.md §13.2): one record with its block.
                    let value = try operation.bytes("value")
                    let userMetadata = try operation.bytes("userMetadata")
                    let metadata = try Driver.metadata(operation)
                    let key = Array(try operation.string("put").utf8)
                    try Driver.put(value, key, metadata, userMetadata, into: store)
                } else if operation.has("put") {
                    try store.put(
                        try operation.bytes("value"), forKey: try operation.string("put"),
                        metadata: try Driver.metadata(operation))
                } else if operation.has("setUserMetadata") {
                    try store.setUserMetadata(
                        try operation.bytes("userMetadata"),
                        forKey: Array(try operation.string("setUserMetadata").utf8))
                } else if operation.has("touch") {
                    let key = try operation.string("touch")
                    try appendForAbsentKey(key, store)
                    try store.updateMetadata(try Driver.metadata(operation), forKey: key)
                } else if operation.has("remove") {
                    let key = try operation.string("remove")
                    try appendForAbsentKey(key, store)
                    if faults.contains(.keepRemovedKeyAfterCompaction),
                        let metadata = store.metadata(forKey: key),
                        let value = try store.value(forKey: key)
                    {
                        removed.append((key, value, metadata))
                    }
                    try store.removeValue(forKey: key)
                } else if operation.has("removeAll") {
                    try store.removeAll()
                } else if operation.has("compact") {
                    _ = try store.compact(now: try operation.integer("compact"))
                    for (key, value, metadata) in removed {
                        try store.put(value, forKey: key, metadata: metadata)
                    }
                    removed.removeAll()
                } else {
                    throw RequestFailure.badRequest(
                        "unknown store operation \(Message.object(operation.fields).line)")
                }
            }
        } catch let failure as RequestFailure {
            throw failure
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
        let entries = listEntries(store)
        do {
            try store.close()
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
        guard let file = FileManager.default.contents(atPath: path) else {
            throw RequestFailure(name: "driverSetup: cannot read \(path)")
        }
        var answer: [String: Message] = ["file": .bytes([UInt8](file)), "entries": .array(entries)]
        if let mark = FileManager.default.contents(atPath: path + ".sync") {
            answer["sync"] = .bytes([UInt8](mark))
        }
        return answer
    }

    /// records-for-absent-keys: a writer that appends records for a key it does not hold (here
    /// a put and a remove, which leave the same entries but not the same file).
    private func appendForAbsentKey(_ key: String, _ store: LogStore) throws {
        guard faults.contains(.recordsForAbsentKeys), store.metadata(forKey: key) == nil else { return }
        try store.put([], forKey: key, metadata: EntryMetadata(createdAt: 0, expiresAt: 0, accessSequence: 0))
        try store.removeValue(forKey: key)
    }

    private func openStore(
        _ path: String, readOnly: Bool = false, damage: DamageHandling = .init(),
        sharing: LogStore.Sharing? = nil
    ) throws(RequestFailure) -> LogStore {
        var options = LogStore.Options()
        options.readOnly = readOnly
        options.sharing = sharing
        options.skipsDamagedRecords = damage.skips
        options.repairsDamage = damage.repairs || faults.contains(.middleDamageCut)
        if faults.contains(.valueChecksumsUnchecked) { options.verifyChecksumsOnRead = false }
        do {
            return try LogStore(path: path, options: options)
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
    }

    /// Live entries sorted by key bytes, each with its value or the error reading it gave.
    private func listEntries(_ store: LogStore) -> [Message] {
        store.entries().sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.map {
            entry in
            var fields: [String: Message] = [
                "key": .string(entry.key),
                "createdAt": .integer(entry.metadata.createdAt),
                "expiresAt": .integer(entry.metadata.expiresAt),
                "accessSequence": .integer(Int64(bitPattern: entry.metadata.accessSequence)),
            ]
            do {
                if let value = try store.value(forKey: entry.key) {
                    fields["value"] = .bytes(value)
                } else {
                    fields["valueError"] = .string("missing")
                }
            } catch {
                fields["valueError"] = .string(Driver.name(of: error))
            }
            // Its user metadata (Spec/store.md §13.4), read and checked without the value.
            do {
                fields["userMetadata"] = .bytes(try store.userMetadata(forKey: Array(entry.key.utf8)) ?? [])
            } catch {
                fields["userMetadataError"] = .string(Driver.name(of: error))
            }
            return .object(fields)
        }
    }

    private static func put(
        _ value: [UInt8], _ key: [UInt8], _ metadata: EntryMetadata, _ userMetadata: [UInt8],
        into store: LogStore
    ) throws {
        var failure: (any Error)?
        value.withUnsafeBytes { bytes in
            do {
                try store.put(bytes, forKey: key, metadata: metadata, userMetadata: userMetadata)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private static func metadata(_ operation: Request) throws(RequestFailure) -> EntryMetadata {
        EntryMetadata(
            createdAt: try operation.integer("createdAt"), expiresAt: try operation.integer("expiresAt"),
            accessSequence: UInt64(clamping: try operation.integer("accessSequence")))
    }
}
