/// Everything that can go wrong in the cache layer (`Spec/cache.md` §9).
///
/// The case names are stable: other implementations and the conformance suite match on them.
/// Each case carries the evidence needed to act on it, and ``description`` is one sentence a
/// user can act on.
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key is empty or longer than 65,535 UTF-8 bytes (`Spec/cache.md` §2).
    case invalidKey(byteCount: Int)
    /// A configuration value is out of range, for example a time-to-live of zero.
    case invalidConfiguration(reason: String)
    /// A value is larger than `maximumBytes` on its own; nothing was stored or evicted (§6.3).
    case valueTooLarge(key: String, byteCount: Int, limit: Int)
    /// An entry's stored bytes are missing or fail their checksum. The entry has been removed;
    /// the next read of the key is a miss (§8).
    case corruptEntry(key: String, reason: String)
    /// A whole file the backend needs (the dictionary file) is damaged beyond one entry.
    case corruptFile(path: String, reason: String)
    /// A file was written by a newer format version this implementation cannot read.
    case unsupportedFormatVersion(path: String, version: UInt32)
    /// The operating system refused a file operation (disk full, permissions, …).
    case ioFailure(operation: String, path: String, errno: Int32)
    /// The log store under the `log` or `hybrid` backend failed.
    case logStoreFailure(path: String, reason: String)
    /// The PNG encoder rejected a bitmap passed to `store(_:forKey:)`.
    case imageEncodingFailed(key: String, reason: String)
    /// The entry's bytes are not a PNG the decoder accepts (for example raw JPEG data read
    /// with `bitmap(forKey:)`). The entry is kept: its bytes passed their checksum.
    case imageDecodingFailed(key: String, reason: String)
    /// The cache was closed with `close()`; open a new instance to continue.
    case cacheClosed

    public var description: String {
        switch self {
        case .invalidKey(let byteCount):
            return "A cache key must be 1 to 65,535 UTF-8 bytes long; this one is \(byteCount) bytes."
        case .invalidConfiguration(let reason):
            return "The cache configuration is invalid: \(reason)."
        case .valueTooLarge(let key, let byteCount, let limit):
            return "The value for key \(Self.shown(key)) is \(byteCount) bytes, more than the cache's "
                + "maximumBytes of \(limit); raise the limit or do not cache this value."
        case .corruptEntry(let key, let reason):
            return "The cache entry for key \(Self.shown(key)) was corrupt (\(reason)) and has been removed; "
                + "fetch the value again."
        case .corruptFile(let path, let reason):
            return "The cache file \(path) is corrupt (\(reason)); delete it to start with an empty cache."
        case .unsupportedFormatVersion(let path, let version):
            return "The cache file \(path) has format version \(version), which this version cannot read; "
                + "delete it or use a newer release."
        case .ioFailure(let operation, let path, let errno):
            return "Could not \(operation) \(path) (errno \(errno)); check free space and permissions."
        case .logStoreFailure(let path, let reason):
            return "The log store \(path) failed: \(reason)."
        case .imageEncodingFailed(let key, let reason):
            return "The image for key \(Self.shown(key)) could not be encoded as PNG: \(reason)."
        case .imageDecodingFailed(let key, let reason):
            return "The value for key \(Self.shown(key)) is not a readable PNG (\(reason)); "
                + "read it with data(forKey:) instead."
        case .cacheClosed:
            return "The cache has been closed; open a new ImageCache to use it again."
        }
    }

    /// A key quoted for a message, shortened so a 64 KiB key does not flood a terminal.
    static func shown(_ key: String) -> String {
        let escaped = key.unicodeScalars.map { $0.escaped(asASCII: false) }.joined()
        if escaped.count <= 80 { return "\"\(escaped)\"" }
        return "\"\(escaped.prefix(77))…\""
    }
}
