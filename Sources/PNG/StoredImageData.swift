#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// A fast path for zlib streams made only of stored blocks, such as the canonical encoding
/// (`Spec/png.md` §2.4, §6.2): the blocks are copied from the IDAT chunks straight into the
/// output, with no joined copy of the stream and no general inflate.
///
/// It only ever succeeds on a well-formed stream that yields exactly the expected size and
/// whose Adler-32 matches. On anything else (a compressed block, a bad header or length, a
/// short or long stream, a checksum mismatch) it returns nil and the caller runs the general
/// inflate, which reports the precise error; so this path changes speed, never results.
enum StoredImageData {
    /// Reads bytes across the IDAT data ranges in order.
    struct Reader {
        let file: UnsafeRawBufferPointer
        let ranges: [Range<Int>]
        var segment = 0
        var offset: Int

        init(file: UnsafeRawBufferPointer, ranges: [Range<Int>]) {
            self.file = file
            self.ranges = ranges
            offset = ranges.first?.lowerBound ?? 0
        }

        /// Copies `count` bytes to `destination`; false when the stream ends first.
        mutating func read(into destination: UnsafeMutableRawPointer, count: Int) -> Bool {
            var written = 0
            while written < count {
                while offset == ranges[segment].upperBound {
                    segment += 1
                    guard segment < ranges.count else { return false }
                    offset = ranges[segment].lowerBound
                }
                let step = min(count - written, ranges[segment].upperBound - offset)
                (destination + written).copyMemory(from: file.baseAddress! + offset, byteCount: step)
                offset += step
                written += step
            }
            return true
        }

        mutating func readBytes(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let complete = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count) }
            return complete ? bytes : nil
        }
    }

    /// The unfiltered pixels of a non-interlaced image, or nil when the fast path does not
    /// apply. Row bytes are copied from the stored blocks straight to their final place and
    /// the filter bytes set aside, so rows with filter 0 (all of them in the canonical
    /// encoding) are touched once; other rows are then unfiltered where they lie. An
    /// invalid filter type also returns nil, so the general path reports it.
    static func decompressRows(
        _ file: UnsafeRawBufferPointer, ranges: [Range<Int>], header: PNGHeader, expected: Int
    )
        -> [UInt8]?
    {
        guard !header.interlaced, var reader = openStream(file, ranges: ranges) else { return nil }
        let rowBytes = header.bytesPerRow
        let height = header.height
        let bytesPerPixel = max(1, header.bitsPerPixel / 8)
        var filters = [UInt8](repeating: 0, count: height)
        var succeeded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            let base = buffer.baseAddress!
            PlatformMemory.adviseHugePages(UnsafeMutableRawPointer(base), count: buffer.count)
            var row = 0
            var column = -1  // -1: the next byte is the row's filter type
            filters.withUnsafeMutableBufferPointer { filterTypes in
                succeeded = walkBlocks(&reader, expected: expected) { reader, length, adler in
                    var remaining = length
                    while remaining > 0 {
                        if column < 0 {
                            guard reader.read(into: filterTypes.baseAddress! + row, count: 1) else {
                                return false
                            }
                            adler.update(
                                UnsafeRawBufferPointer(start: filterTypes.baseAddress! + row, count: 1))
                            column = 0
                            remaining -= 1
                            continue
                        }
                        let step = min(remaining, rowBytes - column)
                        let destination = UnsafeMutableRawPointer(base + row * rowBytes + column)
                        guard reader.read(into: destination, count: step) else { return false }
                        adler.update(UnsafeRawBufferPointer(start: destination, count: step))
                        column += step
                        remaining -= step
                        if column == rowBytes {
                            row += 1
                            column = -1
                        }
                    }
                    return true
                }
            }
            if succeeded {
                // Rows with filter 0 are final already; the rest unfilter in place (source and
                // destination coincide, and every loop reads a byte before writing it).
                var previous: UnsafePointer<UInt8>?
                var row = 0
                while row < height {
                    let line = base + row * rowBytes
                    // Two Paeth rows of 3- or 4-byte pixels unfilter together
                    // (`PNGFilter.paethTwoRows`).
                    if let above = previous, filters[row] == 4, row + 1 < height, filters[row + 1] == 4,
                        bytesPerPixel == 3 || bytesPerPixel == 4, rowBytes >= 2 * bytesPerPixel + 4
                    {
                        PNGFilter.paethTwoRows(
                            upper: (UnsafePointer(line), line),
                            lower: (UnsafePointer(line + rowBytes), line + rowBytes),
                            above: above, count: rowBytes, pixelBytes: bytesPerPixel)
                        previous = UnsafePointer(line + rowBytes)
                        row += 2
                        continue
                    }
                    if filters[row] != 0 {
                        guard
                            PNGFilter.unfilter(
                                filter: filters[row], source: UnsafePointer(line), destination: line,
                                previous: previous,
                                count: rowBytes, bytesPerPixel: bytesPerPixel)
                        else {
                            succeeded = false
                            break
                        }
                    }
                    previous = UnsafePointer(line)
                    row += 1
                }
            }
            initialized = succeeded ? rowBytes * height : 0
        }
        return succeeded ? pixels : nil
    }

    /// Checks the zlib header and that the first block is stored; returns the reader
    /// positioned at the first block, or nil.
    static func openStream(_ file: UnsafeRawBufferPointer, ranges: [Range<Int>]) -> Reader? {
        var reader = Reader(file: file, ranges: ranges)
        guard let header = reader.readBytes(2) else { return nil }
        let cmf = Int(header[0])
        let flg = Int(header[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, flg & 0x20 == 0, (cmf * 256 + flg) % 31 == 0 else { return nil }
        // Peek at the first block: anything but a stored block goes to the general inflate
        // before an image-sized buffer is allocated.
        var probe = reader
        guard let first = probe.readBytes(1), first[0] & 0x06 == 0 else { return nil }
        return reader
    }

    /// Walks stored blocks, handing each block's length to `consume` (which reads the bytes
    /// and updates the Adler-32); true when the stream is well formed, yields exactly
    /// `expected` bytes and its Adler-32 matches.
    static func walkBlocks(
        _ reader: inout Reader, expected: Int, consume: (inout Reader, Int, inout Adler32) -> Bool
    ) -> Bool {
        var adler = Adler32()
        var produced = 0
        while true {
            guard let blockHeader = reader.readBytes(5), blockHeader[0] & 0x06 == 0 else { return false }
            let length = Int(blockHeader[1]) | Int(blockHeader[2]) << 8
            let complement = Int(blockHeader[3]) | Int(blockHeader[4]) << 8
            guard length ^ complement == 0xFFFF, length <= expected - produced else { return false }
            guard consume(&reader, length, &adler) else { return false }
            produced += length
            guard blockHeader[0] & 1 == 1 else { continue }
            guard produced == expected, let trailer = reader.readBytes(4) else { return false }
            let declared =
                UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8
                | UInt32(trailer[3])
            return declared == adler.value
        }
    }
}
