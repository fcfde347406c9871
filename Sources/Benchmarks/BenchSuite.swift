import Foundation

/// What every benchmark suite is told about the run it is part of.
public struct BenchOptions: Sendable {
    /// A run of under a minute, with fewer items and repeats.
    public var quick: Bool
    /// The arguments left after the suite name and the options (for example PNG files).
    public var operands: [String]
    /// Where suites create their stores; each suite makes its own subdirectory and removes it.
    public var scratchDirectory: URL
    /// The status line for work longer than a second.
    public var progress: ProgressLine
    /// The cache backends to measure; `nil` means all of them.
    public var backends: [String]?
    private var presetOverride: BenchmarkPreset?

    public init(
        quick: Bool = false, operands: [String] = [],
        scratchDirectory: URL = FileManager.default.temporaryDirectory,
        progress: ProgressLine = .silent, backends: [String]? = nil
    ) {
        self.quick = quick
        self.operands = operands
        self.scratchDirectory = scratchDirectory
        self.progress = progress
        self.backends = backends
    }

    /// The sizes, counts and repeats: `quick` or `full` by `quick`, unless set explicitly.
    public var preset: BenchmarkPreset {
        get { presetOverride ?? (quick ? .quick : .full) }
        set { presetOverride = newValue }
    }
}

/// A named group of measurements: `imagecache bench <name>`.
public struct BenchSuite: Sendable {
    public var name: String
    public var summary: String
    public var run: @Sendable (BenchOptions) throws -> [BenchmarkResult]

    public init(
        name: String, summary: String, run: @escaping @Sendable (BenchOptions) throws -> [BenchmarkResult]
    ) {
        self.name = name
        self.summary = summary
        self.run = run
    }
}
