import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import PNG
#endif

/// The `cache.*` requests (Spec/conformance.md §5.5).
extension Driver {
    func handleCache(_ request: Request) throws(RequestFailure) -> [String: Message] {
        do {
            return try handleCacheThrowing(request)
        } catch let failure as RequestFailure {
            throw failure
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
    }

    private func handleCacheThrowing(_ request: Request) throws -> [String: Message] {
        if request.op == "cache.open" {
            let backend = try request.string("backend")
            guard backends.contains(backend) else { throw RequestFailure(name: "unsupportedBackend") }
            if let previous = cacheSession {
                // One scenario at a time: the previous one's files are no longer needed.
                try? previous.cache?.close()
                if !previous.joined { try? FileManager.default.removeItem(at: previous.folder) }
                cacheSession = nil
            }
            let session = CacheSession(
                backend: backend, folder: try freshFolder(),
                clock: ManualClock(milliseconds: try request.integer("now")),
                settings: request.object("configuration"))
            session.readOnly = session.settings.fields["readOnly"] == .bool(true)
            session.cache = try openCacheBesideOthers(session)
            cacheSession = session
            return ["folder": .string(session.folder.path)]
        }
        let name = try request.optionalString("session") ?? "A"
        if request.op == "cache.join" { return try join(request, as: name) }
        guard let session = name == "A" ? cacheSession : joinedSessions[name] else {
            throw RequestFailure.badRequest(
                "no open cache: a scenario starts with cache.open, a session with cache.join")
        }
        if request.op == "cache.reopen" {
            // Closes the cache (cleanly; a closed one stays closed) and opens the same folder,
            // writable unless the request says readOnly.
            let previous = session.cache
            session.cache = nil
            try previous?.close()
            applyFileFaults(session)
            session.readOnly = request.fields["readOnly"] == .bool(true)
            session.cache = try openCacheBesideOthers(session)
            return ["folder": .string(session.folder.path)]
        }
        guard let cache = session.cache else {
            throw RequestFailure.badRequest("no cache: the last reopen failed")
        }
        if request.op == "cache.abandon" {
            try abandon(session)
            return [:]
        }
        // A key a request names is no longer one whose damage the dictionary-blesses-damage
        // fault brings back: the backend answered for it.
        if let key = request.fields["key"], case .string(let text) = key {
            session.damagedDictionaryRecords[Array(text.utf8)] = nil
        } else if request.op == "cache.clear" {
            session.damagedDictionaryRecords = [:]
        }
        let now = session.clock.now()
        if faults.contains(.expiredOnlyAfterExpiry),
            [
                "cache.read", "cache.readBitmap", "cache.contains", "cache.metadata", "cache.count",
                "cache.keys",
            ]
            .contains(request.op)
        {
            // Seen one millisecond earlier, an entry is still live at its expiresAt.
            session.clock.set(milliseconds: now - 1)
            defer { session.clock.set(milliseconds: now) }
            return try handleCacheOperation(request, session, cache, now: now - 1)
        }
        if faults.contains(.readOnlyStores), session.readOnly, request.op == "cache.store" {
            try cache.close()
            let writable = try openCache(session, readOnly: false)
            try writable.store(try request.bytes("data"), forKey: try request.string("key"))
            try writable.close()
            session.cache = try openCache(session)
            return [:]
        }
        if let answer = try staleAnswer(request, session) { return answer }
        let published = hidePublicationStart(session)
        defer { hidePublicationEnd(session, published) }
        tamperWithCoordination(session)
        let response = try handleCacheOperation(request, session, cache, now: now)
        remember(request, response, session)
        return response
    }

    private func handleCacheOperation(
        _ request: Request, _ session: CacheSession, _ cache: ImageCache, now: Int64
    )
        throws -> [String: Message]
    {
        switch request.op {
        case "cache.close":
            try cache.close()
            applyFileFaults(session)
            return [:]
        case "cache.openAnother":
            // A second instance of the same folder beside the open one (Spec/backends.md §1.5).
            let other: ImageCache
            do {
                other = try openCache(session, readOnly: request.fields["readOnly"] == .bool(true))
            } catch {
                guard faults.contains(.noFolderLock) || faults.contains(.loneWriterBesideSharers),
                    let cacheError = error as? CacheError,
                    case .locked = cacheError
                else { throw error }
                other = try openCache(session, readOnly: true)
            }
            defer { try? other.close() }
            return ["count": .integer(Int64(other.count))]
        case "cache.metadata":
            guard let metadata = try cache.metadata(forKey: try request.string("key")) else {
                return ["metadata": .null]
            }
            return [
                "metadata": .object([
                    "createdAt": .integer(metadata.createdAt), "expiresAt": .integer(metadata.expiresAt),
                    "accessSequence": .integer(Int64(bitPattern: metadata.accessSequence)),
                ])
            ]
        case "cache.userMetadata", "cache.setUserMetadata":
            return try userMetadata(request, session, cache)
        case "cache.verify":
            let report = try cache.verify()
            return [
                "checked": .integer(Int64(report.checkedEntries)),
                "damaged": .array(report.damagedEntries.map { .string($0.key) }),
            ]
        case "cache.advance":
            session.clock.advance(by: try request.integer("milliseconds"))
            return ["now": .integer(session.clock.now())]
        case "cache.store", "cache.storeBitmap":
            let key = try request.string("key")
            let size: Int
            if request.op == "cache.store" {
                let data = try request.bytes("data")
                try makeRoomWrongly(session, cache, forKey: key, size: data.count)
                if faults.contains(.evictAtTheLimit), session.sizes[key] == nil,
                    let maximum = try session.settings.optionalInteger("maximumEntryCount"),
                    cache.count + 1 == maximum, let oldest = session.recency.first
                {
                    // Reaching the limit is taken for exceeding it.
                    try cache.removeValue(forKey: oldest)
                    session.forget(oldest)
                }
                let superseded = supersededFiles(session, key)
                if request.fields["userMetadata"] != nil {
                    try cache.store(data, forKey: key, userMetadata: try request.bytes("userMetadata"))
                } else {
                    try cache.store(data, forKey: key)
                }
                Driver.deleteExternalFiles(superseded, in: session.folder)
                size = data.count
            } else {
                let bitmap = try makeBitmap(request, cache, key: key)
                try cache.store(bitmap, forKey: key)
                try evictOwnEntryWrongly(session, cache, key: key)
                size = bitmap.pixels.count
            }
            session.sizes[key] = size
            session.stored(key)
            session.touch(key)
            session.removedValues[key] = nil
            if let timeToLive = try session.settings.optionalInteger("timeToLive") {
                var expiry = now &+ timeToLive
                if let maximumAge = try session.settings.optionalInteger("maximumAge") {
                    expiry = min(expiry, now &+ maximumAge)
                }
                session.unextendedExpiry[key] = expiry
            }
            return [:]
        case "cache.read", "cache.readBitmap":
            let key = try request.string("key")
            if faults.contains(.skipExpiryExtension), let expiry = session.unextendedExpiry[key],
                now >= expiry
            {
                // The entry should have expired without the extensions its reads gave it.
                try cache.removeValue(forKey: key)
                session.forget(key)
                return ["hit": .bool(false)]
            }
            if request.op == "cache.read" {
                let found: [UInt8]?
                do {
                    found = try cache.bytes(forKey: key)
                } catch {
                    guard faults.contains(.corruptEntryAsMiss), case .corruptEntry = error else {
                        throw error
                    }
                    found = nil
                }
                guard let data = found else {
                    if faults.contains(.missTakesSequence), !session.readOnly {
                        // A miss that takes a number: a store (which takes one) undone at once.
                        try cache.store([], forKey: "\u{1}miss")
                        try cache.removeValue(forKey: "\u{1}miss")
                    }
                    return ["hit": .bool(false)]
                }
                session.touch(key)
                return ["hit": .bool(true), "data": .bytes(data)]
            }
            guard let bitmap = try cache.bitmap(forKey: key) else { return ["hit": .bool(false)] }
            session.touch(key)
            return [
                "hit": .bool(true), "width": .integer(Int64(bitmap.width)),
                "height": .integer(Int64(bitmap.height)),
                "format": .string(bitmap.format.description), "pixels": .bytes(bitmap.pixels),
            ]
        case "cache.contains":
            return ["contains": .bool(cache.contains(try request.string("key")))]
        case "cache.remove":
            let key = try request.string("key")
            if faults.contains(.keepRemovedKeyAfterCompaction), let data = try? cache.bytes(forKey: key) {
                session.removedValues[key] = data
            }
            let superseded = supersededFiles(session, key)
            let removed = try cache.removeValue(forKey: key)
            Driver.deleteExternalFiles(superseded, in: session.folder)
            session.forget(key)
            return ["removed": .bool(removed)]
        case "cache.variant":
            return try variant(request, session, cache)
        case "cache.purge":
            return try purgeResponse(cache)
        case "cache.count":
            return countResponse(cache)
        case "cache.keys":
            let keys = cache.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            return ["keys": .array(keys.map(Message.string))]
        case "cache.clear":
            try cache.removeAll()
            session.recency.removeAll()
            session.sizes.removeAll()
            return [:]
        case "cache.synchronize":
            try cache.synchronize()
            return [:]
        case "cache.compact":
            try compactLosingUserMetadata(cache)
            for (key, data) in session.removedValues.sorted(by: { $0.key < $1.key }) {
                try cache.store(data, forKey: key)
            }
            session.removedValues.removeAll()
            return [:]
        default:
            throw RequestFailure(name: "unsupported")
        }
    }

    func openCache(_ session: CacheSession, readOnly: Bool? = nil) throws -> ImageCache {
        prepareFolder(session, readOnly: readOnly ?? session.readOnly)
        let settings = session.settings
        let limits = settings.object("decodingLimits")
        let configuration = CacheConfiguration(
            directory: session.folder, backend: Backend(rawValue: session.backend) ?? .log,
            timeToLive: try settings.optionalInteger("timeToLive").map { Duration.milliseconds($0) },
            maximumAge: try settings.optionalInteger("maximumAge").map { Duration.milliseconds($0) },
            maximumBytes: try settings.optionalInteger("maximumBytes").map(Int.init),
            maximumEntryCount: try settings.optionalInteger("maximumEntryCount").map(Int.init),
            clock: session.clock,
            memoryCostLimit: try settings.optionalInteger("memoryCostLimit").map(Int.init),
            externalStorageThreshold: faults.contains(.hybridNeverExternal) ? Int.max : 128 * 1024,
            readOnly: readOnly ?? session.readOnly,
            decodingLimits: PNGLimits(
                maximumPixelCount: Int(
                    try limits.optionalInteger("maximumPixelCount")
                        ?? Int64(CacheConfiguration.defaultDecodingLimits.maximumPixelCount)),
                maximumDecompressedBytes: Int(
                    try limits.optionalInteger("maximumDecompressedBytes")
                        ?? Int64(CacheConfiguration.defaultDecodingLimits.maximumDecompressedBytes))),
            thumbnailMaximumPixelSize: try settings.optionalInteger("thumbnailMaximumPixelSize").map(
                Int.init),
            sharedAcrossProcesses: settings.fields["sharedAcrossProcesses"] == .bool(true)
                && !(faults.contains(.everyBackendShares)
                    && ["dictionary", "directory"].contains(session.backend))
        )
        return try ImageCache(configuration: configuration)
    }

    /// The evict-wrong-entry fault: before a store that would exceed a limit, remove the most
    /// recently used entries instead of leaving the least recently used to the cache.
    private func makeRoomWrongly(_ session: CacheSession, _ cache: ImageCache, forKey key: String, size: Int)
        throws
    {
        guard faults.contains(.evictWrongEntry), session.sizes[key] == nil else { return }
        let maximumCount = try session.settings.optionalInteger("maximumEntryCount")
        let maximumBytes = try session.settings.optionalInteger("maximumBytes")
        while let victim = session.recency.last {
            let total = session.sizes.values.reduce(0, +) + size
            let overCount = maximumCount.map { session.recency.count + 1 > $0 } ?? false
            let overBytes = maximumBytes.map { Int64(total) > $0 } ?? false
            guard overCount || overBytes else { return }
            try cache.removeValue(forKey: victim)
            session.forget(victim)
        }
    }
}

extension Driver {
    /// The bitmap of a `cache.storeBitmap` request. Parts that make no bitmap are a bitmap the
    /// encoder rejects (Spec/cache.md §6.5): `imageEncodingFailed`, after the key's check and
    /// before the cache's state, as `store(_ bitmap:forKey:)` orders them.
    func makeBitmap(_ request: Request, _ cache: ImageCache, key: String) throws -> Bitmap {
        let format = try Driver.pixelFormat(named: try request.string("format"))
        do {
            return try Bitmap(
                width: Int(try request.integer("width")), height: Int(try request.integer("height")),
                format: format, pixels: try request.bytes("pixels"))
        } catch is PNGError {
            do {
                _ = try cache.metadata(forKey: key)
            } catch {
                if case .invalidKey = error { throw error }
            }
            throw RequestFailure(name: "imageEncodingFailed")
        }
    }

    /// evict-own-entry-for-its-variant: the entry just stored (or whose variant was just made)
    /// is removed when the cache is over maximumBytes.
    func evictOwnEntryWrongly(_ session: CacheSession, _ cache: ImageCache, key: String) throws {
        guard faults.contains(.evictOwnEntryForItsVariant),
            let maximum = try session.settings.optionalInteger("maximumBytes"),
            cache.totalByteCount > maximum
        else { return }
        try cache.removeValue(forKey: key)
        session.forget(key)
    }

    /// hybrid-superseded-deleted-early: the key's external files before a store or removal,
    /// which the fault deletes right after it.
    func supersededFiles(_ session: CacheSession, _ key: String) -> Set<String> {
        guard faults.contains(.hybridSupersededDeletedEarly), session.backend == "hybrid" else { return [] }
        return Driver.externalFiles(of: key, in: session.folder)
    }
}
