#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Decodes any valid PNG (ISO/IEC 15948): every colour type and bit depth, PLTE, tRNS,
/// Adam7, filters 0–4, and image data split across any number of IDAT chunks.
///
/// A `PNGDecoder` holds only its limits; it is a value and safe to use from any thread.
public struct PNGDecoder: Sendable {
    /// The limits checked before anything is allocated for the image (`Spec/png.md` §10).
    public var limits: PNGLimits

    /// A decoder that enforces `limits` (default ``PNGLimits/default``: 2^28 pixels).
    public init(limits: PNGLimits = .default) {
        self.limits = limits
    }

    /// Decodes a PNG file to its native samples.
    ///
    /// - Parameter bytes: the whole file.
    /// - Returns: the header, palette, transparency, native pixels and chunk list.
    /// - Throws: a ``PNGError`` naming the first problem found (`Spec/png.md` §9).
    /// - Complexity: O(file bytes + pixel bytes). Memory: the pixels, allocated once at their
    ///   exact size, plus a window and a few rows of scratch; the decompressed stream is never
    ///   held whole (`Spec/png.md` §10.2).
    public func decode(_ bytes: [UInt8]) throws(PNGError) -> DecodedPNG {
        try bytes.withUnsafeBytes { buffer in Result { () throws(PNGError) in try decode(buffer) } }.get()
    }

    /// Decodes a PNG file held in memory the caller owns.
    public func decode(_ bytes: UnsafeRawBufferPointer) throws(PNGError) -> DecodedPNG {
        let file = try ChunkReader.read(bytes, limits: limits)
        let pixels = try ImageDataDecoder.decode(file, in: bytes)
        return DecodedPNG(
            header: file.header, palette: file.palette, transparency: file.transparency, pixels: pixels,
            chunks: file.chunks)
    }

    /// The bitmap for a file: the native format when it is one of ``PixelFormat``'s and the
    /// file has no tRNS (so `decodeBitmap(encode(b)) == b` exactly), otherwise the RGBA
    /// conversion (`Spec/png.md` §7.2, §8).
    ///
    /// The result equals `decode(bytes).bitmap()`, but each row is converted as soon as it is
    /// unfiltered, so the native samples of a converted image are never held whole: memory is
    /// the bitmap plus a window and a few rows of scratch (`Spec/png.md` §10.2).
    public func decodeBitmap(_ bytes: [UInt8]) throws(PNGError) -> Bitmap {
        try bytes.withUnsafeBytes { buffer in Result { () throws(PNGError) in try decodeBitmap(buffer) } }
            .get()
    }

    /// The bitmap for a file held in memory the caller owns (see ``decodeBitmap(_:)-([UInt8])``).
    public func decodeBitmap(_ bytes: UnsafeRawBufferPointer) throws(PNGError) -> Bitmap {
        let file = try ChunkReader.read(bytes, limits: limits)
        let header = file.header
        if let format = header.pixelFormat, file.transparency == nil {
            let pixels = try ImageDataDecoder.decode(file, in: bytes)
            return Bitmap(validatedWidth: header.width, height: header.height, format: format, pixels: pixels)
        }
        let converter = RGBAConverter(header: header, palette: file.palette, transparency: file.transparency)
        let pixels = try ImageDataDecoder.decode(file, in: bytes, converter: converter)
        return Bitmap(
            validatedWidth: header.width, height: header.height, format: converter.format, pixels: pixels)
    }

    /// Reads only the chunk structure and IHDR, without decompressing the image data.
    ///
    /// Every chunk CRC and ordering rule is still checked.
    public func readStructure(_ bytes: [UInt8]) throws(PNGError) -> (
        header: PNGHeader, chunks: [PNGChunkInfo]
    ) {
        let file = try bytes.withUnsafeBytes { buffer in
            Result { () throws(PNGError) in try ChunkReader.read(buffer, limits: limits) }
        }.get()
        return (file.header, file.chunks)
    }
}

/// What the chunk pass learns about a file: everything but the pixels.
struct ChunkSummary {
    var header: PNGHeader
    var palette: [PNGPaletteEntry]?
    var transparency: PNGTransparency?
    /// Byte ranges of the IDAT chunks' data, in order.
    var imageData: [Range<Int>]
    var chunks: [PNGChunkInfo]
    /// The exact size of the decompressed (filtered) image data.
    var filteredSize: Int
}

/// The chunk layer: signature, framing, CRCs and ordering (`Spec/png.md` §4, §5).
enum ChunkReader {
    static func read(_ file: UnsafeRawBufferPointer, limits: PNGLimits) throws(PNGError) -> ChunkSummary {
        let count = file.count
        let signature = PNGSignature.bytes
        for index in 0..<min(count, 8) where file[index] != signature[index] { throw .invalidSignature }
        guard count >= 8 else { throw .truncatedData(offset: count) }

        var header: PNGHeader?
        var filteredSize = 0
        var palette: [PNGPaletteEntry]?
        var transparency: PNGTransparency?
        var imageData: [Range<Int>] = []
        var imageDataEnded = false
        var sawEnd = false
        var chunks: [PNGChunkInfo] = []
        var position = 8

        while position < count {
            guard count - position >= 8 else { throw .truncatedData(offset: count) }
            let declaredLength = file.bigEndianUInt32(at: position)
            let type = file.bigEndianUInt32(at: position + 4)
            for shift in [24, 16, 8, 0] {
                let letter = UInt8(truncatingIfNeeded: type >> UInt32(shift)) | 0x20
                guard letter >= 0x61 && letter <= 0x7A else { throw .invalidChunkType(offset: position + 4) }
            }
            let name = ChunkType.name(type)
            guard declaredLength <= UInt32(Int32.max) else {
                throw .invalidChunkLength(chunk: name, length: Int(declaredLength))
            }
            let length = Int(declaredLength)
            guard count - position - 12 >= length else { throw .truncatedData(offset: count) }
            let dataStart = position + 8
            let computed = CRC32.checksum(
                of: UnsafeRawBufferPointer(rebasing: file[(position + 4)..<(dataStart + length)]))
            let declared = file.bigEndianUInt32(at: dataStart + length)
            guard declared == computed else {
                throw .chunkChecksumMismatch(chunk: name, declared: declared, computed: computed)
            }
            let data = UnsafeRawBufferPointer(rebasing: file[dataStart..<(dataStart + length)])
            guard header != nil || type == ChunkType.header else { throw .missingHeader(found: name) }
            if !imageData.isEmpty && type != ChunkType.imageData { imageDataEnded = true }

            switch type {
            case ChunkType.header:
                guard header == nil else { throw .duplicateChunk(name) }
                guard length == 13 else { throw .invalidChunkLength(chunk: name, length: length) }
                let parsed = try PNGHeader(parsing: data)
                filteredSize = try checkLimits(parsed, limits)
                header = parsed

            case ChunkType.palette:
                let colorType = header!.colorType
                guard colorType != .grayscale && colorType != .grayscaleAlpha else {
                    throw .paletteNotAllowed(colorType: Int(colorType.rawValue))
                }
                guard palette == nil else { throw .duplicateChunk(name) }
                guard imageData.isEmpty, transparency == nil else { throw .misplacedChunk(name) }
                let entries = length / 3
                let maximum = colorType == .indexed ? 1 << header!.bitDepth : 256
                guard length % 3 == 0, entries >= 1, entries <= min(256, maximum) else {
                    throw .invalidPalette(length: length)
                }
                palette = (0..<entries).map {
                    PNGPaletteEntry(red: data[3 * $0], green: data[3 * $0 + 1], blue: data[3 * $0 + 2])
                }

            case ChunkType.transparency:
                let colorType = header!.colorType
                guard colorType != .grayscaleAlpha && colorType != .truecolorAlpha else {
                    throw .transparencyNotAllowed(colorType: Int(colorType.rawValue))
                }
                guard transparency == nil else { throw .duplicateChunk(name) }
                guard imageData.isEmpty, colorType != .indexed || palette != nil else {
                    throw .misplacedChunk(name)
                }
                switch colorType {
                case .grayscale:
                    guard length == 2 else { throw .invalidTransparency(length: length) }
                    transparency = .grayKey(UInt16(data[0]) << 8 | UInt16(data[1]))
                case .truecolor:
                    guard length == 6 else { throw .invalidTransparency(length: length) }
                    transparency = .rgbKey(
                        red: UInt16(data[0]) << 8 | UInt16(data[1]),
                        green: UInt16(data[2]) << 8 | UInt16(data[3]),
                        blue: UInt16(data[4]) << 8 | UInt16(data[5]))
                default:
                    guard length <= palette!.count else { throw .invalidTransparency(length: length) }
                    transparency = .paletteAlpha(Array(data))
                }

            case ChunkType.imageData:
                guard !imageDataEnded else { throw .misplacedChunk(name) }
                guard header!.colorType != .indexed || palette != nil else { throw .missingPalette }
                imageData.append(dataStart..<(dataStart + length))

            case ChunkType.end:
                guard length == 0 else { throw .invalidChunkLength(chunk: name, length: length) }
                sawEnd = true

            default:
                // Bit 5 of the first letter clear (upper case) marks a critical chunk.
                if type & 0x2000_0000 == 0 { throw .unknownCriticalChunk(name) }
            }
            chunks.append(PNGChunkInfo(type: name, offset: position, length: length))
            position = dataStart + length + 4
            // Anything after IEND is ignored (Spec/png.md §5.4).
            if sawEnd { break }
        }

        guard let header else { throw .missingHeader(found: "the end of the file") }
        guard !imageData.isEmpty else { throw .missingImageData }
        guard sawEnd else { throw .missingEnd }
        return ChunkSummary(
            header: header, palette: palette, transparency: transparency, imageData: imageData,
            chunks: chunks,
            filteredSize: filteredSize)
    }

    /// Checks the pixel count and the decompressed size against the limits; returns the
    /// decompressed size (`Spec/png.md` §6.2, §10).
    static func checkLimits(_ header: PNGHeader, _ limits: PNGLimits) throws(PNGError) -> Int {
        // Both dimensions are below 2^31, so these products fit in a 64-bit Int.
        let pixels = header.width * header.height
        guard pixels <= limits.maximumPixelCount else {
            throw .limitExceeded(
                limit: "maximumPixelCount", requested: pixels, maximum: limits.maximumPixelCount)
        }
        // Width < 2^31 and at most 64 bits per pixel keep a row's bytes below 2^35; the total
        // can still overflow when the pixel limit is lifted, which counts as over the limit.
        var size = 0
        for pass in Adam7.passes(for: header) where pass.width > 0 && pass.height > 0 {
            let rowBytes = PNGHeader.bytesPerRow(width: pass.width, bitsPerPixel: header.bitsPerPixel)
            let (passSize, overflow) = pass.height.multipliedReportingOverflow(by: rowBytes + 1)
            let (sum, sumOverflow) = size.addingReportingOverflow(passSize)
            size = overflow || sumOverflow ? .max : sum
        }
        guard size <= limits.maximumDecompressedBytes else {
            throw .limitExceeded(
                limit: "maximumDecompressedBytes", requested: size, maximum: limits.maximumDecompressedBytes)
        }
        return size
    }
}
