/// A Paeth row and the Up rows below it, unfiltered in one pass (`Spec/png.md` §6.3).
extension PNGFilter {
    /// Unfilters a Paeth row of 3- or 4-byte pixels and the `upRows` Up rows that follow it.
    ///
    /// A lone Paeth row is bound by the chain from each pixel to the next (its left neighbour):
    /// about 8 cycles a pixel in which the processor has little else to do. Up rows are the
    /// opposite, a vector add per 16 bytes bound by memory traffic. So each 16-byte column of
    /// the Up rows is unfiltered, row after row down the column, as soon as the Paeth bytes
    /// above it are final, and that work runs in the chain's idle slots: the generated gradient
    /// of `imagecache bench png` (one Paeth row, then seven Up rows) decoded in 3.16–3.23 ms
    /// rather than 3.41–3.62 (medians, three alternated pairs). The columns the Paeth loop did
    /// not reach are finished after it, row by row.
    ///
    /// - Parameters:
    ///   - paeth: the Paeth row's filtered bytes, and where it goes.
    ///   - above: the unfiltered row above the Paeth row.
    ///   - up: the first Up row's filtered bytes and where it goes; each further Up row's are
    ///     `sourceStride` and `destinationStride` bytes after the one before.
    ///   - count: bytes in each row, at least `pixelBytes + 4`.
    @inline(__always)
    static func paethThenUpRows(
        paeth: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        above: UnsafePointer<UInt8>,
        up: (source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>),
        upRows: Int, sourceStride: Int, destinationStride: Int, count: Int, pixelBytes: Int
    ) {
        var columnsDone = 0
        paethPixels4(paeth.source, paeth.destination, above, count, pixelBytes: pixelBytes) { final in
            // 48 bytes behind the chain: a 16-byte load of bytes the last few 4-byte stores
            // wrote waits for them to leave the store buffer, and that stall held up the chain
            // (a third of the loop's time at a lag of 0).
            guard final - columnsDone >= 16 + 48 else { return }
            var prior = UnsafeRawPointer(paeth.destination + columnsDone).loadUnaligned(
                as: SIMD16<UInt8>.self)
            var source = UnsafeRawPointer(up.source + columnsDone)
            var destination = UnsafeMutableRawPointer(up.destination + columnsDone)
            for _ in 0..<upRows {
                prior &+= source.loadUnaligned(as: SIMD16<UInt8>.self)
                destination.storeBytes(of: prior, as: SIMD16<UInt8>.self)
                source += sourceStride
                destination += destinationStride
            }
            columnsDone += 16
        }
        guard columnsDone < count else { return }
        var previous = UnsafePointer(paeth.destination + columnsDone)
        for row in 0..<upRows {
            let destination = up.destination + row * destinationStride + columnsDone
            PNGFilter.up(
                up.source + row * sourceStride + columnsDone, destination, previous, count - columnsDone)
            previous = UnsafePointer(destination)
        }
    }
}
