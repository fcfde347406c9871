/// The weights of one axis of a reduction from `s` to `d` pixels (`Spec/thumbnail.md` §2.1),
/// precomputed once per axis, every weight divided by `g = gcd(s, d)` (§2.7).
struct DownsamplingAxis {
    /// The source pixels of one target pixel: `first … last` (inclusive), the first weighted
    /// `firstWeight`, the last `lastWeight`, every one between them ``middleWeight``.
    ///
    /// When the target pixel covers a single source pixel (an axis that is not reduced,
    /// `s = d`), `last = first` and `lastWeight = 0`, so the same three-part sum serves both
    /// cases without a branch.
    struct Span {
        var first: Int
        var last: Int
        var firstWeight: UInt64
        var lastWeight: UInt64
    }

    let sourceLength: Int
    let targetLength: Int
    /// One span per target pixel.
    let spans: [Span]
    /// The weight of a source pixel wholly inside a target pixel: `d / g`. It is also the sum
    /// of the weights of one source pixel over every target pixel.
    let middleWeight: UInt64
    /// The sum of the weights of one target pixel: `s / g`.
    let weightSum: UInt64
    /// For each source pixel, its weight in the target pixel where it starts; the rest,
    /// `middleWeight − startWeight[i]`, goes to the next target pixel.
    let startWeights: [UInt64]

    /// - Precondition: `1 ≤ target ≤ source`.
    init(source: Int, target: Int) {
        precondition(1 <= target && target <= source, "an axis can only shrink")
        sourceLength = source
        targetLength = target
        // Int64: j × s reaches (2^31)^2 = 2^62, beyond Int on 32-bit platforms.
        let s = Int64(source)
        let d = Int64(target)
        let divisor = DownsamplingAxis.greatestCommonDivisor(s, d)
        middleWeight = UInt64(d / divisor)
        weightSum = UInt64(s / divisor)
        spans = (0..<target).map { j in
            let start = Int64(j) * s
            let end = start + s
            let first = start / d
            let last = (end - 1) / d
            if first == last {
                return Span(
                    first: Int(first), last: Int(last), firstWeight: UInt64(s / divisor), lastWeight: 0)
            }
            return Span(
                first: Int(first), last: Int(last), firstWeight: UInt64(((first + 1) * d - start) / divisor),
                lastWeight: UInt64((end - last * d) / divisor))
        }
        startWeights = (0..<source).map { i in
            let start = Int64(i) * d
            let boundary = (start / s + 1) * s
            return UInt64((min(start + d, boundary) - start) / divisor)
        }
    }

    static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
