/// The reduction itself (`Spec/thumbnail.md` §2.3 to §2.6), one source row at a time.
///
/// The exact sums are computed separably. Each source row is read once: its samples (alpha
/// formats: premultiplied, `c × a`) are added, times the row's vertical weight, into the column
/// sums of the target row where the source row starts, and the rest of its weight into those of
/// the next target row (a source row overlaps at most two target rows, since `d ≤ s`). When a
/// target row is complete, its column sums are summed across with the horizontal weights and
/// divided once per sample. No sum is rounded before that division, so the result is the exact
/// quotient of §2.4 and §2.5.
extension Downsampler {
    /// Reduces a valid bitmap to `width × height`, each at most the bitmap's own.
    ///
    /// - Precondition: the bitmap is valid and has at most ``maximumPixelCount`` pixels.
    static func reduce(_ bitmap: Bitmap, toWidth width: Int, height: Int) -> Bitmap {
        let horizontal = DownsamplingAxis(source: bitmap.width, target: width)
        let vertical = DownsamplingAxis(source: bitmap.height, target: height)
        // A column sum is at most weightSum × the largest term: max, or max² with alpha. When
        // that fits in 32 bits (a reduced vertical ratio s / gcd(s, d) up to 16.8 million for
        // 8-bit formats without alpha, 66,051 for 8-bit alpha, 65,537 for 16-bit formats
        // without alpha) the column sums take half the memory traffic.
        let maximum: UInt64 = bitmap.format.bytesPerSample == 1 ? 255 : 65535
        let largestTerm = bitmap.format.hasAlpha ? maximum * maximum : maximum
        let (bound, overflow) = vertical.weightSum.multipliedReportingOverflow(by: largestTerm)
        var result = bitmap
        result.width = width
        result.height = height
        result.pixels =
            !overflow && bound <= UInt64(UInt32.max)
            ? reduceRows(bitmap, horizontal: horizontal, vertical: vertical, accumulator: UInt32.self)
            : reduceRows(bitmap, horizontal: horizontal, vertical: vertical, accumulator: UInt64.self)
        return result
    }

    /// The output pixels, with column sums of type `Accumulator`.
    static func reduceRows<Accumulator: FixedWidthInteger & UnsignedInteger>(
        _ bitmap: Bitmap, horizontal: DownsamplingAxis, vertical: DownsamplingAxis,
        accumulator: Accumulator.Type
    ) -> [UInt8] {
        let format = bitmap.format
        let rowSamples = bitmap.width * format.channels
        let sourceBytesPerRow = bitmap.width * format.bytesPerPixel
        let targetSamples = horizontal.targetLength * format.channels
        let targetBytesPerRow = targetSamples * format.bytesPerSample
        // 8-bit samples without alpha are added straight from the bytes. 8-bit alpha formats are
        // premultiplied into UInt16 (255 × 255 < 2^16); 16-bit formats become one UInt32 per
        // sample (big-endian values, premultiplied colour: 65535² < 2^32).
        let preparation =
            format.bytesPerSample == 2 ? RowPreparation.wide : format.hasAlpha ? .premultiplied8 : .none
        let total = horizontal.weightSum * vertical.weightSum

        var current = UnsafeMutableBufferPointer<Accumulator>.allocate(capacity: rowSamples)
        var next = UnsafeMutableBufferPointer<Accumulator>.allocate(capacity: rowSamples)
        let premultiplied = UnsafeMutableBufferPointer<UInt16>.allocate(
            capacity: preparation == .premultiplied8 ? rowSamples : 0)
        let converted = UnsafeMutableBufferPointer<UInt32>.allocate(
            capacity: preparation == .wide ? rowSamples : 0)
        let sums = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: targetSamples)
        current.initialize(repeating: 0)
        next.initialize(repeating: 0)
        defer {
            current.deallocate()
            next.deallocate()
            premultiplied.deallocate()
            converted.deallocate()
            sums.deallocate()
        }

        return [UInt8](unsafeUninitializedCapacity: targetBytesPerRow * vertical.targetLength) {
            output, initialized in
            bitmap.pixels.withUnsafeBufferPointer { source in
                horizontal.spans.withUnsafeBufferPointer { spans in
                    var target = 0
                    var lastRowOfTarget = vertical.spans[0].last
                    for row in 0..<vertical.sourceLength {
                        let samples = source.baseAddress! + row * sourceBytesPerRow
                        let startWeight = vertical.startWeights[row]
                        let weight = Accumulator(truncatingIfNeeded: startWeight)
                        let rest = Accumulator(truncatingIfNeeded: vertical.middleWeight - startWeight)
                        switch preparation {
                        case .none:
                            addRow(
                                samples, weight, rest, into: current.baseAddress!, next.baseAddress!,
                                rowSamples)
                        case .premultiplied8:
                            premultiply8(
                                samples, format: format, pixels: bitmap.width,
                                into: premultiplied.baseAddress!)
                            addRow(
                                premultiplied.baseAddress!, weight, rest, into: current.baseAddress!,
                                next.baseAddress!, rowSamples)
                        case .wide:
                            convertWide(
                                samples, format: format, pixels: bitmap.width, into: converted.baseAddress!)
                            addRow(
                                converted.baseAddress!, weight, rest, into: current.baseAddress!,
                                next.baseAddress!,
                                rowSamples)
                        }
                        guard row == lastRowOfTarget else { continue }
                        sumAcross(
                            UnsafePointer(current.baseAddress!), spans: spans,
                            middleWeight: horizontal.middleWeight,
                            channels: format.channels, into: sums.baseAddress!)
                        finish(
                            UnsafePointer(sums.baseAddress!), format: format, pixels: horizontal.targetLength,
                            total: total, into: output.baseAddress! + target * targetBytesPerRow)
                        swap(&current, &next)
                        next.update(repeating: 0)
                        target += 1
                        if target < vertical.targetLength { lastRowOfTarget = vertical.spans[target].last }
                    }
                }
            }
            initialized = output.count
        }
    }
}

/// How a source row is turned into the values whose weighted sums are taken.
enum RowPreparation {
    /// 8-bit samples without alpha: the bytes themselves.
    case none
    /// `grayAlpha8`, `rgba8`: colour × alpha, and alpha, as UInt16.
    case premultiplied8
    /// 16-bit formats: the big-endian values, colour × alpha with alpha, as UInt32.
    case wide
}

extension PixelFormat {
    /// Whether the last channel is alpha (`Spec/thumbnail.md` §2.2).
    var hasAlpha: Bool { channels == 2 || channels == 4 }
}
