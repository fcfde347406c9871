/// `put`, `rm`, `compact`, `purge` and `clear` (`Spec/cache.md` §12.5, `Spec/store.md` §10.2).
extension StoreCommands {
    @Sendable static func put(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        try rejectCacheOptions(["--max-bytes", "--max-entries"], in: arguments, for: location)
        // The input is read whole before the store is opened: a bad FILE changes nothing.
        let value = try FileAccess.read(arguments.operands[1])
        let userMetadata = Array((arguments.value("--user-metadata") ?? "").utf8)
        try location.withStoreForWriting(settings: settings, creating: true) { store in
            try store.put(
                value, forKey: key, at: settings.now, settings: settings, userMetadata: userMetadata)
        }
    }

    @Sendable static func remove(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let wasLive = try location.withStoreForWriting(settings: settings) { store in
            try store.removeEntry(forKey: key, at: settings.now)
        }
        guard wasLive else { throw CommandLineError.notFound(key) }
    }

    @Sendable static func compact(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let summary = try location.withStoreForWriting(settings: settings) { store in
            try store.compact(at: settings.now)
        }
        var text =
            "compacted: kept \(summary.keptEntries) entries, dropped \(summary.expiredEntries) expired\n"
        if let (before, after) = summary.fileBytes {
            text +=
                "file: \(before) -> \(after) bytes (\(HumanFormat.size(before)) -> \(HumanFormat.size(after)))\n"
        }
        try StandardOutput.write(text)
    }

    @Sendable static func purge(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let removed = try location.withStoreForWriting(settings: settings) { store in
            try store.purgeExpired(at: settings.now)
        }
        try StandardOutput.write("purged \(removed) expired entries\n")
    }

    @Sendable static func clear(_ arguments: ParsedArguments) throws {
        let location = try StoreLocation.resolve(arguments)
        let removed = try location.withStoreForWriting(settings: try CacheSettings(arguments)) { store in
            try store.removeAllEntries()
        }
        try StandardOutput.write("cleared \(removed) entries\n")
    }
}
