#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// Everything that can go wrong in the cache layer (`Spec/cache.md` §9).
///
/// The case names are stable: other implementations and the conformance suite match on them.
/// Each case carries the evidence needed to act on it, and ``description`` is one sentence a
/// user can act on.
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key is empty or longer than 65,535 UTF-8 bytes (`Spec/cache.md` §2.1).
    case invalidKey(byteCount: Int)
    /// A configuration value is out of range, for example a time-to-live of zero.
    case invalidConfiguration(reason: String)
    /// A value is larger than `maximumBytes` on its own; nothing was stored or evicted (§6.2).
    case valueTooLarge(key: String, byteCount: Int, limit: Int)
    /// The user metadata for an entry is longer than
    /// ``ImageCache/maximumUserMetadataByteCount`` (4,096 bytes); nothing changed (§13.1).
    case userMetadataTooLarge(key: String, byteCount: Int, limit: Int)
    /// An entry's stored bytes are missing or fail their checksum. A writable cache has removed
    /// the entry; the next read of the key is a miss (§8.2).
    case corruptEntry(key: String, reason: String)
    /// A whole file the backend needs is damaged beyond one entry (§8.3).
    case corruptFile(path: String, reason: String)
    /// A file was written by a format version this implementation cannot read.
    case unsupportedFormatVersion(path: String, version: UInt32)
    /// The operating system refused a file operation; `errno` is the failing call's.
    case ioFailure(operation: String, path: String, errno: Int32)
    /// Another cache instance has the folder open for writing, in this process or another
    /// (`Spec/backends.md` §1.5). Open it read-only, or close the other instance.
    case locked(path: String, byThisProcess: Bool)
    /// A mutation was asked of a cache opened read-only (§5.6).
    case readOnly(path: String)
    /// A symbolic link stands where the cache's layout expects its own file or folder; the
    /// cache never follows links inside its folder (`Spec/backends.md` §1.6).
    case symbolicLink(path: String)
    /// The log store under the `log` or `hybrid` backend failed in a way none of the other
    /// cases describe.
    case logStoreFailure(path: String, reason: String)
    /// The PNG encoder rejected a bitmap passed to `store(_:forKey:)`.
    case imageEncodingFailed(key: String, reason: String)
    /// The entry's bytes are not a PNG the decoder accepts (for example raw JPEG data read
    /// with `bitmap(forKey:)`). The entry is kept: its bytes passed their checksum.
    case imageDecodingFailed(key: String, reason: String)
    /// The stored PNG is larger than the cache's decoding limits allow
    /// (``CacheConfiguration/decodingLimits``); `limit` names the limit. The entry is kept.
    case imageTooLarge(key: String, limit: String, requested: Int, maximum: Int)
    /// A variant was asked for at a maximum pixel size below 1 (`Spec/thumbnail.md` §5.3).
    case invalidMaximumPixelSize(Int)
    /// The cache was closed with `close()`; open a new instance to continue.
    case cacheClosed
    /// ``CacheConfiguration/sharedAcrossProcesses`` was asked of a backend that cannot share
    /// its folder between processes (`dictionary`, `directory`: `Spec/backends.md` §9.1).
    case sharingUnsupported(backend: Backend)

    /// A sentence for the user that says what went wrong and, where it can, what to do:
    /// "The cache folder /path is already open for writing by another process; …". Switch on the case, not on
    /// this text, which may change.
    public var description: String {
        switch self {
        case .invalidKey(let byteCount):
            return "A cache key must be 1 to 65,535 UTF-8 bytes long; this one is \(byteCount) bytes."
        case .invalidConfiguration(let reason):
            return "The cache configuration is invalid: \(Self.sentence(reason))"
        case .valueTooLarge(let key, let byteCount, let limit):
            return "The value for key \(Self.shown(key)) is \(byteCount) bytes, more than the cache's "
                + "maximumBytes of \(limit); raise the limit or do not cache this value."
        case .userMetadataTooLarge(let key, let byteCount, let limit):
            return "The user metadata for key \(Self.shown(key)) is \(byteCount) bytes, more than the limit "
                + "of \(limit) bytes; keep only what revalidation needs (an ETag, a date)."
        case .corruptEntry(let key, let reason):
            return "The cache entry for key \(Self.shown(key)) is corrupt (\(Self.clause(reason))); "
                + "fetch the value again."
        case .corruptFile(let path, let reason):
            return "The cache file \(path) is corrupt (\(Self.clause(reason))); "
                + "delete it to start with an empty cache."
        case .unsupportedFormatVersion(let path, let version):
            return "The cache file \(path) has format version \(version), which this version cannot read; "
                + "delete it or use a newer release."
        case .ioFailure(let operation, let path, let code):
            return "Could not \(operation) \(path): \(Errno(rawValue: code)) (errno \(code))."
        case .locked(let path, let byThisProcess):
            let holder = byThisProcess ? "another ImageCache in this process" : "another process"
            return "The cache folder \(path) is already open for writing by \(holder); close that "
                + "instance first, or open this one with readOnly."
        case .readOnly(let path):
            return "The cache in \(path) was opened read-only; it cannot be changed through this instance."
        case .symbolicLink(let path):
            return "\(path) is a symbolic link where the cache keeps its own file or folder; the cache "
                + "does not follow links inside its folder. Remove the link."
        case .logStoreFailure(let path, let reason):
            return "The log store \(path) failed: \(Self.sentence(reason))"
        case .imageEncodingFailed(let key, let reason):
            return
                "The image for key \(Self.shown(key)) could not be encoded as PNG: \(Self.sentence(reason))"
        case .imageDecodingFailed(let key, let reason):
            return "The value for key \(Self.shown(key)) is not a readable PNG (\(Self.clause(reason))); "
                + "read it with data(forKey:) instead."
        case .imageTooLarge(let key, let limit, let requested, let maximum):
            return "The image for key \(Self.shown(key)) needs \(limit) \(requested), more than the cache's "
                + "decoding limit of \(maximum); raise CacheConfiguration.decodingLimits to read it."
        case .invalidMaximumPixelSize(let size):
            return "A variant's maximum pixel size must be at least 1; \(size) was asked for."
        case .sharingUnsupported(let backend):
            return "The \(backend) backend cannot share its folder between processes; use the log or "
                + "hybrid backend, or open the cache without sharedAcrossProcesses."
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

    /// `text` as the end of a sentence: exactly one full stop, whatever `text` ends with.
    static func sentence(_ text: String) -> String {
        clause(text) + "."
    }

    /// `text` inside a sentence, as in parentheses: without the full stops or spaces it ends
    /// with (a store's reasons are sentences of their own).
    static func clause(_ text: String) -> String {
        var trimmed = Substring(text)
        while let last = trimmed.last, last == "." || last == " " { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}

extension CacheError {
    /// The cache's error for a failed system call: a link where the layout expects a file is
    /// ``symbolicLink(path:)`` (ELOOP from an `O_NOFOLLOW` open); anything else ``ioFailure``.
    init(_ failure: SystemCallError) {
        if failure.errno == .tooManySymbolicLinks {
            self = .symbolicLink(path: failure.path)
        } else {
            self = .ioFailure(operation: failure.operation, path: failure.path, errno: failure.errno.rawValue)
        }
    }
}

/// Runs platform calls, translating their failure into the cache's error.
@inline(__always)
func cacheIO<Result>(_ body: () throws(SystemCallError) -> Result) throws(CacheError) -> Result {
    do {
        return try body()
    } catch {
        throw CacheError(error)
    }
}
