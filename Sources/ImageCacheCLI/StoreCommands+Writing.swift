import ImageCacheKit
import LogStoreKit

/// `put`, `rm`, `compact`, `purge` and `clear` (`Spec/cache.md` §12.5, `Spec/store.md` §10.2).
extension StoreCommands {
    @Sendable static func put(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        try rejectCacheOptions(["--max-bytes", "--max-entries"], in: arguments, for: location)
        // The input is read whole before the store is opened: a bad FILE changes nothing.
        let value = try FileAccess.read(arguments.operands[1])
        try OpenedStore.using(.forWriting(location, settings: settings, creating: true)) { store in
            switch store {
            case .empty: preconditionFailure("put opens the store creating it")
            case .cache(let cache): try cache.store(value, forKey: key)
            case .log(let log):
                let now = settings.now
                let sequence = (log.entries().map(\.metadata.accessSequence).max() ?? 0) &+ 1
                try log.put(
                    value, forKey: key,
                    metadata: EntryMetadata(
                        createdAt: now, expiresAt: settings.expiry(storedAt: now),
                        accessSequence: sequence))
            }
        }
    }

    @Sendable static func remove(_ arguments: ParsedArguments) throws {
        let key = try checkedKey(arguments)
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let wasLive = try OpenedStore.using(.forWriting(location, settings: settings)) { store in
            switch store {
            case .empty:
                return false
            case .cache(let cache):
                return try cache.removeValue(forKey: key)
            case .log(let log):
                guard let metadata = log.metadata(forKey: key) else { return false }
                try log.removeValue(forKey: key)
                return !metadata.isExpired(at: settings.now)
            }
        }
        guard wasLive else { throw CommandLineError.notFound(key) }
    }

    @Sendable static func compact(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let text = try OpenedStore.using(.forWriting(location, settings: settings)) { store in
            switch store {
            case .empty:
                return "compacted: kept 0 entries, dropped 0 expired\n"
            case .cache(let cache):
                let dropped = cache.expiredEntriesRemovedOnOpen + (try cache.purgeExpired())
                try cache.compact()
                return "compacted: kept \(cache.count) entries, dropped \(dropped) expired\n"
            case .log(let log):
                let result = try log.compact(now: settings.now)
                return
                    "compacted: kept \(result.keptEntries) entries, dropped \(result.expiredEntries) expired\n"
                    + "file: \(result.bytesBefore) -> \(result.bytesAfter) bytes "
                    + "(\(HumanFormat.size(result.bytesBefore)) -> \(HumanFormat.size(result.bytesAfter)))\n"
            }
        }
        try StandardOutput.write(text)
    }

    @Sendable static func purge(_ arguments: ParsedArguments) throws {
        let settings = try CacheSettings(arguments)
        let location = try StoreLocation.resolve(arguments)
        let removed = try OpenedStore.using(.forWriting(location, settings: settings)) { store in
            switch store {
            case .empty: return 0
            // Opening purges too, so what the open removed counts as well.
            case .cache(let cache): return cache.expiredEntriesRemovedOnOpen + (try cache.purgeExpired())
            case .log(let log): return try log.compact(now: settings.now).expiredEntries
            }
        }
        try StandardOutput.write("purged \(removed) expired entries\n")
    }

    @Sendable static func clear(_ arguments: ParsedArguments) throws {
        let location = try StoreLocation.resolve(arguments)
        let removed = try OpenedStore.using(.forWriting(location, settings: try CacheSettings(arguments))) {
            store in
            switch store {
            case .empty:
                return 0
            case .cache(let cache):
                let count = cache.count
                try cache.removeAll()
                return count
            case .log(let log):
                let count = log.count
                try log.removeAll()
                return count
            }
        }
        try StandardOutput.write("cleared \(removed) entries\n")
    }
}
