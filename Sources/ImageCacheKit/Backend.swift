/// Where a cache keeps its entries (`Spec/backends.md`). Every backend behaves identically
/// through ``ImageCache``; they differ only in their files and their costs.
public enum Backend: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Every entry in memory; one file written wholesale by `synchronize()` (`Spec/backends.md` §2).
    case dictionary
    /// One file per entry plus an index file (`Spec/backends.md` §3).
    case directory
    /// The single-file log store (`Spec/backends.md` §4). The default.
    case log
    /// Small values in the log store, large values in files beside it (`Spec/backends.md` §5).
    case hybrid

    /// The backend's name as the spec, the command line and the conformance suite write it:
    /// `dictionary`, `directory`, `log` or `hybrid`.
    public var description: String { rawValue }
}

extension Backend {
    /// Whether processes can open the backend's folder to write it together
    /// (`Spec/backends.md` §9.1): the log-based ones, whose one append-only file every process
    /// can follow from its end.
    public var canBeShared: Bool { self == .log || self == .hybrid }
}
