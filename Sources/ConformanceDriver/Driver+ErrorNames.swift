#if !IMAGECACHE_SINGLE_MODULE
    import ImageCacheKit
    import Inflate
    import LogStoreKit
    import PNG
#endif

// The stable error names the protocol reports (Spec/conformance.md §2.6): the Swift case
// name, which each module's spec lists.

extension PNGError: SpecNamedError {
    /// A broken zlib stream is reported by its Spec/deflate.md name, which is more precise
    /// than PNG's wrapper case `compression`.
    var specName: String {
        if case .compression(let inner) = self { return inner.specName }
        return name
    }
}

extension InflateError: SpecNamedError {
    var specName: String {
        switch self {
        case .truncatedInput: "truncatedInput"
        case .invalidZlibHeader: "invalidZlibHeader"
        case .presetDictionaryUnsupported: "presetDictionaryUnsupported"
        case .invalidBlockType: "invalidBlockType"
        case .storedLengthMismatch: "storedLengthMismatch"
        case .tooManyCodes: "tooManyCodes"
        case .repeatWithoutPreviousLength: "repeatWithoutPreviousLength"
        case .codeLengthsOverflow: "codeLengthsOverflow"
        case .missingEndOfBlock: "missingEndOfBlock"
        case .oversubscribedCode: "oversubscribedCode"
        case .incompleteCode: "incompleteCode"
        case .unassignedCode: "unassignedCode"
        case .invalidSymbol: "invalidSymbol"
        case .distanceTooFar: "distanceTooFar"
        case .outputLimitExceeded: "outputLimitExceeded"
        case .adlerMismatch: "adlerMismatch"
        }
    }
}

extension LogStoreError: SpecNamedError {
    var specName: String {
        switch self {
        case .notAStore: "notAStore"
        case .unsupportedVersion: "unsupportedVersion"
        case .migrationRequired: "migrationRequired"
        case .newerMinorVersion: "newerMinorVersion"
        case .corruptFileHeader: "corruptFileHeader"
        case .corruptRecord: "corruptRecord"
        case .checksumMismatch: "checksumMismatch"
        case .truncatedRecord: "truncatedRecord"
        case .storeLocked: "storeLocked"
        case .readOnly: "readOnly"
        case .invalidKey: "invalidKey"
        case .valueTooLarge: "valueTooLarge"
        case .userMetadataTooLarge: "userMetadataTooLarge"
        case .diskFull: "diskFull"
        case .fileSizeLimitExceeded: "fileSizeLimitExceeded"
        case .ioError: "ioError"
        case .closed: "closed"
        case .injectedFault: "injectedFault"
        }
    }
}

extension CacheError: SpecNamedError {
    var specName: String {
        switch self {
        case .invalidKey: "invalidKey"
        case .invalidConfiguration: "invalidConfiguration"
        case .valueTooLarge: "valueTooLarge"
        case .userMetadataTooLarge: "userMetadataTooLarge"
        case .corruptEntry: "corruptEntry"
        case .corruptFile: "corruptFile"
        case .unsupportedFormatVersion: "unsupportedFormatVersion"
        case .ioFailure: "ioFailure"
        case .locked: "locked"
        case .sharingUnsupported: "sharingUnsupported"
        case .readOnly: "readOnly"
        case .symbolicLink: "symbolicLink"
        case .imageTooLarge: "imageTooLarge"
        case .invalidMaximumPixelSize: "invalidMaximumPixelSize"
        case .logStoreFailure: "logStoreFailure"
        case .imageEncodingFailed: "imageEncodingFailed"
        case .imageDecodingFailed: "imageDecodingFailed"
        case .cacheClosed: "cacheClosed"
        }
    }
}
