import Foundation

/// Times repeated runs of a piece of work and reduces them to a median and a spread.
public struct Sampler: Sendable {
    /// How many timed repeats each measurement takes (after one untimed warm-up).
    public var repeats: Int
    /// Whether to run one untimed repeat first, to fault in pages and warm caches.
    public var warmUp: Bool

    public init(repeats: Int = 5, warmUp: Bool = true) {
        precondition(repeats > 0, "a measurement needs at least one repeat")
        self.repeats = repeats
        self.warmUp = warmUp
    }

    /// The median and relative spread of `repeats` timings of `work`.
    ///
    /// `setUp` runs before each repeat and is not timed; its result is passed to `work`.
    public func measure<State>(
        setUp: () throws -> State, _ work: (inout State) throws -> Void
    ) rethrows -> Summary {
        if warmUp {
            var state = try setUp()
            try work(&state)
        }
        var samples: [Double] = []
        samples.reserveCapacity(repeats)
        for _ in 0..<repeats {
            var state = try setUp()
            let start = MonotonicClock.now()
            try work(&state)
            samples.append(MonotonicClock.seconds(since: start))
        }
        return Summary(samples: samples)
    }

    /// The median and relative spread of `repeats` timings of `work`.
    public func measure(_ work: () throws -> Void) rethrows -> Summary {
        try measure(setUp: {}, { _ in try work() })
    }

    /// The summaries of `repeats` timings of each of `works`, taken in rounds: every round
    /// times each work once, starting one further along the list than the round before.
    ///
    /// For works whose figures are compared with each other (a read and its `pread` baseline):
    /// on a shared, noisy machine a slow moment then lands on all of them, not on the repeats
    /// of one, and no work always runs first or right after the same other.
    public func measureInterleaved(_ works: [() throws -> Void]) throws -> [Summary] {
        if warmUp {
            for work in works { try work() }
        }
        var samples = [[Double]](repeating: [], count: works.count)
        for round in 0..<repeats {
            for step in works.indices {
                let index = (round + step) % works.count
                let start = MonotonicClock.now()
                try works[index]()
                samples[index].append(MonotonicClock.seconds(since: start))
            }
        }
        return samples.map { Summary(samples: $0) }
    }
}

/// The reduction of a set of timings.
public struct Summary: Sendable, Equatable {
    public var samples: [Double]

    public init(samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        self.samples = samples
    }

    public var median: Double { Summary.percentile(0.5, of: samples) }
    /// (max − min) / median; 0 for a single sample.
    public var spread: Double {
        let median = self.median
        guard median > 0, let low = samples.min(), let high = samples.max() else { return 0 }
        return (high - low) / median
    }

    /// The median over rounds of `numerators[i] / denominators[i]`: the ratio of two works timed
    /// in the same rounds, paired round by round. A slow spell that lands on one round moves
    /// both of its timings and leaves their ratio, where the ratio of the two medians can pair
    /// one work's quiet round with the other's slow one. Nil unless both hold the same, nonzero
    /// number of positive timings.
    public static func medianRatio(of numerators: [Double], over denominators: [Double]) -> Double? {
        guard !numerators.isEmpty, numerators.count == denominators.count,
            !denominators.contains(where: { $0 <= 0 })
        else { return nil }
        return percentile(0.5, of: zip(numerators, denominators).map { $0 / $1 })
    }

    /// The nearest-rank percentile (`fraction` in 0...1) of `values`, interpolating linearly.
    public static func percentile(_ fraction: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        guard sorted.count > 1 else { return sorted.first ?? 0 }
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}

/// Monotonic time in nanoseconds, immune to wall-clock changes.
public enum MonotonicClock {
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    public static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }
}
