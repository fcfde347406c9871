import Foundation

/// What the cache records about every entry, in every backend (`Spec/cache.md` §2.2).
///
/// Times are milliseconds since the Unix epoch, the unit of the files; ``creationDate`` and
/// ``expirationDate`` give them as `Date`s.
public struct CacheEntryMetadata: Sendable, Hashable {
    /// When the value was stored, in milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// The first instant at which the entry is expired; `Int64.max` means never.
    public var expiresAt: Int64
    /// The cache's access counter at the last store or hit; smaller means less recently used.
    public var accessSequence: UInt64

    /// Metadata with the given fields, for tests and tools that compare with what the cache
    /// reports; the cache makes its own when it stores.
    public init(createdAt: Int64, expiresAt: Int64, accessSequence: UInt64) {
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.accessSequence = accessSequence
    }

    /// Whether the entry is expired at `now` (`Spec/cache.md` §4.1): `now >= expiresAt`.
    public func isExpired(at now: Int64) -> Bool {
        now >= expiresAt
    }

    /// ``createdAt`` as a `Date`.
    public var creationDate: Date { Date(timeIntervalSince1970: Double(createdAt) / 1000) }

    /// ``expiresAt`` as a `Date`, or nil for an entry that never expires.
    public var expirationDate: Date? {
        expiresAt == .max ? nil : Date(timeIntervalSince1970: Double(expiresAt) / 1000)
    }
}
