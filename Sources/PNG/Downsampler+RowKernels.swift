/// The inner loops of the reduction, on raw pointers. Each is written once for a runtime
/// channel count and forced inline into a `switch` over the formats, so every copy has a
/// constant count and the compiler unrolls and vectorises it.
extension Downsampler {
    /// One row of samples as UInt32: 16-bit samples from big-endian, and in alpha formats each
    /// colour sample multiplied by its pixel's alpha (`Spec/thumbnail.md` §2.5). A product is
    /// at most 65535² < 2^32.
    static func convert(
        _ samples: UnsafePointer<UInt8>, format: PixelFormat, pixels: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        switch format {
        case .gray16, .rgb16:
            for index in 0..<(pixels * format.channels) { out[index] = wideSample(samples, index) }
        case .grayAlpha8: premultiply(samples, pixels: pixels, channels: 2, wide: false, into: out)
        case .rgba8: premultiply(samples, pixels: pixels, channels: 4, wide: false, into: out)
        case .grayAlpha16: premultiply(samples, pixels: pixels, channels: 2, wide: true, into: out)
        case .rgba16: premultiply(samples, pixels: pixels, channels: 4, wide: true, into: out)
        case .gray8, .rgb8:
            for index in 0..<(pixels * format.channels) { out[index] = UInt32(samples[index]) }
        }
    }

    @inline(__always)
    static func wideSample(_ samples: UnsafePointer<UInt8>, _ index: Int) -> UInt32 {
        UInt32(samples[2 * index]) << 8 | UInt32(samples[2 * index + 1])
    }

    @inline(__always)
    static func premultiply(
        _ samples: UnsafePointer<UInt8>, pixels: Int, channels: Int, wide: Bool,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        for pixel in 0..<pixels {
            let base = pixel * channels
            let alphaIndex = base + channels - 1
            let alpha = wide ? wideSample(samples, alphaIndex) : UInt32(samples[alphaIndex])
            for channel in 0..<(channels - 1) {
                let colour = wide ? wideSample(samples, base + channel) : UInt32(samples[base + channel])
                out[base + channel] = colour &* alpha
            }
            out[alphaIndex] = alpha
        }
    }

    /// `sums[k] += weight × values[k]` for a whole row. The caller has checked that no sum can
    /// exceed `Accumulator.max` (§2.7), so the wrapping operators never wrap.
    @inline(__always)
    static func addRow<
        Element: FixedWidthInteger & UnsignedInteger, Accumulator: FixedWidthInteger & UnsignedInteger
    >(
        _ values: UnsafePointer<Element>, times weight: Accumulator,
        into sums: UnsafeMutablePointer<Accumulator>,
        count: Int
    ) {
        for index in 0..<count { sums[index] &+= weight &* Accumulator(truncatingIfNeeded: values[index]) }
    }

    /// The horizontal sums of one target row: for each target pixel and channel,
    /// `firstWeight × first column + middleWeight × (columns between) + lastWeight × last column`.
    static func sumAcross<Accumulator: FixedWidthInteger & UnsignedInteger>(
        _ columns: UnsafePointer<Accumulator>, spans: UnsafeBufferPointer<DownsamplingAxis.Span>,
        middleWeight: UInt64, channels: Int, into sums: UnsafeMutablePointer<UInt64>
    ) {
        switch channels {
        case 1: sumAcross(columns, spans: spans, middleWeight: middleWeight, constantChannels: 1, into: sums)
        case 2: sumAcross(columns, spans: spans, middleWeight: middleWeight, constantChannels: 2, into: sums)
        case 3: sumAcross(columns, spans: spans, middleWeight: middleWeight, constantChannels: 3, into: sums)
        default: sumAcross(columns, spans: spans, middleWeight: middleWeight, constantChannels: 4, into: sums)
        }
    }

    @inline(__always)
    static func sumAcross<Accumulator: FixedWidthInteger & UnsignedInteger>(
        _ columns: UnsafePointer<Accumulator>, spans: UnsafeBufferPointer<DownsamplingAxis.Span>,
        middleWeight: UInt64, constantChannels channels: Int, into sums: UnsafeMutablePointer<UInt64>
    ) {
        for (target, span) in spans.enumerated() {
            let firstBase = span.first * channels
            let lastBase = span.last * channels
            for channel in 0..<channels {
                var middle: UInt64 = 0
                var index = firstBase + channels + channel
                while index < lastBase {
                    middle &+= UInt64(columns[index])
                    index += channels
                }
                sums[target * channels + channel] =
                    span.firstWeight &* UInt64(columns[firstBase + channel]) &+ middleWeight &* middle
                    &+ span.lastWeight &* UInt64(columns[lastBase + channel])
            }
        }
    }

    /// The output samples of one target row from its exact sums: §2.4 without alpha, §2.5 with.
    static func finish(
        _ sums: UnsafePointer<UInt64>, format: PixelFormat, pixels: Int, total: UInt64,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let channels = format.channels
        let wide = format.bytesPerSample == 2
        guard format.hasAlpha else {
            for index in 0..<(pixels * channels) {
                store(roundedHalfUp(sums[index], total), at: index, wide: wide, into: out)
            }
            return
        }
        for pixel in 0..<pixels {
            let base = pixel * channels
            let alphaSum = sums[base + channels - 1]
            store(roundedHalfUp(alphaSum, total), at: base + channels - 1, wide: wide, into: out)
            for channel in 0..<(channels - 1) {
                let colour = alphaSum == 0 ? 0 : roundedHalfUp(sums[base + channel], alphaSum)
                store(colour, at: base + channel, wide: wide, into: out)
            }
        }
    }

    @inline(__always)
    static func store(_ value: UInt64, at index: Int, wide: Bool, into out: UnsafeMutablePointer<UInt8>) {
        if wide {
            out[2 * index] = UInt8(truncatingIfNeeded: value >> 8)
            out[2 * index + 1] = UInt8(truncatingIfNeeded: value)
        } else {
            out[index] = UInt8(truncatingIfNeeded: value)
        }
    }

    /// `R(p, q)` of `Spec/thumbnail.md` §2.6: the quotient rounded half up, `2r ≥ q` tested as
    /// `r ≥ q − r` so that nothing can overflow.
    @inline(__always)
    static func roundedHalfUp(_ p: UInt64, _ q: UInt64) -> UInt64 {
        let (quotient, remainder) = p.quotientAndRemainder(dividingBy: q)
        return remainder >= q - remainder ? quotient + 1 : quotient
    }
}
