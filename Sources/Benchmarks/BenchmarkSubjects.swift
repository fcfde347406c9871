/// The subjects a run measures: the cache's backends (`--backends` picks some) and the raw-file
/// baseline, which is always measured beside them.
public enum BenchmarkSubjects {
    /// Every cache backend, in the order tables and charts list them.
    public static var backends: [BenchmarkSubject] {
        cacheBackends
    }

    /// The backend a cache uses when its configuration names none.
    public static var defaultBackendName: String {
        cacheDefaultBackend
    }

    /// Every name `--backends` accepts.
    public static var allNames: [String] {
        backends.map(\.name)
    }

    /// The backends `options` selects, in the canonical order.
    ///
    /// - Throws: `BenchmarkError.unknownBackend` for a name no backend has.
    public static func selected(_ options: BenchOptions) throws(BenchmarkError) -> [BenchmarkSubject] {
        guard let names = options.backends else { return backends }
        for name in names where !allNames.contains(name) {
            throw .unknownBackend(name)
        }
        return backends.filter { names.contains($0.name) }
    }

    /// The selected backends followed by the raw-file baseline, which every comparison keeps.
    public static func selectedWithBaseline(_ options: BenchOptions) throws(BenchmarkError)
        -> [BenchmarkSubject]
    {
        try selected(options) + [RawFileStore.subject]
    }

    /// The backend the concurrency experiment uses: the cache's default backend, or the first
    /// one `--backends` selects when it leaves the default out.
    ///
    /// - Throws: `BenchmarkError.unknownBackend` when no backend is selected.
    public static func concurrencySubject(_ options: BenchOptions) throws(BenchmarkError) -> BenchmarkSubject
    {
        let candidates = try selected(options)
        guard let subject = candidates.first(where: { $0.name == defaultBackendName }) ?? candidates.first
        else {
            throw .unknownBackend(defaultBackendName)
        }
        return subject
    }
}
