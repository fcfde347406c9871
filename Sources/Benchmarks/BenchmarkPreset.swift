/// How much work each experiment does: the sizes, counts and repeats of one run.
///
/// The full run aims at under ten minutes on a shared two-core machine, `quick` at under a
/// minute; `smoke` is for the tests and exercises the same code on tiny inputs. Value sizes,
/// image dimensions and entry sizes are the same in every preset so that figures compare; the
/// presets differ in how many items, how many sizes and how many repeats.
public struct BenchmarkPreset: Sendable, Equatable {
    /// `full`, `quick` or `smoke`; printed with the results.
    public var name: String
    /// Timed repeats of each measurement (after one untimed warm-up where `warmUp` is set).
    public var repeats: Int
    public var warmUp: Bool
    /// Timed repeats of heavy work (the protocol at the largest X, the purge), which skips the
    /// warm-up: one repeat there takes seconds, and it does not need warming.
    public var heavyRepeats: Int

    /// Experiment 1, the store-then-synchronize protocol: the item counts X.
    public var protocolCounts: [Int]
    /// Width and height of the protocol's images (RGBA, 8 bits a sample).
    public var imageSide: Int

    /// Experiment 2: the value sizes, in bytes.
    public var throughputSizes: [Int]
    /// Bytes written and read by one repeat of one size (at least one value).
    public var throughputBytesPerRepeat: Int
    /// The most values one repeat of one size stores, so small sizes stay quick.
    public var throughputMaximumCount: Int

    /// Experiment 3: entry counts to open.
    public var openCounts: [Int]
    /// Size of each entry's value when measuring open time.
    public var openValueSize: Int

    /// Experiment 4: entries before the purge (half of them expired) and their value size.
    public var purgeEntries: Int
    public var purgeValueSize: Int

    /// Experiment 5: entries the readers and the writer work on, their size, and how long one
    /// repeat runs, in seconds.
    public var concurrencyEntries: Int
    public var concurrencyValueSize: Int
    public var concurrencyDuration: Double

    public init(
        name: String, repeats: Int, warmUp: Bool, heavyRepeats: Int, protocolCounts: [Int], imageSide: Int,
        throughputSizes: [Int], throughputBytesPerRepeat: Int, throughputMaximumCount: Int,
        openCounts: [Int], openValueSize: Int, purgeEntries: Int, purgeValueSize: Int,
        concurrencyEntries: Int, concurrencyValueSize: Int, concurrencyDuration: Double
    ) {
        self.name = name
        self.repeats = repeats
        self.warmUp = warmUp
        self.heavyRepeats = heavyRepeats
        self.protocolCounts = protocolCounts
        self.imageSide = imageSide
        self.throughputSizes = throughputSizes
        self.throughputBytesPerRepeat = throughputBytesPerRepeat
        self.throughputMaximumCount = throughputMaximumCount
        self.openCounts = openCounts
        self.openValueSize = openValueSize
        self.purgeEntries = purgeEntries
        self.purgeValueSize = purgeValueSize
        self.concurrencyEntries = concurrencyEntries
        self.concurrencyValueSize = concurrencyValueSize
        self.concurrencyDuration = concurrencyDuration
    }

    /// Value sizes 4 KiB, 16 KiB, … 64 MiB: powers of 4.
    public static let allThroughputSizes: [Int] = (0..<8).map { 4096 << (2 * $0) }

    /// The main job: every count, size and entry count the issue names.
    ///
    /// The protocol's images are 32 × 32 (4 KiB of pixels): storing and synchronizing X items one
    /// at a time rewrites the whole dictionary file X times, so its cost grows with X² × size,
    /// and at X = 1000 larger images would take the run past ten minutes.
    public static let full = BenchmarkPreset(
        name: "full", repeats: 5, warmUp: true, heavyRepeats: 3,
        protocolCounts: [10, 100, 1000], imageSide: 32,
        throughputSizes: allThroughputSizes, throughputBytesPerRepeat: 32 << 20,
        throughputMaximumCount: 500,
        openCounts: [1000, 10_000, 100_000], openValueSize: 1024,
        purgeEntries: 20_000, purgeValueSize: 4096,
        concurrencyEntries: 1000, concurrencyValueSize: 4096, concurrencyDuration: 2)

    /// Under a minute: X up to 100, 10,000 entries, sizes 4 KiB to 16 MiB in powers of 16 with
    /// fewer bytes per size, three repeats.
    public static let quick = BenchmarkPreset(
        name: "quick", repeats: 3, warmUp: true, heavyRepeats: 3,
        protocolCounts: [10, 100], imageSide: 32,
        throughputSizes: [4096, 65_536, 1 << 20, 16 << 20], throughputBytesPerRepeat: 4 << 20,
        throughputMaximumCount: 64,
        openCounts: [1000, 10_000], openValueSize: 1024,
        purgeEntries: 1000, purgeValueSize: 4096,
        concurrencyEntries: 500, concurrencyValueSize: 4096, concurrencyDuration: 0.3)

    /// For the tests: every experiment and code path, on a few items.
    public static let smoke = BenchmarkPreset(
        name: "smoke", repeats: 2, warmUp: false, heavyRepeats: 2,
        protocolCounts: [3], imageSide: 8,
        throughputSizes: [4096, 16_384, 65_536], throughputBytesPerRepeat: 65_536,
        throughputMaximumCount: 4,
        openCounts: [10, 40], openValueSize: 64,
        purgeEntries: 20, purgeValueSize: 256,
        concurrencyEntries: 16, concurrencyValueSize: 256, concurrencyDuration: 0.02)

    /// How many values of `size` bytes one throughput repeat stores and reads.
    public func throughputCount(forSize size: Int) -> Int {
        max(1, min(throughputMaximumCount, throughputBytesPerRepeat / size))
    }

    /// A sampler with this preset's repeats; `heavy` work takes `heavyRepeats` and no warm-up.
    public func sampler(heavy: Bool = false) -> Sampler {
        Sampler(repeats: heavy ? heavyRepeats : repeats, warmUp: warmUp && !heavy)
    }
}
