/// Reverses the five PNG filter types on one row (ISO/IEC 15948 §9, `Spec/png.md` §6.3).
///
/// Each filter has a loop per bytes-per-pixel value (1, 2, 3, 4, 6, 8), so the distance to
/// the left neighbour is a constant the compiler can keep in registers.
enum PNGFilter {
    /// Unfilters `count` bytes from `source` into `destination`.
    ///
    /// - Parameters:
    ///   - previous: the already unfiltered row above, or nil for the first row of a pass
    ///     (which filters treat as all zeros).
    ///   - bytesPerPixel: bytes per complete pixel, rounded up to 1 for sub-byte depths.
    /// - Returns: false when `filter` is not 0–4.
    @inline(__always)
    static func unfilter(
        filter: UInt8, source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>,
        previous: UnsafePointer<UInt8>?, count: Int, bytesPerPixel: Int
    ) -> Bool {
        switch filter {
        case 0:
            UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count)
        case 1:
            subAny(source, destination, count, bytesPerPixel)
        case 2:
            if let previous {
                up(source, destination, previous, count)
            } else {
                UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count)
            }
        case 3:
            if let previous {
                switch bytesPerPixel {
                case 3: averagePixels4(source, destination, previous, count, pixelBytes: 3)
                case 4: averagePixels4(source, destination, previous, count, pixelBytes: 4)
                default: dispatch(bytesPerPixel) { average(source, destination, previous, count, $0) }
                }
            } else {
                dispatch(bytesPerPixel) { averageFirstRow(source, destination, count, $0) }
            }
        case 4:
            // With no row above, b = c = 0 and the Paeth predictor is always a: that is Sub.
            if let previous {
                switch bytesPerPixel {
                case 3: paethPixels4(source, destination, previous, count, pixelBytes: 3)
                case 4: paethPixels4(source, destination, previous, count, pixelBytes: 4)
                case 6: paethPixels8(source, destination, previous, count, pixelBytes: 6)
                case 8: paethPixels8(source, destination, previous, count, pixelBytes: 8)
                default: dispatch(bytesPerPixel) { paeth(source, destination, previous, count, $0) }
                }
            } else {
                subAny(source, destination, count, bytesPerPixel)
            }
        default:
            return false
        }
        return true
    }

    /// Calls `body` with the bytes-per-pixel as a literal, so each case inlines a loop
    /// specialized for that distance.
    @inline(__always)
    static func dispatch(_ bytesPerPixel: Int, _ body: (Int) -> Void) {
        switch bytesPerPixel {
        case 1: body(1)
        case 2: body(2)
        case 3: body(3)
        case 4: body(4)
        case 6: body(6)
        default: body(8)
        }
    }

    @inline(__always)
    static func sub(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int
    ) {
        let head = min(bpp, count)
        UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: head)
        var index = head
        while index < count {
            destination[index] = source[index] &+ destination[index - bpp]
            index += 1
        }
    }

    @inline(__always)
    static func up(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int
    ) {
        // Sixteen bytes at a time: one vector add per 16 bytes, and each index is read before
        // it is written, so source and destination may be the same row.
        var index = 0
        let raw = UnsafeRawPointer(source)
        let above = UnsafeRawPointer(previous)
        let out = UnsafeMutableRawPointer(destination)
        while index + 16 <= count {
            let x = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let y = above.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            out.storeBytes(of: x &+ y, toByteOffset: index, as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            destination[index] = source[index] &+ previous[index]
            index += 1
        }
    }

    /// Sub for any pixel size: 3- and 4-byte pixels one vector add each, the others byte by
    /// byte.
    @inline(__always)
    static func subAny(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
        _ bytesPerPixel: Int
    ) {
        switch bytesPerPixel {
        case 3: subPixels4(source, destination, count, pixelBytes: 3)
        case 4: subPixels4(source, destination, count, pixelBytes: 4)
        default: dispatch(bytesPerPixel) { sub(source, destination, count, $0) }
        }
    }

    /// Sub for 3- and 4-byte pixels: each pixel is its input plus the pixel to its left, one
    /// 4-lane add. As in ``paethPixels4``, a 3-byte pixel is stored as 4 bytes after the next
    /// pixel's input is loaded, and the last pixel is finished in scalar code.
    @inline(__always)
    static func subPixels4(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int,
        pixelBytes: Int
    ) {
        let input = UnsafeRawPointer(source)
        let output = UnsafeMutableRawPointer(destination)
        var index = 0
        if count >= 4 {
            var left = SIMD4<UInt8>()
            var x = input.loadUnaligned(as: SIMD4<UInt8>.self)
            while index + 4 + pixelBytes <= count {
                let next = input.loadUnaligned(fromByteOffset: index + pixelBytes, as: SIMD4<UInt8>.self)
                left = x &+ left
                output.storeBytes(of: left, toByteOffset: index, as: SIMD4<UInt8>.self)
                x = next
                index += pixelBytes
            }
            // The last 4-byte store overwrote this pixel's first input byte when the pixel is
            // 3 bytes; its input is in `x`, and its bytes are stored one by one.
            if index + 4 <= count {
                left = x &+ left
                for lane in 0..<pixelBytes { destination[index + lane] = left[lane] }
                index += pixelBytes
            }
        }
        while index < count {
            destination[index] = source[index] &+ (index >= pixelBytes ? destination[index - pixelBytes] : 0)
            index += 1
        }
    }

    /// Average for 3- and 4-byte pixels with a row above: each pixel is its input plus the
    /// halved sum of its left and upper neighbours, in 16-bit lanes so the sum cannot wrap;
    /// stores and the tail as in ``subPixels4``.
    @inline(__always)
    static func averagePixels4(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int, pixelBytes: Int
    ) {
        let input = UnsafeRawPointer(source)
        let above = UnsafeRawPointer(previous)
        let output = UnsafeMutableRawPointer(destination)
        var index = 0
        if count >= 4 {
            var left = SIMD4<Int16>()
            var x = SIMD4<Int16>(truncatingIfNeeded: input.loadUnaligned(as: SIMD4<UInt8>.self))
            while index + 4 + pixelBytes <= count {
                let next = SIMD4<Int16>(
                    truncatingIfNeeded: input.loadUnaligned(
                        fromByteOffset: index + pixelBytes, as: SIMD4<UInt8>.self))
                let b = SIMD4<Int16>(
                    truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
                left = averageStep(x, left, b)
                output.storeBytes(
                    of: SIMD4<UInt8>(truncatingIfNeeded: left), toByteOffset: index, as: SIMD4<UInt8>.self)
                x = next
                index += pixelBytes
            }
            // As in ``subPixels4``: this pixel's input is in `x`.
            if index + 4 <= count {
                let b = SIMD4<Int16>(
                    truncatingIfNeeded: above.loadUnaligned(fromByteOffset: index, as: SIMD4<UInt8>.self))
                left = averageStep(x, left, b)
                for lane in 0..<pixelBytes {
                    destination[index + lane] = UInt8(truncatingIfNeeded: left[lane])
                }
                index += pixelBytes
            }
        }
        averageTail(source, destination, previous, from: index, count, pixelBytes)
    }

    /// One Average step on four independent bytes: x + ⌊(left + b) / 2⌋ modulo 256, as
    /// (left >> 1) + (left & b & 1) + (x + (b >> 1)), where the last term does not involve
    /// `left`; byte adds wrap by themselves (see ``byteSum``), so `left` meets a shift, an add
    /// and an add, where the plain form needed an add, a shift, an add and a mask.
    @inline(always)
    static func averageStep(_ x: SIMD4<Int16>, _ left: SIMD4<Int16>, _ b: SIMD4<Int16>) -> SIMD4<Int16> {
        let fromAbove = byteSum(x, b &>> 1)
        return byteSum(byteSum(left &>> 1, fromAbove), left & b & 1)
    }

    @inline(__always)
    static func averageFirstRow(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int
    ) {
        let head = min(bpp, count)
        UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: head)
        var index = head
        while index < count {
            destination[index] = source[index] &+ (destination[index - bpp] >> 1)
            index += 1
        }
    }

    @inline(__always)
    static func average(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>,
        _ previous: UnsafePointer<UInt8>,
        _ count: Int, _ bpp: Int
    ) {
        let head = min(bpp, count)
        for index in 0..<head { destination[index] = source[index] &+ (previous[index] >> 1) }
        var index = head
        while index < count {
            let sum = UInt16(destination[index - bpp]) &+ UInt16(previous[index])
            destination[index] = source[index] &+ UInt8(truncatingIfNeeded: sum >> 1)
            index += 1
        }
    }

    /// Stores the low half of `value` (lanes of 0…255) as 4 bytes at `first` + `firstOffset`
    /// and the high half at `second` + `secondOffset`. Both leave through one general
    /// register: taking the vector's high half made the compiler redo the Paeth choice on
    /// each half.
    @inline(always)
    static func storeTwoPixels(
        _ value: SIMD8<Int16>, _ first: UnsafeMutableRawPointer, _ firstOffset: Int,
        _ second: UnsafeMutableRawPointer, _ secondOffset: Int
    ) {
        let bytes = UInt64(
            littleEndian: unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: value), to: UInt64.self))
        first.storeBytes(
            of: UInt32(truncatingIfNeeded: bytes).littleEndian, toByteOffset: firstOffset, as: UInt32.self)
        second.storeBytes(
            of: UInt32(truncatingIfNeeded: bytes &>> 32).littleEndian, toByteOffset: secondOffset,
            as: UInt32.self)
    }

    /// Four bytes at `offset`, widened to 16-bit lanes.
    @inline(always)
    static func load(_ base: UnsafeRawPointer, _ offset: Int) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
    }

    /// Four 16-bit lanes of 0…255 stored as bytes at `offset`.
    @inline(always)
    static func store(_ value: SIMD4<Int16>, _ base: UnsafeMutableRawPointer, _ offset: Int) {
        base.storeBytes(
            of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: offset, as: SIMD4<UInt8>.self)
    }

    /// The sum of two vectors of 0…255 lanes modulo 256, one byte add (see ``paethStep``).
    @inline(always)
    static func byteSum(_ x: SIMD4<Int16>, _ y: SIMD4<Int16>) -> SIMD4<Int16> {
        unsafeBitCast(
            unsafeBitCast(x, to: SIMD8<UInt8>.self) &+ unsafeBitCast(y, to: SIMD8<UInt8>.self),
            to: SIMD4<Int16>.self)
    }

    /// The lane-wise maximum and minimum of four lanes, spelled as selects: the standard
    /// library's `pointwiseMax` and `pointwiseMin` on `SIMD4<Int16>` were left as calls in the
    /// package build (in the 6- and 8-byte Paeth loop), which doubled the decode time of
    /// PngSuite's small 16-bit RGB and RGBA images.
    @inline(always)
    static func maximum(_ x: SIMD4<Int16>, _ y: SIMD4<Int16>) -> SIMD4<Int16> {
        x.replacing(with: y, where: y .> x)
    }

    @inline(always)
    static func minimum(_ x: SIMD4<Int16>, _ y: SIMD4<Int16>) -> SIMD4<Int16> {
        x.replacing(with: y, where: y .< x)
    }

    /// The four-lane `byteSum` on eight lanes.
    @inline(always)
    static func byteSum(_ x: SIMD8<Int16>, _ y: SIMD8<Int16>) -> SIMD8<Int16> {
        unsafeBitCast(
            unsafeBitCast(x, to: SIMD16<UInt8>.self) &+ unsafeBitCast(y, to: SIMD16<UInt8>.self),
            to: SIMD8<Int16>.self)
    }
}
