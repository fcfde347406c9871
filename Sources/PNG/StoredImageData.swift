#if !IMAGECACHE_SINGLE_MODULE
    import Platform
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
        // Each row's filter type, read before its bytes; raw memory, since rows are unfiltered
        // while the blocks are walked.
        let filters = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, height))
        filters.initialize(repeating: 0, count: max(1, height))
        defer { filters.deallocate() }
        var succeeded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
            let base = buffer.baseAddress!
            SystemMemory.adviseHugePages(UnsafeMutableRawPointer(base), count: buffer.count)
            var row = 0
            var column = -1  // -1: the next byte is the row's filter type
            // Rows are unfiltered in place (source and destination coincide, and every loop
            // reads a byte before writing it) as soon as they are copied, while they are still
            // in cache; rows with filter 0 are final already. `unfiltered` rows are done.
            var unfiltered = 0
            var previous: UnsafePointer<UInt8>?
            let pairs = bytesPerPixel == 3 || bytesPerPixel == 4
            func unfilterRows(upTo copied: Int) -> Bool {
                while unfiltered < copied {
                    let line = base + unfiltered * rowBytes
                    let filter = filters[unfiltered]
                    // Four Paeth rows of 3- or 4-byte pixels unfilter together
                    // (`PNGFilter.paethFourRows`), so a Paeth row waits for three more while
                    // the rows after it are Paeth too.
                    if let above = previous, filter == 4, pairs, rowBytes >= 8 * bytesPerPixel + 4,
                        unfiltered + 3 < height
                    {
                        var run = 1
                        while run < 4 && unfiltered + run < copied && filters[unfiltered + run] == 4 {
                            run += 1
                        }
                        if run == 4 {
                            PNGFilter.paethFourRows(
                                source: UnsafePointer(line), sourceStride: rowBytes, destination: line,
                                destinationStride: rowBytes, above: above, count: rowBytes,
                                pixelBytes: bytesPerPixel)
                            previous = UnsafePointer(line + 3 * rowBytes)
                            unfiltered += 4
                            continue
                        }
                        if unfiltered + run == copied { return true }
                    }
                    // Otherwise two Average or two Paeth rows unfilter together
                    // (`PNGFilter.unfilterTwoRows`), so such a row waits for the next one.
                    if let above = previous, PNGFilter.pairs(filter), pairs,
                        rowBytes >= 2 * bytesPerPixel + 4, unfiltered + 1 < height
                    {
                        if unfiltered + 1 == copied { return true }
                        if filters[unfiltered + 1] == filter {
                            PNGFilter.unfilterTwoRows(
                                filter: filter, upper: (UnsafePointer(line), line),
                                lower: (UnsafePointer(line + rowBytes), line + rowBytes),
                                above: above, count: rowBytes, pixelBytes: bytesPerPixel)
                            previous = UnsafePointer(line + rowBytes)
                            unfiltered += 2
                            continue
                        }
                    }
                    if filter != 0 {
                        guard
                            PNGFilter.unfilter(
                                filter: filter, source: UnsafePointer(line), destination: line,
                                previous: previous, count: rowBytes, bytesPerPixel: bytesPerPixel)
                        else { return false }
                    }
                    previous = UnsafePointer(line)
                    unfiltered += 1
                }
                return true
            }
            succeeded = walkBlocks(&reader, expected: expected) { reader, length, adler in
                var remaining = length
                while remaining > 0 {
                    if column < 0 {
                        guard reader.read(into: filters + row, count: 1) else { return false }
                        adler.update(UnsafeRawBufferPointer(start: filters + row, count: 1))
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
                        guard unfilterRows(upTo: row) else { return false }
                    }
                }
                return true
            }
            // A last Average or Paeth row may still wait for a partner that never came.
            if succeeded { succeeded = unfilterRows(upTo: height) }
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
