#if !IMAGECACHE_SINGLE_MODULE
import Inflate
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
