/// Turns the decompressed image data, arriving in pieces of any size, into finished rows of
/// the output as soon as each filtered row is complete (`Spec/png.md` §6.2–§6.4, §8).
///
/// Nothing image-sized is allocated here: the output buffer belongs to the caller, and the
/// filtered stream is never held whole. A row that lies whole in one piece is unfiltered
/// straight from it; a row split across pieces is gathered at its destination and unfiltered
/// there (every filter reads a byte before it writes it). Where rows cannot be unfiltered at
/// their final place (Adam7 passes, or the RGBA conversion), they go through two rows of
/// scratch: the row being unfiltered and the one above it.
///
/// An invalid filter type is remembered, with its row, and the rest of the data is ignored;
/// the caller reports it only once the stream has decompressed without error, so the error
/// precedence of `Spec/png.md` §6.2–§6.3 holds whatever the piece sizes.
final class RowAssembler {
    /// The first invalid filter type, and the filtered row (counted over all passes) it begins.
    private(set) var failure: (row: Int, filter: UInt8)?

    private let passes: [Adam7.Pass]
    private let interlaced: Bool
    private let bitsPerPixel: Int
    private let bytesPerPixel: Int
    private let converter: RGBAConverter?
    private let output: UnsafeMutablePointer<UInt8>
    private let outputRowBytes: Int
    /// Bits per pixel of the output: the native bits, or 32 or 64 for RGBA.
    private let outputBitsPerPixel: Int
    /// Rows unfiltered straight into `output` (non-interlaced, native samples).
    private let inPlace: Bool
    /// Two rows of the widest pass, alternating, when rows cannot be unfiltered in place.
    private let scratch: UnsafeMutablePointer<UInt8>?
    private let scratchRowBytes: Int
    /// One converted pass row, for interlaced images converted to RGBA.
    private let convertedRow: UnsafeMutablePointer<UInt8>?

    private var passIndex = 0
    private var row = 0
    /// Bytes of the current row received so far; -1 while its filter-type byte is awaited.
    private var column = -1
    private var filter: UInt8 = 0
    private var rowBytes: Int
    private var filteredRow = 0

    /// Prepares to fill `output`, which must hold `header.height` rows of the output format:
    /// native rows (`header.bytesPerRow` bytes) when `converter` is nil, else its RGBA rows.
    /// For interlaced images whose output pixels are smaller than a byte, `output` must be
    /// zeroed (pixels are merged into their bytes).
    init(header: PNGHeader, converter: RGBAConverter?, output: UnsafeMutablePointer<UInt8>) {
        let passes = Adam7.passes(for: header).filter { $0.width > 0 && $0.height > 0 }
        let bitsPerPixel = header.bitsPerPixel
        self.passes = passes
        interlaced = header.interlaced
        self.bitsPerPixel = bitsPerPixel
        bytesPerPixel = max(1, bitsPerPixel / 8)
        self.converter = converter
        self.output = output
        outputBitsPerPixel = converter.map { $0.format.bytesPerPixel * 8 } ?? bitsPerPixel
        outputRowBytes = converter?.outputRowBytes ?? header.bytesPerRow
        inPlace = !interlaced && converter == nil
        let widest = passes.map { PNGHeader.bytesPerRow(width: $0.width, bitsPerPixel: bitsPerPixel) }
        rowBytes = widest.first ?? 0
        scratchRowBytes = widest.max() ?? 0
        scratch = inPlace ? nil : .allocate(capacity: 2 * max(1, scratchRowBytes))
        if interlaced, let converter {
            let widestPass = passes.map(\.width).max() ?? 0
            convertedRow = .allocate(capacity: max(1, widestPass * converter.format.bytesPerPixel))
        } else {
            convertedRow = nil
        }
    }

    deinit {
        scratch?.deallocate()
        convertedRow?.deallocate()
    }

    /// Takes the next piece of the decompressed image data.
    func consume(_ piece: UnsafeRawBufferPointer) {
        guard failure == nil, var source = piece.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return
        }
        var remaining = piece.count
        while remaining > 0 && passIndex < passes.count {
            if column < 0 {
                filter = source[0]
                source += 1
                remaining -= 1
                column = 0
                continue
            }
            let destination = currentRow
            let needed = rowBytes - column
            if column == 0 && remaining >= needed {
                // Several whole rows unfiltered together straight into the output, while all are
                // in cache: rows of 3- or 4-byte pixels with a row above.
                let severalRows = inPlace && row > 0 && (bytesPerPixel == 3 || bytesPerPixel == 4)
                // Four Paeth rows, in byte lanes (`PNGFilter.paethFourRows`).
                if severalRows && filter == 4 && rowBytes >= 8 * bytesPerPixel + 4
                    && followingRows(filter: 4, upTo: 3, source, remaining) == 3
                {
                    PNGFilter.paethFourRows(
                        source: UnsafePointer(source), sourceStride: needed + 1, destination: destination,
                        destinationStride: outputRowBytes, above: previousRow!, count: rowBytes,
                        pixelBytes: bytesPerPixel)
                    for _ in 0..<4 { advanceRow() }
                    source += 4 * needed + 3
                    remaining -= 4 * needed + 3
                    continue
                }
                // Two Average or two Paeth rows (`PNGFilter.unfilterTwoRows`).
                if severalRows && PNGFilter.pairs(filter) && rowBytes >= 2 * bytesPerPixel + 4
                    && followingRows(filter: filter, upTo: 1, source, remaining) == 1
                {
                    PNGFilter.unfilterTwoRows(
                        filter: filter, upper: (UnsafePointer(source), destination),
                        lower: (UnsafePointer(source + needed + 1), destination + outputRowBytes),
                        above: previousRow!, count: rowBytes, pixelBytes: bytesPerPixel)
                    advanceRow()
                    advanceRow()
                    source += 2 * needed + 1
                    remaining -= 2 * needed + 1
                    continue
                }
                // A Paeth row and the Up rows below it, the Up rows' work in the Paeth chain's
                // idle slots (`PNGFilter.paethThenUpRows`).
                let upRows =
                    severalRows && filter == 4 && rowBytes >= bytesPerPixel + 4
                    ? followingRows(filter: 2, upTo: 16, source, remaining) : 0
                if upRows > 0 {
                    PNGFilter.paethThenUpRows(
                        paeth: (UnsafePointer(source), destination), above: previousRow!,
                        up: (UnsafePointer(source + needed + 1), destination + outputRowBytes),
                        upRows: upRows, sourceStride: needed + 1, destinationStride: outputRowBytes,
                        count: rowBytes, pixelBytes: bytesPerPixel)
                    for _ in 0...upRows { advanceRow() }
                    source += (upRows + 1) * (needed + 1) - 1
                    remaining -= (upRows + 1) * (needed + 1) - 1
                    continue
                }
                finishRow(from: UnsafePointer(source), into: destination)
                source += needed
                remaining -= needed
            } else {
                let step = min(remaining, needed)
                (destination + column).update(from: source, count: step)
                source += step
                remaining -= step
                column += step
                if column == rowBytes { finishRow(from: UnsafePointer(destination), into: destination) }
            }
            if failure != nil { return }
        }
    }

    /// How many rows with `filter` follow the current row, up to `limit`: whole in the piece
    /// at `source` (which starts with the current row's bytes, `remaining` long) and in the
    /// current pass.
    private func followingRows(
        filter: UInt8, upTo limit: Int, _ source: UnsafePointer<UInt8>, _ remaining: Int
    ) -> Int {
        let stride = rowBytes + 1
        var rows = 0
        while rows < limit, row + rows + 1 < passes[passIndex].height,
            (rows + 1) * stride + rowBytes <= remaining, source[(rows + 1) * stride - 1] == filter
        {
            rows += 1
        }
        return rows
    }

    /// Where the current row is unfiltered.
    private var currentRow: UnsafeMutablePointer<UInt8> {
        inPlace ? output + row * outputRowBytes : scratch! + (row & 1) * scratchRowBytes
    }

    /// The unfiltered row above the current one in its pass, or nil for a pass's first row.
    private var previousRow: UnsafePointer<UInt8>? {
        guard row > 0 else { return nil }
        return UnsafePointer(
            inPlace ? output + (row - 1) * outputRowBytes : scratch! + ((row - 1) & 1) * scratchRowBytes)
    }

    private func finishRow(from source: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>) {
        // Filter 0 gathered at its destination is final already.
        if filter != 0 || source != UnsafePointer(destination) {
            guard
                PNGFilter.unfilter(
                    filter: filter, source: source, destination: destination, previous: previousRow,
                    count: rowBytes, bytesPerPixel: bytesPerPixel)
            else {
                failure = (filteredRow, filter)
                return
            }
        }
        place(UnsafePointer(destination))
        advanceRow()
    }

    /// Moves on to the next row, and to the next pass after a pass's last row.
    private func advanceRow() {
        column = -1
        filteredRow += 1
        row += 1
        if row == passes[passIndex].height {
            passIndex += 1
            row = 0
            if passIndex < passes.count {
                rowBytes = PNGHeader.bytesPerRow(width: passes[passIndex].width, bitsPerPixel: bitsPerPixel)
            }
        }
    }

    /// Moves an unfiltered row to its final place: converted, scattered, or both.
    private func place(_ unfiltered: UnsafePointer<UInt8>) {
        if inPlace { return }
        let pass = passes[passIndex]
        guard interlaced else {
            converter!.convertRow(unfiltered, output + row * outputRowBytes, width: pass.width)
            return
        }
        if let converter, let convertedRow {
            converter.convertRow(unfiltered, convertedRow, width: pass.width)
            scatter(UnsafePointer(convertedRow), pass: pass)
        } else {
            scatter(unfiltered, pass: pass)
        }
    }

    /// Places one pass row's pixels at their positions in the full image (`Spec/png.md` §6.4).
    private func scatter(_ source: UnsafePointer<UInt8>, pass: Adam7.Pass) {
        let target = output + (pass.yStart + row * pass.yStep) * outputRowBytes
        let bits = outputBitsPerPixel
        if bits >= 8 {
            let pixelBytes = bits / 8
            let from = UnsafeRawPointer(source)
            let to = UnsafeMutableRawPointer(target + pass.xStart * pixelBytes)
            let stride = pass.xStep * pixelBytes
            switch pixelBytes {
            case 1: Self.scatterPixels(from, to, pass.width, stride, UInt8.self)
            case 2: Self.scatterPixels(from, to, pass.width, stride, UInt16.self)
            case 4: Self.scatterPixels(from, to, pass.width, stride, UInt32.self)
            case 8: Self.scatterPixels(from, to, pass.width, stride, UInt64.self)
            default:
                for column in 0..<pass.width {
                    (to + column * stride).copyMemory(from: from + column * pixelBytes, byteCount: pixelBytes)
                }
            }
        } else {
            // Sub-byte pixels: move each one's bits into the zeroed output.
            let mask = UInt8(truncatingIfNeeded: (1 << bits) - 1)
            for column in 0..<pass.width {
                let bit = column * bits
                let value = (source[bit >> 3] >> UInt8(8 - bits - (bit & 7))) & mask
                let position = (pass.xStart + column * pass.xStep) * bits
                target[position >> 3] |= value << UInt8(8 - bits - (position & 7))
            }
        }
    }

    /// Copies `count` pixels of one machine word each, packed at `source`, to every
    /// `stride` bytes from `target`.
    @inline(__always)
    private static func scatterPixels<Pixel: FixedWidthInteger>(
        _ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, _ count: Int, _ stride: Int,
        _: Pixel.Type
    ) {
        let size = MemoryLayout<Pixel>.size
        for column in 0..<count {
            let pixel = source.loadUnaligned(fromByteOffset: column * size, as: Pixel.self)
            target.storeBytes(of: pixel, toByteOffset: column * stride, as: Pixel.self)
        }
    }
}
