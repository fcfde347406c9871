/// Paeth (filter type 4) for one row and for two rows at once (`Spec/png.md` §6.3): the
/// scalar predictor, and the vector steps for 3-, 4-, 6- and 8-byte pixels.
extension PNGFilter {
    @inline(__always)
    static func paeth(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int, _ bpp: Int
    ) {
        // For the first pixel a = c = 0, so the predictor is b.
        let head = min(bpp, count)
        for index in 0..<head { destination[index] = source[index] &+ previous[index] }
        var index = head
        while index < count {
            let a = Int16(destination[index - bpp])
            let b = Int16(previous[index])
            let c = Int16(previous[index - bpp])
            destination[index] = source[index] &+ UInt8(truncatingIfNeeded: paethPredictor(a, b, c))
            index += 1
        }
    }

    /// The Paeth predictor without branches: noisy images make the comparisons unpredictable.
    @inline(__always)
    static func paethPredictor(_ a: Int16, _ b: Int16, _ c: Int16) -> Int16 {
        let pa = abs(b &- c)
        let pb = abs(a &- c)
        let pc = abs(a &+ b &- c &- c)
        let bOrC = pb <= pc ? b : c
        return pa <= pb && pa <= pc ? a : bOrC
    }

    /// Paeth for 3- and 4-byte pixels: the bytes of one pixel are independent, so each pixel
    /// is one SIMD step; only consecutive pixels depend on each other, through the left
    /// neighbour `a`. A 3-byte pixel is computed in 4 lanes and stored as 4 bytes, the fourth
    /// overwritten by the next pixel; the next pixel's input is loaded before that store, so
    /// unfiltering in place (source = destination) still reads the filtered byte. The last
    /// pixel, whose 4-byte access would run past the row, is done in scalar code. Concrete,
    /// not generic: an unspecialized generic SIMD loop measured a thousand times slower.
    ///
    /// - Parameter final: called after each vector step with the number of leading bytes of
    ///   `destination` that are final (``paethThenUpRows`` fills the chain's idle slots there).
    @inline(__always)
    static func paethPixels4(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int, pixelBytes: Int, final: (_ bytes: Int) -> Void = { _ in }
    ) {
        let input = UnsafeRawPointer(source)
        let above = UnsafeRawPointer(previous)
        let output = UnsafeMutableRawPointer(destination)
        var a = SIMD4<Int16>()
        var c = SIMD4<Int16>()
        var index = 0
        guard count >= 4 else {
            paethTail(source, destination, previous, from: 0, count, pixelBytes)
            return
        }
        var x = SIMD4<Int16>(truncatingIfNeeded: input.loadUnaligned(as: SIMD4<UInt8>.self))
        while index + 4 + pixelBytes <= count {
            let b = SIMD4<Int16>(
                truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
            let next = SIMD4<Int16>(
                truncatingIfNeeded: input.loadUnaligned(
                    fromByteOffset: index + pixelBytes, as: SIMD4<UInt8>.self))
            let value = paethStepByIntervals(x, a, b, c)
            output.storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: index, as: SIMD4<UInt8>.self)
            a = value
            c = b
            x = next
            index += pixelBytes
            final(index)
        }
        // The last whole pixel that fits a 4-byte access, with its bytes stored one by one.
        if index + 4 <= count {
            let b = SIMD4<Int16>(
                truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
            let value = paethStep(x, a, b, c)
            for lane in 0..<pixelBytes { destination[index + lane] = UInt8(truncatingIfNeeded: value[lane]) }
            index += pixelBytes
        }
        paethTail(source, destination, previous, from: index, count, pixelBytes)
    }

    /// Unfilters two consecutive Paeth rows of 3- or 4-byte pixels at once, as a wavefront:
    /// each step does pixel p of the upper row and pixel p − 2 of the lower, in the low and
    /// high halves of one 8-lane vector, so one chain of ``paethStep8`` finishes two pixels
    /// (`Spec/png.md` §6.3). The lower row's upper neighbours are the upper row's pixels
    /// p − 2 and p − 3, finished two and three steps before, so moving them into the vector
    /// stays off the chain.
    ///
    /// - Parameters:
    ///   - above: the unfiltered row above the upper row.
    ///   - count: bytes in each row, at least `2 × pixelBytes + 4`.
    @inline(__always)
    static func paethTwoRows(
        upper: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        lower: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        above: UnsafePointer<UInt8>, count: Int, pixelBytes: Int
    ) {
        let input1 = UnsafeRawPointer(upper.source)
        let output1 = UnsafeMutableRawPointer(upper.destination)
        let input2 = UnsafeRawPointer(lower.source)
        let output2 = UnsafeMutableRawPointer(lower.destination)
        let prior = UnsafeRawPointer(above)
        // The upper row's first two pixels alone (a = c = 0 for the first); each input is
        // loaded before the 4-byte store in front of it.
        let first = load(prior, 0)
        let second = load(input1, pixelBytes)
        let pixel0 = paethStep(load(input1, 0), SIMD4(), first, SIMD4())
        store(pixel0, output1, 0)
        let third = load(input1, 2 * pixelBytes)
        let pixel1 = paethStep(second, pixel0, load(prior, pixelBytes), first)
        store(pixel1, output1, pixelBytes)
        // Lanes 0…3 hold the upper row, 4…7 the lower; the lower row's first pixel has
        // a = c = 0 and the upper row's first pixel above it.
        var a = SIMD8<Int16>(lowHalf: pixel1, highHalf: SIMD4())
        var c = SIMD8<Int16>(lowHalf: load(prior, pixelBytes), highHalf: SIMD4())
        var twoBack = SIMD8<Int16>(lowHalf: pixel0, highHalf: SIMD4())
        var oneBack = a
        var x = SIMD8<Int16>(lowHalf: third, highHalf: load(input2, 0))
        var index = 2 * pixelBytes
        while index + 4 + pixelBytes <= count {
            let b = SIMD8<Int16>(lowHalf: load(prior, index), highHalf: twoBack.lowHalf)
            let next = SIMD8<Int16>(
                lowHalf: load(input1, index + pixelBytes), highHalf: load(input2, index - pixelBytes))
            let value = paethStep8(x, a, b, c)
            storeTwoPixels(value, output1, index, output2, index - 2 * pixelBytes)
            a = value
            c = b
            twoBack = oneBack
            oneBack = value
            x = next
            index += pixelBytes
        }
        // Each row's next pixel has its input in x (a 3-byte pixel's first input byte was
        // overwritten in place by the 4-byte store before it, and x was loaded before that
        // store); put it back, and finish each row in scalar code, the upper row first.
        store(x.lowHalf, output1, index)
        paethTail(upper.source, upper.destination, above, from: index, count, pixelBytes)
        store(x.highHalf, output2, index - 2 * pixelBytes)
        paethTail(
            lower.source, lower.destination, UnsafePointer(upper.destination),
            from: index - 2 * pixelBytes, count, pixelBytes)
    }

    /// Paeth for 6- and 8-byte pixels: ``paethPixels4``'s step on each half of the pixel.
    /// (One 8-lane step compiled to lane-by-lane loops through the stack, 150 µs for a 32 × 32
    /// 16-bit RGBA image; two 4-lane steps stay in registers.)
    @inline(__always)
    static func paethPixels8(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int, pixelBytes: Int
    ) {
        let input = UnsafeRawPointer(source)
        let above = UnsafeRawPointer(previous)
        let output = UnsafeMutableRawPointer(destination)
        var aLow = SIMD4<Int16>()
        var cLow = SIMD4<Int16>()
        var aHigh = SIMD4<Int16>()
        var cHigh = SIMD4<Int16>()
        var index = 0
        while index + 8 <= count {
            let bLow = SIMD4<Int16>(
                truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
            let bHigh = SIMD4<Int16>(
                truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index + 4, as: SIMD4<UInt8>.self))
            let xLow = SIMD4<Int16>(
                truncatingIfNeeded: input.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
            let xHigh = SIMD4<Int16>(
                truncatingIfNeeded: input.loadUnaligned(fromByteOffset: index + 4, as: SIMD4<UInt8>.self))
            let low = paethStep(xLow, aLow, bLow, cLow)
            let high = paethStep(xHigh, aHigh, bHigh, cHigh)
            output.storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: low), toByteOffset: index, as: SIMD4<UInt8>.self)
            if pixelBytes == 8 {
                output.storeBytes(
                    of: SIMD4<UInt8>(truncatingIfNeeded: high), toByteOffset: index + 4, as: SIMD4<UInt8>.self
                )
            } else {
                destination[index + 4] = UInt8(truncatingIfNeeded: high[0])
                destination[index + 5] = UInt8(truncatingIfNeeded: high[1])
            }
            aLow = low
            cLow = bLow
            aHigh = high
            cHigh = bHigh
            index += pixelBytes
        }
        paethTail(source, destination, previous, from: index, count, pixelBytes)
    }

    /// One Paeth step on four independent bytes: `x` plus the predictor of left `a`, above `b`
    /// and upper-left `c`, as 0…255 in each lane.
    ///
    /// `a` is the only input from the previous pixel, so the step keeps the work after it
    /// short. With p = a + b − c, |p − a| = |b − c| does not involve `a`; |p − b| = |a − c| and
    /// |p − c| = |a − (2c − b)| are each a max minus a min, one step after `a` (the negation
    /// of the usual abs would be a second). The three possible results x + a, x + b and x + c
    /// are formed before the choice, as byte adds that wrap by themselves and leave the zero
    /// high bytes zero, so neither an add nor a mask follows it: 7 operations after `a`, not
    /// 12, which took a 3-byte Paeth row from 700 to 1,070 MB/s.
    @inline(always)
    static func paethStep(
        _ x: SIMD4<Int16>, _ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>
    ) -> SIMD4<Int16> {
        let pa = maximum(b, c) &- minimum(b, c)
        let bFromC = c &+ c &- b
        let pb = maximum(a, c) &- minimum(a, c)
        let pc = maximum(a, bFromC) &- minimum(a, bFromC)
        // Ties go to a, then b: c wins only when strictly closer than b, b or c only when
        // strictly closer than a.
        let other = byteSum(x, b).replacing(with: byteSum(x, c), where: pb .> pc)
        return byteSum(x, a).replacing(with: other, where: pa .> minimum(pb, pc))
    }

    /// ``paethStep`` with a shorter chain after `a` and more work before it, for one row alone,
    /// where that chain is all that bounds the speed (in ``paethTwoRows`` the vector units
    /// bound it, and the extra work made it slower).
    ///
    /// With d = b − c, the predictor is `a` unless `a` lies strictly inside the interval
    /// between b and 3c − 2b; inside, it is c on the side of 2c − b from the midpoint of c and
    /// 2c − b, and b on the other side, ties going to b. XOR with the sign of d turns the case
    /// d < 0 into the case d > 0 (~v = −v − 1 reverses the order), so with the bounds computed
    /// from b and c alone, `a` meets four comparisons, two ANDs and the choice: 6 operations,
    /// not 7. Checked against ``paethPredictor`` on every (a, b, c); one Paeth row of
    /// 3-byte pixels went from 965 to 1,080 MB/s.
    @inline(always)
    static func paethStepByIntervals(
        _ x: SIMD4<Int16>, _ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>
    ) -> SIMD4<Int16> {
        let d = b &- c
        let sign = d &>> 15
        // After the XOR with `sign`: c wins for a in (3c − 2b, ⌈(3c − b) / 2⌉), b for a in
        // (⌈(3c − b) / 2⌉ − 1, b), open intervals; for d = 0 both are empty.
        let cLow = (c &- d &- d) ^ sign
        let middle = (((c &+ c &- d) ^ sign) &+ 1 &+ sign) &>> 1
        let bLow = middle &- 1
        let bHigh = b ^ sign
        let flipped = a ^ sign
        let none = SIMD4<Int16>()
        let all = SIMD4<Int16>(repeating: -1)
        let isC =
            none.replacing(with: all, where: flipped .> cLow)
            & none.replacing(with: all, where: middle .> flipped)
        let isB =
            none.replacing(with: all, where: flipped .> bLow)
            & none.replacing(with: all, where: bHigh .> flipped)
        return (byteSum(x, b) & isB) | (byteSum(x, c) & isC) | (byteSum(x, a) & ~(isB | isC))
    }

    /// ``paethStep`` on two pixels at once, one in each half. Here the standard library's
    /// `pointwiseMax` and `pointwiseMin` are inlined, and compiled to fewer instructions than
    /// the selects of the four-lane `maximum` (astronaut.png decoded in 683 µs
    /// rather than 713 in the package build).
    @inline(always)
    static func paethStep8(
        _ x: SIMD8<Int16>, _ a: SIMD8<Int16>, _ b: SIMD8<Int16>, _ c: SIMD8<Int16>
    ) -> SIMD8<Int16> {
        let pa = pointwiseMax(b, c) &- pointwiseMin(b, c)
        let bFromC = c &+ c &- b
        let pb = pointwiseMax(a, c) &- pointwiseMin(a, c)
        let pc = pointwiseMax(a, bFromC) &- pointwiseMin(a, bFromC)
        let other = byteSum(x, b).replacing(with: byteSum(x, c), where: pb .> pc)
        return byteSum(x, a).replacing(with: other, where: pa .> pointwiseMin(pb, pc))
    }

    /// Scalar Paeth for the bytes from `start` to the end of the row.
    @inline(__always)
    static func paethTail(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        from start: Int, _ count: Int, _ pixelBytes: Int
    ) {
        var index = start
        while index < count {
            let left = index >= pixelBytes ? Int16(destination[index - pixelBytes]) : 0
            let upLeft = index >= pixelBytes ? Int16(previous[index - pixelBytes]) : 0
            destination[index] =
                source[index]
                &+ UInt8(truncatingIfNeeded: paethPredictor(left, Int16(previous[index]), upLeft))
            index += 1
        }
    }
}
