import Benchmarks
import ImageCacheKit
import LogStoreKit
import PNG

/// The exit statuses of `imagecache` (`Spec/cache.md` §12.7): distinct,
/// so a script can tell a miss from a typo from damage from a broken disk.
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    /// `get` or `rm` of a key that is absent or expired.
    case notFound = 1
    /// The command line cannot work: an unknown command or option, a bad value, wrong operands,
    /// or options that do not fit the store.
    case usage = 2
    /// Damaged data: a corrupt entry, record or file; `verify` found damage; an input that is
    /// not the PNG or PAM it should be.
    case damaged = 3
    /// Any other failure: I/O, permissions, a store locked by another process, a newer format.
    case failure = 4

    /// One line for `imagecache help`.
    var meaning: String {
        switch self {
        case .success: "success"
        case .notFound: "not found: get or rm of an absent or expired key"
        case .usage: "usage error: unknown command or option, bad value, wrong operands"
        case .damaged:
            "damaged data: a corrupt entry, record or file; verify found damage; a bad PNG or PAM input"
        case .failure: "any other failure: I/O, permissions, a store locked by another process, …"
        }
    }

    /// The status for an error a command threw. The one place that knows the library's error
    /// cases; when a library adds a case (the cache's coming `locked` and `readOnly`), add it
    /// here. Unknown errors are failures (4).
    init(for error: any Error) {
        switch error {
        case let error as CommandLineError: self = error.status
        case let error as CacheError: self = Self.status(of: error)
        case let error as LogStoreError: self = Self.status(of: error)
        case let error as PNGError:
            if case .limitExceeded = error { self = .failure } else { self = .damaged }
        case is PAMError: self = .damaged
        case let error as BenchmarkError:
            if case .unknownBackend = error { self = .usage } else { self = .failure }
        default: self = .failure
        }
    }

    private static func status(of error: CacheError) -> ExitStatus {
        switch error {
        case .invalidKey, .invalidConfiguration, .invalidMaximumPixelSize, .sharingUnsupported: .usage
        case .corruptEntry, .corruptFile, .imageDecodingFailed: .damaged
        case .valueTooLarge, .userMetadataTooLarge, .unsupportedFormatVersion, .ioFailure, .logStoreFailure,
            .imageEncodingFailed,
            .imageTooLarge, .locked, .readOnly, .symbolicLink, .cacheClosed:
            .failure
        }
    }

    private static func status(of error: LogStoreError) -> ExitStatus {
        switch error {
        case .invalidKey: .usage
        case .notAStore, .corruptFileHeader, .corruptRecord, .checksumMismatch, .truncatedRecord: .damaged
        case .unsupportedVersion, .migrationRequired, .newerMinorVersion, .storeLocked, .readOnly,
            .valueTooLarge, .userMetadataTooLarge,
            .diskFull,
            .fileSizeLimitExceeded, .ioError, .closed, .injectedFault:
            .failure
        }
    }
}
