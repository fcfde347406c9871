/// Two consecutive Average rows of 3- or 4-byte pixels at once (`Spec/png.md` §6.3).
extension PNGFilter {
    /// Whether two consecutive rows of `filter` unfilter together (``unfilterTwoRows``):
    /// Average and Paeth, whose left-neighbour chains bound them.
    @inline(__always)
    static func pairs(_ filter: UInt8) -> Bool { filter == 3 || filter == 4 }

    /// Unfilters two consecutive rows of 3- or 4-byte pixels that both have `filter`, 3 or 4,
    /// with a row above, at least `2 × pixelBytes + 4` bytes each.
    @inline(__always)
    static func unfilterTwoRows(
        filter: UInt8,
        upper: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        lower: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        above: UnsafePointer<UInt8>, count: Int, pixelBytes: Int
    ) {
        if filter == 4 {
            paethTwoRows(upper: upper, lower: lower, above: above, count: count, pixelBytes: pixelBytes)
        } else {
            averageTwoRows(upper: upper, lower: lower, above: above, count: count, pixelBytes: pixelBytes)
        }
    }

    /// Unfilters two consecutive Average rows of 3- or 4-byte pixels as a wavefront, as
    /// ``paethTwoRows`` does for Paeth: each step does pixel p of the upper row and pixel
    /// p − 2 of the lower, in the two halves of one 8-lane vector, so one chain of
    /// ``averageStep8`` finishes two pixels; the lower row's upper neighbour, the upper row's
    /// pixel p − 2, was finished two steps before.
    ///
    /// - Parameters:
    ///   - above: the unfiltered row above the upper row.
    ///   - count: bytes in each row, at least `2 × pixelBytes + 4`.
    @inline(__always)
    static func averageTwoRows(
        upper: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        lower: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        above: UnsafePointer<UInt8>, count: Int, pixelBytes: Int
    ) {
        let input1 = UnsafeRawPointer(upper.source)
        let output1 = UnsafeMutableRawPointer(upper.destination)
        let input2 = UnsafeRawPointer(lower.source)
        let output2 = UnsafeMutableRawPointer(lower.destination)
        let prior = UnsafeRawPointer(above)
        // The upper row's first two pixels alone (no left neighbour for the first); each input
        // is loaded before the 4-byte store in front of it.
        let second = load(input1, pixelBytes)
        let pixel0 = averageStep(load(input1, 0), SIMD4(), load(prior, 0))
        store(pixel0, output1, 0)
        let third = load(input1, 2 * pixelBytes)
        let pixel1 = averageStep(second, pixel0, load(prior, pixelBytes))
        store(pixel1, output1, pixelBytes)
        // Lanes 0…3 hold the upper row, 4…7 the lower, whose first pixel has no left
        // neighbour and the upper row's first pixel above it.
        var left = SIMD8<Int16>(lowHalf: pixel1, highHalf: SIMD4())
        var twoBack = SIMD8<Int16>(lowHalf: pixel0, highHalf: SIMD4())
        var oneBack = left
        var x = SIMD8<Int16>(lowHalf: third, highHalf: load(input2, 0))
        var index = 2 * pixelBytes
        while index + 4 + pixelBytes <= count {
            let b = SIMD8<Int16>(lowHalf: load(prior, index), highHalf: twoBack.lowHalf)
            let next = SIMD8<Int16>(
                lowHalf: load(input1, index + pixelBytes), highHalf: load(input2, index - pixelBytes))
            let value = averageStep8(x, left, b)
            storeTwoPixels(value, output1, index, output2, index - 2 * pixelBytes)
            left = value
            twoBack = oneBack
            oneBack = value
            x = next
            index += pixelBytes
        }
        // As in ``paethTwoRows``: put back each row's next input, finish the upper row, then
        // the lower.
        store(x.lowHalf, output1, index)
        averageTail(upper.source, upper.destination, above, from: index, count, pixelBytes)
        store(x.highHalf, output2, index - 2 * pixelBytes)
        averageTail(
            lower.source, lower.destination, UnsafePointer(upper.destination),
            from: index - 2 * pixelBytes, count, pixelBytes)
    }

    /// ``averageStep(_:_:_:)`` on two pixels at once, one in each half.
    @inline(always)
    static func averageStep8(_ x: SIMD8<Int16>, _ left: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
        let fromAbove = byteSum(x, b &>> 1)
        return byteSum(byteSum(left &>> 1, fromAbove), left & b & 1)
    }

    /// Scalar Average with a row above, for the bytes from `start` to the end of the row.
    @inline(__always)
    static func averageTail(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        from start: Int, _ count: Int, _ pixelBytes: Int
    ) {
        var index = start
        while index < count {
            let left = index >= pixelBytes ? UInt16(destination[index - pixelBytes]) : 0
            destination[index] =
                source[index] &+ UInt8(truncatingIfNeeded: (left &+ UInt16(previous[index])) >> 1)
            index += 1
        }
    }
}
