import PNG

/// A store a command works on (`Spec/cache.md` §12.1): a cache folder opened as an
/// `ImageCache`, a bare `LogStore` file, or a cache folder that holds no cache yet
/// (``EmptyStore``). A command asks its store one question and prints the answer the same way
/// for every kind; what differs between the kinds is written once, in their conformances
/// (`ImageCache+OpenedStore.swift`, `LogStore+OpenedStore.swift`).
///
/// `now` is the time the command works at (`--now`, or the system clock read once). A cache
/// reads the same time from its own clock, which the command line configured.
protocol OpenedStore {
    /// The value of `key` if a live entry holds it at `now`. On a writable cache this is a
    /// hit: it slides the expiry and marks the entry recently used (`Spec/cache.md` §4.3).
    func liveValue(forKey key: String, at now: Int64) throws -> [UInt8]?
    /// `key`'s image downsampled to fit `maximumPixelSize` × `maximumPixelSize` pixels
    /// (`Spec/thumbnail.md` §5.3), or nil on a miss. A bare store holds no images' variants.
    func variant(forKey key: String, maximumPixelSize: Int) throws -> Bitmap?
    /// Stores `value` under `key` at `now`, expiring as `settings` say (§12.5).
    func put(
        _ value: [UInt8], forKey key: String, at now: Int64, settings: CacheSettings, userMetadata: [UInt8])
        throws
    /// The user metadata of `key` if a live entry holds it at `now` (empty: none); not a hit
    /// (`Spec/cache.md` §13.3).
    func liveUserMetadata(forKey key: String, at now: Int64) throws -> [UInt8]?
    /// Removes the entry for `key`. Returns whether it was live at `now`; an expired entry is
    /// removed all the same.
    func removeEntry(forKey key: String, at now: Int64) throws -> Bool
    /// Removes every entry expired at `now`; returns how many, counting those the open removed.
    func purgeExpired(at now: Int64) throws -> Int
    /// Drops the entries expired at `now` and reclaims the space of the dead ones.
    func compact(at now: Int64) throws -> CompactionSummary
    /// Removes every entry; returns how many there were.
    func removeAllEntries() throws -> Int
    /// The entries live at `now`, in ascending order of the keys' UTF-8 bytes (`ls`).
    func entries(at now: Int64) -> [ListedEntry]
    /// The figures `stat` prints after the store's kind, in order (§12.4).
    func statistics(at now: Int64) throws -> [StatisticsFigure]
    /// Reads every held entry and checks its stored bytes (`verify`, §12.4).
    func verifyEntries() throws -> EntryVerification
    /// Writes what is pending and releases the store.
    func close() throws
}

/// One line of `ls`.
struct ListedEntry {
    var key: String
    var byteCount: UInt64
    var createdAt: Int64
    var expiresAt: Int64
    var accessSequence: UInt64
}

/// What `compact` did.
struct CompactionSummary {
    /// The entries left.
    var keptEntries: Int
    /// The expired entries dropped.
    var expiredEntries: Int
    /// A log store file's length before and after, in bytes; nil for a cache folder.
    var fileBytes: (before: UInt64, after: UInt64)?
}

/// One figure of `stat`, under its name.
enum StatisticsFigure {
    /// A number of entries.
    case count(String, Int)
    /// A number of bytes, printed exactly and then in human units.
    case bytes(String, UInt64)
}

/// What `verify` found by reading every entry.
struct EntryVerification {
    /// The entries read.
    var entries: Int
    /// The bytes of the entries that read back intact.
    var intactBytes: UInt64
    /// The damaged entries, in ascending order of their keys, with what is wrong with each.
    var damaged: [(key: String, reason: String)]
}
