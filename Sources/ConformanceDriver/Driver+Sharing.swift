import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
#endif

/// Sessions on one folder (`cache.join`, Spec/conformance.md §5.8) and the sharing faults,
/// which emulate an implementation that breaks one rule of Spec/backends.md §9 or
/// Spec/store.md §12 by what the driver answers or writes into the coordination file.
extension Driver {
    /// `cache.join`: opens an existing folder as session `name`, closing the session of that
    /// name this driver held before (a partner keeps its session from the previous case).
    func join(_ request: Request, as name: String) throws -> [String: Message] {
        guard name != "A" else { throw RequestFailure.badRequest("session A is opened with cache.open") }
        let backend = try request.string("backend")
        guard backends.contains(backend) else { throw RequestFailure(name: "unsupportedBackend") }
        if let previous = joinedSessions.removeValue(forKey: name) { try? previous.cache?.close() }
        let session = CacheSession(
            backend: backend, folder: URL(fileURLWithPath: try request.string("folder")),
            clock: ManualClock(milliseconds: try request.integer("now")),
            settings: request.object("configuration"))
        session.joined = true
        session.readOnly = session.settings.fields["readOnly"] == .bool(true)
        tamperWithCoordination(session)
        session.cache = try openCacheBesideOthers(session)
        joinedSessions[name] = session
        return ["folder": .string(session.folder.path)]
    }

    /// Opens the session's cache; lone-writer-beside-sharers opens it read-only behind the
    /// scenes where the folder lock refuses it.
    func openCacheBesideOthers(_ session: CacheSession) throws -> ImageCache {
        do {
            return try openCache(session)
        } catch {
            guard faults.contains(.loneWriterBesideSharers), !session.readOnly,
                let cacheError = error as? CacheError, case .locked = cacheError
            else { throw error }
            return try openCache(session, readOnly: true)
        }
    }

    private func shares(_ session: CacheSession) -> Bool {
        session.settings.fields["sharedAcrossProcesses"] == .bool(true)
    }

    /// The coordination file of the session's log (Spec/store.md §12.2).
    private func coordinationPath(_ session: CacheSession) -> String {
        session.folder.appendingPathComponent(session.backend == "hybrid" ? "hybrid.log" : "cache.log").path
            + ".shared"
    }

    /// reads-do-not-catch-up and stale-bitmap-from-memory: the answer from what this session
    /// last saw of the key, when it saw anything.
    func staleAnswer(_ request: Request, _ session: CacheSession) throws -> [String: Message]? {
        guard shares(session) || session.joined else { return nil }
        if faults.contains(.readsDoNotCatchUp), request.op == "cache.read",
            let seen = session.seenValues[try request.string("key")]
        {
            return seen.map { ["hit": .bool(true), "data": .bytes($0)] } ?? ["hit": .bool(false)]
        }
        if faults.contains(.staleBitmapFromMemory), request.op == "cache.readBitmap",
            session.settings.has("memoryCostLimit"), let seen = session.seenBitmaps[try request.string("key")]
        {
            return seen
        }
        return nil
    }

    /// Keeps what a session saw of each key, for the two faults above.
    func remember(_ request: Request, _ response: [String: Message], _ session: CacheSession) {
        guard faults.contains(.readsDoNotCatchUp) || faults.contains(.staleBitmapFromMemory),
            let key = try? request.optionalString("key")
        else {
            if request.op == "cache.clear" {
                session.seenValues = [:]
                session.seenBitmaps = [:]
            }
            return
        }
        switch request.op {
        case "cache.store":
            session.seenValues[key] = .some(try? request.bytes("data"))
            session.seenBitmaps[key] = nil
        case "cache.storeBitmap", "cache.remove":
            session.seenValues[key] = request.op == "cache.remove" ? .some(nil) : nil
            session.seenBitmaps[key] = nil
        case "cache.read":
            if case .string(let text)? = response["data"], let data = Data(base64Encoded: text) {
                session.seenValues[key] = .some([UInt8](data))
            } else {
                session.seenValues[key] = .some(nil)
            }
        case "cache.readBitmap":
            if response["hit"] == .bool(true) { session.seenBitmaps[key] = response }
        default:
            break
        }
    }

    /// changes-not-published: the published generation and length before an operation, put
    /// back after it.
    func hidePublicationStart(_ session: CacheSession) -> [UInt8]? {
        guard faults.contains(.changesNotPublished), shares(session), !session.readOnly,
            let bytes = Driver.bytes(at: URL(fileURLWithPath: coordinationPath(session))), bytes.count >= 32
        else { return nil }
        return Array(bytes[16..<32])
    }

    func hidePublicationEnd(_ session: CacheSession, _ published: [UInt8]?) {
        guard let published else { return }
        Driver.overwrite(coordinationPath(session), at: 16, with: published)
    }

    /// sequence-not-shared and writing-flag-ignored: the counter or the writing flag zeroed
    /// before each operation of a sharing session.
    func tamperWithCoordination(_ session: CacheSession) {
        guard shares(session), !session.readOnly else { return }
        let zeros = [UInt8](repeating: 0, count: 8)
        if faults.contains(.sequenceNotShared) {
            Driver.overwrite(coordinationPath(session), at: 32, with: zeros)
        }
        if faults.contains(.writingFlagIgnored) {
            Driver.overwrite(coordinationPath(session), at: 40, with: zeros)
        }
    }

    /// Writes `bytes` at `offset` of an existing file (nothing when it is missing or shorter).
    static func overwrite(_ path: String, at offset: UInt64, with bytes: [UInt8]) {
        guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= offset + UInt64(bytes.count) else { return }
        try? handle.seek(toOffset: offset)
        try? handle.write(contentsOf: Data(bytes))
    }
}
