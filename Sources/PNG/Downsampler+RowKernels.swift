/// The inner loops of the reduction, on raw pointers. Each is written once for a runtime
/// channel count and forced inline into a `switch` over the formats, so every copy has a
/// constant count and the compiler unrolls and vectorises it.
extension Downsampler {
    /// One row of a 16-bit format as UInt32 values: the big-endian samples, and in alpha
    /// formats each colour sample multiplied by its pixel's alpha (`Spec/thumbnail.md` §2.5).
    /// A product is at most 65535² < 2^32.
    static func convertWide(
        _ samples: UnsafePointer<UInt8>, format: PixelFormat, pixels: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        switch format {
        case .grayAlpha16: convertWide(samples, count: pixels * 2, alphaChannels: 2, into: out)
        case .rgba16: convertWide(samples, count: pixels * 4, alphaChannels: 4, into: out)
        default: convertWide(samples, count: pixels * format.channels, alphaChannels: 0, into: out)
        }
    }

    /// Eight samples at a time: the bytes of each 16-bit lane swapped from big-endian, then, with
    /// `alphaChannels` 2 or 4 (0: no alpha), multiplied by a vector of their pixels' alphas (1 in
    /// the alpha lanes) into 32-bit lanes. Eight samples are whole pixels of either alpha format.
    @inline(__always)
    static func convertWide(
        _ samples: UnsafePointer<UInt8>, count: Int, alphaChannels channels: Int,
        into out: UnsafeMutablePointer<UInt32>
    ) {
        var index = 0
        while index + 8 <= count {
            let raw = UnsafeRawPointer(samples + 2 * index).loadUnaligned(as: SIMD8<UInt16>.self)
            let values = raw &<< 8 | raw &>> 8
            var wide = SIMD8<UInt32>(truncatingIfNeeded: values)
            if channels == 4 {
                wide &*= SIMD8<UInt32>(
                    truncatingIfNeeded: SIMD8<UInt16>(
                        values[3], values[3], values[3], 1, values[7], values[7], values[7], 1))
            } else if channels == 2 {
                wide &*= SIMD8<UInt32>(
                    truncatingIfNeeded: SIMD8<UInt16>(values[1], 1, values[3], 1, values[5], 1, values[7], 1))
            }
            UnsafeMutableRawPointer(out + index).storeBytes(of: wide, as: SIMD8<UInt32>.self)
            index += 8
        }
        if channels == 0 {
            while index < count {
                out[index] = wideSample(samples, index)
                index += 1
            }
        } else {
            premultiply(
                samples + 2 * index, pixels: (count - index) / channels, channels: channels, wide: true,
                into: out + index)
        }
    }

    /// One row of `grayAlpha8` or `rgba8` premultiplied: colour × alpha, and alpha, as UInt16
    /// (255 × 255 < 2^16, so no lane overflows).
    static func premultiply8(
        _ samples: UnsafePointer<UInt8>, format: PixelFormat, pixels: Int,
        into out: UnsafeMutablePointer<UInt16>
    ) {
        if format.channels == 4 {
            premultiply8(samples, pixels: pixels, constantChannels: 4, into: out)
        } else {
            premultiply8(samples, pixels: pixels, constantChannels: 2, into: out)
        }
    }

    /// Several pixels at a time: the bytes widened to 16-bit lanes and multiplied by a vector of
    /// their pixels' alphas (1 in the alpha lanes). Swift's SIMD types compile to plain SSE2 or
    /// NEON; the tail of the row is scalar.
    @inline(__always)
    static func premultiply8(
        _ samples: UnsafePointer<UInt8>, pixels: Int, constantChannels channels: Int,
        into out: UnsafeMutablePointer<UInt16>
    ) {
        let vectorPixels = 16 / channels
        var pixel = 0
        while pixel + vectorPixels <= pixels {
            let bytes = UnsafeRawPointer(samples + channels * pixel).loadUnaligned(as: SIMD16<UInt8>.self)
            let wide = SIMD16<UInt16>(truncatingIfNeeded: bytes)
            let alpha =
                channels == 4
                ? SIMD16<UInt16>(
                    wide[3], wide[3], wide[3], 1, wide[7], wide[7], wide[7], 1,
                    wide[11], wide[11], wide[11], 1, wide[15], wide[15], wide[15], 1)
                : SIMD16<UInt16>(
                    wide[1], 1, wide[3], 1, wide[5], 1, wide[7], 1, wide[9], 1, wide[11], 1, wide[13], 1,
                    wide[15], 1)
            UnsafeMutableRawPointer(out + channels * pixel).storeBytes(
                of: wide &* alpha, as: SIMD16<UInt16>.self)
            pixel += vectorPixels
        }
        premultiply(
            samples + channels * pixel, pixels: pixels - pixel, channels: channels, wide: false,
            into: out + channels * pixel)
    }

    @inline(__always)
    static func wideSample(_ samples: UnsafePointer<UInt8>, _ index: Int) -> UInt32 {
        UInt32(samples[2 * index]) << 8 | UInt32(samples[2 * index + 1])
    }

    @inline(__always)
    static func premultiply<Value: FixedWidthInteger & UnsignedInteger>(
        _ samples: UnsafePointer<UInt8>, pixels: Int, channels: Int, wide: Bool,
        into out: UnsafeMutablePointer<Value>
    ) {
        for pixel in 0..<pixels {
            let base = pixel * channels
            let alphaIndex = base + channels - 1
            let alpha = wide ? wideSample(samples, alphaIndex) : UInt32(samples[alphaIndex])
            for channel in 0..<(channels - 1) {
                let colour = wide ? wideSample(samples, base + channel) : UInt32(samples[base + channel])
                out[base + channel] = Value(truncatingIfNeeded: colour &* alpha)
            }
            out[alphaIndex] = Value(truncatingIfNeeded: alpha)
        }
    }

    /// Adds one prepared source row into the column sums of the target row where it starts,
    /// times `weight`, and of the next target row, times `rest` (when not 0).
    @inline(__always)
    static func addRow<
        Element: FixedWidthInteger & UnsignedInteger, Accumulator: FixedWidthInteger & UnsignedInteger
    >(
        _ values: UnsafePointer<Element>, _ weight: Accumulator, _ rest: Accumulator,
        into current: UnsafeMutablePointer<Accumulator>, _ next: UnsafeMutablePointer<Accumulator>,
        _ count: Int
    ) {
        addRow(values, times: weight, into: current, count: count)
        if rest > 0 { addRow(values, times: rest, into: next, count: count) }
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
        // Weight 1 is every row of an integer-factor reduction: plain additions vectorise best.
        if weight == 1 {
            for index in 0..<count { sums[index] &+= Accumulator(truncatingIfNeeded: values[index]) }
        } else {
            for index in 0..<count {
                sums[index] &+= weight &* Accumulator(truncatingIfNeeded: values[index])
            }
        }
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

    /// One pixel's channels as the lanes of a vector (lanes past `channels` are 0), so a
    /// target pixel's channels are summed together.
    @inline(__always)
    static func sumAcross<Accumulator: FixedWidthInteger & UnsignedInteger>(
        _ columns: UnsafePointer<Accumulator>, spans: UnsafeBufferPointer<DownsamplingAxis.Span>,
        middleWeight: UInt64, constantChannels channels: Int, into sums: UnsafeMutablePointer<UInt64>
    ) {
        @inline(__always) func pixel(_ index: Int) -> SIMD4<UInt64> {
            var lanes = SIMD4<UInt64>()
            for channel in 0..<channels { lanes[channel] = UInt64(columns[index * channels + channel]) }
            return lanes
        }
        var out = sums
        for span in spans {
            var middle = SIMD4<UInt64>()
            var index = span.first + 1
            while index < span.last {
                middle &+= pixel(index)
                index += 1
            }
            let total =
                pixel(span.first) &* span.firstWeight &+ middle &* middleWeight &+ pixel(span.last)
                &* span.lastWeight
            for channel in 0..<channels { out[channel] = total[channel] }
            out += channels
        }
    }

    /// The output samples of one target row from its exact sums: §2.4 without alpha, §2.5 with.
    static func finish(
        _ sums: UnsafePointer<UInt64>, format: PixelFormat, pixels: Int, total: UInt64,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        switch format {
        case .gray8, .rgb8:
            finishPlain(sums, count: pixels * format.channels, total: total, wide: false, into: out)
        case .gray16, .rgb16:
            finishPlain(sums, count: pixels * format.channels, total: total, wide: true, into: out)
        case .grayAlpha8: finishAlpha(sums, pixels: pixels, channels: 2, total: total, wide: false, into: out)
        case .rgba8: finishAlpha(sums, pixels: pixels, channels: 4, total: total, wide: false, into: out)
        case .grayAlpha16: finishAlpha(sums, pixels: pixels, channels: 2, total: total, wide: true, into: out)
        case .rgba16: finishAlpha(sums, pixels: pixels, channels: 4, total: total, wide: true, into: out)
        }
    }

    @inline(__always)
    static func finishPlain(
        _ sums: UnsafePointer<UInt64>, count: Int, total: UInt64, wide: Bool,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let reciprocal = 1 / Double(total)
        for index in 0..<count {
            store(roundedHalfUp(sums[index], total, reciprocal: reciprocal), at: index, wide: wide, into: out)
        }
    }

    @inline(__always)
    static func finishAlpha(
        _ sums: UnsafePointer<UInt64>, pixels: Int, channels: Int, total: UInt64, wide: Bool,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let totalReciprocal = 1 / Double(total)
        for pixel in 0..<pixels {
            let base = pixel * channels
            let alphaSum = sums[base + channels - 1]
            store(
                roundedHalfUp(alphaSum, total, reciprocal: totalReciprocal), at: base + channels - 1,
                wide: wide,
                into: out)
            guard alphaSum > 0 else {
                for channel in 0..<(channels - 1) { store(0, at: base + channel, wide: wide, into: out) }
                continue
            }
            let reciprocal = 1 / Double(alphaSum)
            for channel in 0..<(channels - 1) {
                store(
                    roundedHalfUp(sums[base + channel], alphaSum, reciprocal: reciprocal), at: base + channel,
                    wide: wide, into: out)
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

    /// `R(p, q)` of `Spec/thumbnail.md` §2.6, the quotient rounded half up, for the divisions
    /// of ``finish(_:format:pixels:total:into:)``: `q < 2^48` (a total `T ≤ 2^32` or an alpha
    /// sum `A < T × 2^16`) and `p / q ≤ 65,535` (an output sample); `reciprocal` is
    /// `1 / Double(q)`. `2r ≥ q` is tested as `r ≥ q − r`.
    ///
    /// `Double(p) × reciprocal` is within 2^−34 of `p / q` (`q` is exact in a `Double`; three
    /// roundings of relative error 2^−53 each, on a value below 2^16), so its integer part `n` is
    /// the exact quotient or one off either way. The remainder `p − n × q` is then in `[−q, 2q)`:
    /// computed with wrapping arithmetic modulo 2^64, its bit pattern read as an `Int64` is
    /// exact, and one correction step makes `n` and the remainder exact. The result equals the
    /// integer division's; it does not rest on floating point being exact. A pixel's colours
    /// share one reciprocal, and the whole costs less than one 64-bit `div`.
    @inline(__always)
    static func roundedHalfUp(_ p: UInt64, _ q: UInt64, reciprocal: Double) -> UInt64 {
        var quotient = UInt64(truncatingIfNeeded: Int64(Double(p) * reciprocal))
        var remainder = Int64(bitPattern: p &- quotient &* q)
        let divisor = Int64(bitPattern: q)
        if remainder < 0 {
            quotient &-= 1
            remainder &+= divisor
        } else if remainder >= divisor {
            quotient &+= 1
            remainder &-= divisor
        }
        return remainder >= divisor - remainder ? quotient &+ 1 : quotient
    }
}
