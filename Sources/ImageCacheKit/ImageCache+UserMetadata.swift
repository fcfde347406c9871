import Foundation

// User metadata: a small blob of the caller's bytes per entry, written with the value, read and
// replaced without it (`Spec/cache.md` §13). HTTP revalidation keeps an ETag or a date there.
extension ImageCache {
    /// The most bytes of user metadata one entry carries: 4,096 (`Spec/cache.md` §13.1).
    public static let maximumUserMetadataByteCount = 4096

    /// Stores `bytes` for `key` with `userMetadata`, in one write: after a crash the entry holds
    /// both or neither (`Spec/cache.md` §13.2). Otherwise exactly `store(_:forKey:)`.
    ///
    /// Empty `userMetadata` is the same as none; a store without it leaves the new entry none.
    /// - Throws: ``CacheError/invalidKey(byteCount:)``,
    ///   ``CacheError/valueTooLarge(key:byteCount:limit:)``,
    ///   ``CacheError/userMetadataTooLarge(key:byteCount:limit:)`` (over
    ///   ``maximumUserMetadataByteCount``), in that order, before anything changes; then as
    ///   `store(_:forKey:)`.
    public func store(_ bytes: [UInt8], forKey key: String, userMetadata: [UInt8]) throws(CacheError) {
        let keyBytes = try Self.validatedKey(key)
        try withBytes(of: bytes) { (value) throws(CacheError) in
            try store(value, keyBytes: keyBytes, shownKey: key, decoded: nil, userMetadata: userMetadata)
        }
    }

    /// Stores `data` for `key` with `userMetadata`; see `store(_:forKey:userMetadata:)`.
    public func store(_ data: Data, forKey key: String, userMetadata: [UInt8]) throws(CacheError) {
        try store([UInt8](data), forKey: key, userMetadata: userMetadata)
    }

    /// The user metadata of the live entry for `key`: empty when it was stored without any, nil
    /// when no live entry is held (`Spec/cache.md` §13.3).
    ///
    /// Not a hit: like ``metadata(forKey:)-(String)`` it extends nothing and takes no sequence
    /// number, so checking an `ETag` before revalidating does not keep an entry alive; the read
    /// of the value that follows a `304 Not Modified` is the hit. The value is not read.
    /// - Throws: ``CacheError/invalidKey(byteCount:)``, ``CacheError/cacheClosed``, and
    ///   ``CacheError/corruptEntry(key:reason:)`` when the bytes fail their checksum (a writable
    ///   cache then removes the entry, as a read does, §8.2).
    public func userMetadata(forKey key: String) throws(CacheError) -> [UInt8]? {
        let keyBytes = try Self.validatedKey(key)
        do {
            return try withWriterLock(mutating: false) { () throws(CacheError) -> [UInt8]? in
                guard !VariantKey.isVariant(keyBytes), let state = try storage.state(forKey: keyBytes),
                    !state.metadata.isExpired(at: clock.now())
                else { return nil }
                return try storage.userMetadata(forKey: keyBytes)
            }
        } catch {
            if case .corruptEntry = error, !configuration.readOnly {
                _ = try? withWriterLock(mutating: true) { () throws(CacheError) in try removeEntry(keyBytes) }
            }
            throw error
        }
    }

    /// Replaces the user metadata of the live entry for `key` without rewriting its value
    /// (`Spec/cache.md` §13.4). Not a hit: expiry and access order stay as they are.
    ///
    /// Durable, like every change, after the next `synchronize()`.
    /// - Parameters:
    ///   - userMetadata: the new bytes, at most ``maximumUserMetadataByteCount``; empty removes it.
    ///   - key: the entry's key.
    /// - Returns: false, changing nothing, when no live entry is held for `key`.
    /// - Throws: ``CacheError/invalidKey(byteCount:)``,
    ///   ``CacheError/userMetadataTooLarge(key:byteCount:limit:)``, ``CacheError/cacheClosed``,
    ///   ``CacheError/readOnly(path:)``, in that order, or a backend error.
    @discardableResult
    public func setUserMetadata(_ userMetadata: [UInt8], forKey key: String) throws(CacheError) -> Bool {
        let keyBytes = try Self.validatedKey(key)
        try Self.checkUserMetadata(userMetadata, shownKey: key)
        return try withWriterLock(mutating: true) { () throws(CacheError) -> Bool in
            guard !VariantKey.isVariant(keyBytes), let state = try storage.state(forKey: keyBytes),
                !state.metadata.isExpired(at: clock.now())
            else { return false }
            return try storage.setUserMetadata(userMetadata, forKey: keyBytes)
        }
    }

    /// Stores `data` for the URL key with `userMetadata`; see
    /// `store(_:forKey:userMetadata:)`.
    public func store(_ data: Data, forKey url: URL, userMetadata: [UInt8]) throws(CacheError) {
        try store(data, forKey: url.absoluteString, userMetadata: userMetadata)
    }

    /// The user metadata for the URL key; see `userMetadata(forKey:)`.
    public func userMetadata(forKey url: URL) throws(CacheError) -> [UInt8]? {
        try userMetadata(forKey: url.absoluteString)
    }

    /// Replaces the user metadata for the URL key; see `setUserMetadata(_:forKey:)`.
    @discardableResult
    public func setUserMetadata(_ userMetadata: [UInt8], forKey url: URL) throws(CacheError) -> Bool {
        try setUserMetadata(userMetadata, forKey: url.absoluteString)
    }

    /// Stores with user metadata off the caller's executor; see the synchronous form.
    public func store(_ data: Data, forKey key: String, userMetadata: [UInt8]) async throws(CacheError) {
        try await Self.offload { () throws(CacheError) in
            try self.store(data, forKey: key, userMetadata: userMetadata)
        }
    }

    /// Replaces user metadata off the caller's executor; see the synchronous form.
    @discardableResult
    public func setUserMetadata(_ userMetadata: [UInt8], forKey key: String) async throws(CacheError) -> Bool
    {
        try await Self.offload { () throws(CacheError) in try self.setUserMetadata(userMetadata, forKey: key)
        }
    }

    /// Reads user metadata off the caller's executor; see the synchronous form.
    public func userMetadata(forKey key: String) async throws(CacheError) -> [UInt8]? {
        try await Self.offload { () throws(CacheError) in try self.userMetadata(forKey: key) }
    }

    static func checkUserMetadata(_ userMetadata: [UInt8], shownKey: String) throws(CacheError) {
        guard userMetadata.count <= maximumUserMetadataByteCount else {
            throw .userMetadataTooLarge(
                key: shownKey, byteCount: userMetadata.count, limit: maximumUserMetadataByteCount)
        }
    }
}
