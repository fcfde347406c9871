#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// Everything that can go wrong in the log store (`Spec/store.md` §9 lists these names).
public enum LogStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file exists but does not start with the store's magic bytes; it was left untouched.
    case notAStore(path: String)
    /// The file is a store of a newer major version; this reader cannot interpret it.
    case unsupportedVersion(path: String, major: UInt16, minor: UInt16)
    /// The file is a store of a newer minor version; it can be opened with `readOnly: true`.
    case newerMinorVersion(path: String, major: UInt16, minor: UInt16)
    /// The file is a store of format 1, which only a writable open can use: it migrates the file
    /// to format 2 first (`Spec/store.md` §11).
    case migrationRequired(path: String)
    /// The 32-byte file header fails its checksum.
    case corruptFileHeader(path: String)
    /// A damaged record in the middle of the file: later data cannot be located reliably.
    case corruptRecord(offset: UInt64)
    /// A record's bytes do not match their checksum (a damaged value, key or header).
    case checksumMismatch(offset: UInt64, declared: UInt64, computed: UInt64)
    /// A record the index points at is shorter than its header declares.
    case truncatedRecord(offset: UInt64)
    /// Another handle has the store open for writing: in this process (`byThisProcess`) or in
    /// another one (advisory `flock`, `Spec/store.md` §5.1).
    case storeLocked(path: String, byThisProcess: Bool)
    /// A mutation was attempted through a read-only handle.
    case readOnly(path: String)
    /// The key is empty or longer than 65,535 UTF-8 bytes.
    case invalidKey(length: Int)
    /// The value is longer than the format's limit (`Spec/store.md` §6).
    case valueTooLarge(length: UInt64)
    /// The user metadata is longer than 4,096 bytes (`Spec/store.md` §13.1).
    case userMetadataTooLarge(length: Int)
    /// The file system is full (ENOSPC); the partial append was cut off.
    case diskFull(path: String)
    /// The process file-size limit was reached (EFBIG); the partial append was cut off.
    case fileSizeLimitExceeded(path: String)
    /// Any other operating-system failure.
    case ioError(operation: String, errno: Int32, path: String)
    /// The store was closed (or stopped after a failed write it could not undo).
    case closed(path: String)
    /// A test hook stopped compaction at `step`, as a crash there would.
    case injectedFault(step: CompactionStep)

    /// A sentence for the user that names the file and says what went wrong and what to do;
    /// switch on the case, not on this text, which may change.
    public var description: String {
        switch self {
        case .notAStore(let path):
            return "\(path) is not an image-cache log store (wrong magic bytes); it was not modified."
        case .unsupportedVersion(let path, let major, let minor):
            return "\(path) is a log store of format version \(major).\(minor), newer than this reader "
                + "(1.x); use a newer version of the software."
        case .newerMinorVersion(let path, let major, let minor):
            return "\(path) is a log store of format version \(major).\(minor); this software can only "
                + "open it read-only."
        case .migrationRequired(let path):
            return "\(path) is a log store of format 1; open it once for writing to migrate it to format 2 "
                + "(a read-only open cannot)."
        case .corruptFileHeader(let path):
            return "\(path) has a damaged file header (checksum mismatch); the store cannot be opened."
        case .corruptRecord(let offset):
            return "the store has a damaged record at offset \(offset) followed by more data; open it "
                + "with repairsDamage to discard everything from that offset."
        case .checksumMismatch(let offset, let declared, let computed):
            return "the record at offset \(offset) is damaged: its checksum is \(hex(computed)), the record "
                + "declares \(hex(declared))."
        case .truncatedRecord(let offset):
            return "the record at offset \(offset) is cut short; the file was truncated outside the store."
        case .storeLocked(let path, let byThisProcess):
            let holder = byThisProcess ? "by another LogStore in this process" : "by another process"
            return
                "\(path) is already open for writing \(holder); close it there first, or open it read-only."
        case .readOnly(let path):
            return "\(path) is open read-only; it cannot be modified through this handle."
        case .invalidKey(let length):
            return "a key must be 1 to 65535 UTF-8 bytes long; this one is \(length)."
        case .valueTooLarge(let length):
            return "a value of \(length) bytes is larger than the store's limit of 2^48 - 1 bytes."
        case .userMetadataTooLarge(let length):
            return "user metadata of \(length) bytes is larger than the limit of 4096 bytes."
        case .diskFull(let path):
            return "no space left on the device holding \(path); the write was undone. Free space and retry."
        case .fileSizeLimitExceeded(let path):
            return "\(path) reached the process's file-size limit (EFBIG); the write was undone."
        case .ioError(let operation, let code, let path):
            return "\(operation) failed on \(path): \(Errno(rawValue: code)) (errno \(code))."
        case .closed(let path):
            return "the store \(path) is closed; open it again."
        case .injectedFault(let step):
            return "compaction was stopped by a test hook at step \(step.rawValue)."
        }
    }
}

private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}

/// Runs `body`, whose only thrown errors are `LogStoreError`s, with the error type restored
/// (the standard library's `rethrows` closures erase it).
@inline(__always)
func rethrowingStoreErrors<Result>(_ body: () throws -> Result) throws(LogStoreError) -> Result {
    do {
        return try body()
    } catch let error as LogStoreError {
        throw error
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}

extension LogStoreError {
    /// The store's error for a failed system call (`Spec/store.md` §8.4, §9): ENOSPC is
    /// `diskFull`, EFBIG `fileSizeLimitExceeded`, anything else `ioError` with its errno.
    init(_ failure: SystemCallError) {
        switch failure.errno {
        case .noSpace: self = .diskFull(path: failure.path)
        case .fileTooLarge: self = .fileSizeLimitExceeded(path: failure.path)
        default:
            self = .ioError(operation: failure.operation, errno: failure.errno.rawValue, path: failure.path)
        }
    }
}

/// Runs platform calls, translating their failure into the store's error. (`body` throws only
/// `SystemCallError`s; closures cannot spell a typed throw concisely, hence the cast.)
@inline(__always)
func storeIO<Result>(_ body: () throws -> Result) throws(LogStoreError) -> Result {
    do {
        return try body()
    } catch let failure as SystemCallError {
        throw LogStoreError(failure)
    } catch let error as LogStoreError {
        throw error
    } catch {
        preconditionFailure("unexpected error type: \(error)")
    }
}
