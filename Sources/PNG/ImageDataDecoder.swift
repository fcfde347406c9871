#if !IMAGECACHE_SINGLE_MODULE
    import Inflate
#endif

/// The image-data layer: IDAT concatenation, inflate, unfiltering and Adam7
/// (`Spec/png.md` §6).
enum ImageDataDecoder {
    /// Returns the native pixels of a file whose chunks `file` describes.
    static func decode(_ file: ChunkSummary, in bytes: UnsafeRawBufferPointer) throws(PNGError) -> [UInt8] {
        let expected = file.filteredSize
        let header = file.header
        // Streams of stored blocks (the canonical encoding) skip inflate; they fall through to
        // it when anything is unusual, and inflate then reports the precise error.
        if !header.interlaced,
            let pixels = StoredImageData.decompressRows(
                bytes, ranges: file.imageData, header: header, expected: expected)
        {
            return pixels
        }
        var filtered: [UInt8]
        if header.interlaced,
            let stored = StoredImageData.decompress(bytes, ranges: file.imageData, expected: expected)
        {
            filtered = stored
        } else if file.imageData.count == 1 {
            // One IDAT: inflate straight from the file's bytes.
            filtered = try inflate(
                UnsafeRawBufferPointer(rebasing: bytes[file.imageData[0]]), expected: expected)
        } else {
            // Several IDATs: the zlib stream must be made contiguous first.
            let joined = JoinedImageData(capacity: file.imageData.reduce(0) { $0 + $1.count })
            for range in file.imageData { joined.append(UnsafeRawBufferPointer(rebasing: bytes[range])) }
            filtered = try inflate(joined.bytes, expected: expected)
        }
        guard filtered.count == expected else {
            throw .imageDataTooShort(expected: expected, actual: filtered.count)
        }
        if header.interlaced {
            return try filtered.withUnsafeBufferPointer { source in
                Result { () throws(PNGError) in try unfilterInterlaced(source.baseAddress!, header: header) }
            }.get()
        }
        try unfilterInPlace(&filtered, header: header)
        return filtered
    }

    /// Inflates into a buffer of exactly `expected` bytes; producing more is an error.
    static func inflate(_ stream: UnsafeRawBufferPointer, expected: Int) throws(PNGError) -> [UInt8] {
        do {
            return try Decompressor.zlibDecompress(stream, expectedSize: expected, limit: expected)
        } catch .outputLimitExceeded {
            throw .imageDataTooLong(expected: expected)
        } catch {
            throw .compression(error)
        }
    }

    /// Unfilters a non-interlaced image in the inflate buffer itself: row r moves r + 1 bytes
    /// towards the start (dropping the filter bytes) as it is unfiltered, reading its filtered
    /// bytes and the finished row above. Every loop runs forward and reads a byte before any
    /// write can reach it, so the overlap is safe; no second image-sized buffer is allocated.
    static func unfilterInPlace(_ data: inout [UInt8], header: PNGHeader) throws(PNGError) {
        let rowBytes = header.bytesPerRow
        let bytesPerPixel = max(1, header.bitsPerPixel / 8)
        var failure: (row: Int, filter: UInt8)?
        data.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var previous: UnsafePointer<UInt8>?
            for row in 0..<header.height {
                let input = base + row * (rowBytes + 1)
                let destination = base + row * rowBytes
                let filter = input[0]
                guard
                    PNGFilter.unfilter(
                        filter: filter, source: UnsafePointer(input + 1), destination: destination,
                        previous: previous,
                        count: rowBytes, bytesPerPixel: bytesPerPixel)
                else {
                    failure = (row, filter)
                    return
                }
                previous = UnsafePointer(destination)
            }
        }
        if let failure { throw .invalidFilterType(row: failure.row, filter: Int(failure.filter)) }
        data.removeLast(header.height)
    }

    /// Unfilters each Adam7 pass into a scratch buffer and scatters its pixels into place.
    static func unfilterInterlaced(_ source: UnsafePointer<UInt8>, header: PNGHeader) throws(PNGError)
        -> [UInt8]
    {
        let rowBytes = header.bytesPerRow
        let bitsPerPixel = header.bitsPerPixel
        let bytesPerPixel = max(1, bitsPerPixel / 8)
        let passes = Adam7.passes(for: header).filter { $0.width > 0 && $0.height > 0 }
        var pixels = [UInt8](repeating: 0, count: rowBytes * header.height)
        let scratchSize =
            passes.map { PNGHeader.bytesPerRow(width: $0.width, bitsPerPixel: bitsPerPixel) * $0.height }
            .max() ?? 0
        var scratch = [UInt8](repeating: 0, count: scratchSize)
        var input = source
        var filteredRow = 0
        for pass in passes {
            let passRowBytes = PNGHeader.bytesPerRow(width: pass.width, bitsPerPixel: bitsPerPixel)
            var failure: UInt8?
            scratch.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                var previous: UnsafePointer<UInt8>?
                for row in 0..<pass.height {
                    let destination = base + row * passRowBytes
                    guard
                        PNGFilter.unfilter(
                            filter: input[0], source: input + 1, destination: destination, previous: previous,
                            count: passRowBytes, bytesPerPixel: bytesPerPixel)
                    else {
                        failure = input[0]
                        return
                    }
                    previous = UnsafePointer(destination)
                    input += passRowBytes + 1
                    filteredRow += 1
                }
            }
            if let failure { throw .invalidFilterType(row: filteredRow, filter: Int(failure)) }
            scratch.withUnsafeBufferPointer { passPixels in
                pixels.withUnsafeMutableBufferPointer { output in
                    scatter(
                        pass, from: passPixels.baseAddress!, passRowBytes: passRowBytes,
                        into: output.baseAddress!,
                        rowBytes: rowBytes, bitsPerPixel: bitsPerPixel)
                }
            }
        }
        return pixels
    }

    /// Places a pass's pixels at their positions in the full image.
    static func scatter(
        _ pass: Adam7.Pass, from source: UnsafePointer<UInt8>, passRowBytes: Int,
        into output: UnsafeMutablePointer<UInt8>,
        rowBytes: Int, bitsPerPixel: Int
    ) {
        if bitsPerPixel >= 8 {
            let pixelBytes = bitsPerPixel / 8
            for row in 0..<pass.height {
                var from = source + row * passRowBytes
                var to = output + (pass.yStart + row * pass.yStep) * rowBytes + pass.xStart * pixelBytes
                let stride = pass.xStep * pixelBytes
                for _ in 0..<pass.width {
                    to.update(from: from, count: pixelBytes)
                    from += pixelBytes
                    to += stride
                }
            }
        } else {
            // Sub-byte pixels: move each one's bits; the output starts zeroed.
            let mask = UInt8(truncatingIfNeeded: (1 << bitsPerPixel) - 1)
            for row in 0..<pass.height {
                let from = source + row * passRowBytes
                let to = output + (pass.yStart + row * pass.yStep) * rowBytes
                for column in 0..<pass.width {
                    let bit = column * bitsPerPixel
                    let value = (from[bit >> 3] >> UInt8(8 - bitsPerPixel - (bit & 7))) & mask
                    let target = (pass.xStart + column * pass.xStep) * bitsPerPixel
                    to[target >> 3] |= value << UInt8(8 - bitsPerPixel - (target & 7))
                }
            }
        }
    }
}

/// The zlib stream of a file with several IDAT chunks, joined into one buffer for inflate.
/// Raw memory, allocated once at the exact size and freed on every exit path.
final class JoinedImageData {
    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0

    init(capacity: Int) {
        buffer = .allocate(byteCount: max(1, capacity), alignment: 16)
        PlatformMemory.adviseHugePages(buffer.baseAddress!, count: buffer.count)
    }

    deinit { buffer.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[0..<count]) }

    func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        (buffer.baseAddress! + count).copyMemory(from: base, byteCount: source.count)
        count += source.count
    }
}
