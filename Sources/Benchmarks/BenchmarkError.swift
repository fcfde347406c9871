#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// Why a benchmark could not run or could not trust what it measured.
///
/// A benchmark checks the work it timed (every stored item comes back, the count is right);
/// a check that fails stops the run instead of reporting a figure for broken work.
public enum BenchmarkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call on the scratch directory failed, with its errno.
    case fileSystem(SystemCallError)
    /// The store under test answered wrongly, so its timings mean nothing.
    case verificationFailed(suite: String, backend: String, detail: String)
    /// A backend name that neither the cache nor the baseline knows.
    case unknownBackend(String)
    /// An output file could not be written.
    case outputNotWritten(path: String, reason: String)

    public var description: String {
        switch self {
        case .fileSystem(let error):
            return
                "\(error.operation) failed on \(error.path): \(error.reason) (errno \(error.errno.rawValue)); "
                + "check that the scratch directory (--scratch) is writable and has free space."
        case .verificationFailed(let suite, let backend, let detail):
            return "The \(suite) benchmark on the \(backend) backend read back wrong results (\(detail)); "
                + "its timings were discarded. Run the cache tests to find the fault."
        case .unknownBackend(let name):
            return "There is no backend named '\(name)'; "
                + "use one of \(BenchmarkSubjects.allNames.joined(separator: ", "))."
        case .outputNotWritten(let path, let reason):
            return "Could not write \(path) (\(reason)); choose a writable --out directory."
        }
    }
}

extension BenchmarkError {
    /// Runs `call`, a system call on the scratch directory, reporting its failure as
    /// ``fileSystem(_:)``, which tells the person what to check.
    static func onScratch<Result>(_ call: () throws(SystemCallError) -> Result) throws(BenchmarkError)
        -> Result
    {
        do {
            return try call()
        } catch {
            throw .fileSystem(error)
        }
    }
}
