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
            dispatch(bytesPerPixel) { sub(source, destination, count, $0) }
        case 2:
            if let previous {
                up(source, destination, previous, count)
            } else {
                UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count)
            }
        case 3:
            if let previous {
                dispatch(bytesPerPixel) { average(source, destination, previous, count, $0) }
            } else {
                dispatch(bytesPerPixel) { averageFirstRow(source, destination, count, $0) }
            }
        case 4:
            // With no row above, b = c = 0 and the Paeth predictor is always a: that is Sub.
            if let previous {
                dispatch(bytesPerPixel) { paeth(source, destination, previous, count, $0) }
            } else {
                dispatch(bytesPerPixel) { sub(source, destination, count, $0) }
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
    static func sub(_ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int) {
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
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>,
        _ count: Int
    ) {
        // Eight bytes at a time: byte-wise addition without carries between lanes.
        var index = 0
        let raw = UnsafeRawPointer(source)
        let above = UnsafeRawPointer(previous)
        let out = UnsafeMutableRawPointer(destination)
        while index + 8 <= count {
            let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let y = above.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let sum = ((x & low) &+ (y & low)) ^ ((x ^ y) & ~low)
            out.storeBytes(of: sum, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            destination[index] = source[index] &+ previous[index]
            index += 1
        }
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
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>,
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

    @inline(__always)
    static func paeth(
        _ source: UnsafePointer<UInt8>, _ destination: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>,
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
            let pa = abs(b &- c)
            let pb = abs(a &- c)
            let pc = abs(a &+ b &- c &- c)
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            destination[index] = source[index] &+ UInt8(truncatingIfNeeded: predictor)
            index += 1
        }
    }
}
