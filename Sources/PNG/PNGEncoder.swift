#if !IMAGECACHE_SINGLE_MODULE
    import Platform
    import Checksums
#endif

/// The canonical PNG encoder: stored deflate blocks, filter type 0, byte-for-byte as
/// `Spec/png.md` §2 prescribes, so any implementation produces the same bytes.
public enum PNGEncoder {
    /// Largest payload of one stored deflate block (`Spec/png.md` §2.4).
    public static let storedBlockLength = 65_535
    /// Largest payload of one IDAT chunk (`Spec/png.md` §2.5).
    public static let imageDataChunkLength = 1_048_576

    /// Encodes a bitmap as a canonical PNG (`Spec/png.md` §2).
    ///
    /// The output is allocated once at its exact size; rows are copied in bulk, the Adler-32
    /// is computed over each row as it is copied and each chunk's CRC-32 over the chunk just
    /// written, while it is still in cache.
    ///
    /// - Returns: signature, IHDR, one or more IDAT chunks, IEND.
    /// - Throws: ``PNGError/invalidDimensions(width:height:)``,
    ///   ``PNGError/invalidPixelBufferLength(expected:actual:)``, or
    ///   ``PNGError/imageTooLarge(width:height:)`` when the output size overflows `Int`.
    /// - Complexity: O(pixel bytes).
    public static func encode(_ bitmap: Bitmap) throws(PNGError) -> [UInt8] {
        let layout = try Layout(bitmap)
        return bitmap.pixels.withUnsafeBytes { pixels in
            [UInt8](unsafeUninitializedCapacity: layout.fileSize) { buffer, initialized in
                SystemMemory.adviseHugePages(
                    UnsafeMutableRawPointer(buffer.baseAddress!), count: layout.fileSize)
                var writer = Writer(base: UnsafeMutableRawPointer(buffer.baseAddress!), layout: layout)
                writer.writeFile(bitmap, pixels: pixels)
                precondition(writer.position == layout.fileSize, "canonical layout arithmetic is wrong")
                initialized = layout.fileSize
            }
        }
    }

    /// The sizes of every part of the canonical file, computed with overflow checks.
    struct Layout {
        var rowBytes: Int
        var filteredSize: Int
        var zlibSize: Int
        var fileSize: Int

        init(_ bitmap: Bitmap) throws(PNGError) {
            let pixelBytes = try Bitmap.byteCount(
                width: bitmap.width, height: bitmap.height, format: bitmap.format)
            guard bitmap.pixels.count == pixelBytes else {
                throw .invalidPixelBufferLength(expected: pixelBytes, actual: bitmap.pixels.count)
            }
            rowBytes = bitmap.width * bitmap.format.bytesPerPixel
            let tooLarge = PNGError.imageTooLarge(width: bitmap.width, height: bitmap.height)
            // filtered = height * (rowBytes + 1); zlib = 2 + 5 * blocks + filtered + 4;
            // file = 8 + 25 + 12 * chunks + zlib + 12.
            let (filtered, o1) = (rowBytes + 1).multipliedReportingOverflow(by: bitmap.height)
            guard !o1 else { throw tooLarge }
            filteredSize = filtered
            // 5 × blocks and 12 × chunks cannot overflow: blocks ≤ Int.max / 65,535.
            let blocks = (filtered - 1) / PNGEncoder.storedBlockLength + 1
            let (zlib, o2) = filtered.addingReportingOverflow(2 + 5 * blocks + 4)
            guard !o2 else { throw tooLarge }
            zlibSize = zlib
            let chunks = (zlib - 1) / PNGEncoder.imageDataChunkLength + 1
            let (file, o3) = zlib.addingReportingOverflow(8 + 25 + 12 * chunks + 12)
            guard !o3 else { throw tooLarge }
            fileSize = file
        }
    }

    /// Writes the canonical file into memory of exactly the layout's size.
    struct Writer {
        let base: UnsafeMutableRawPointer
        let layout: Layout
        var position = 0
        // IDAT state: zlib bytes not yet placed in a chunk, bytes left in the open chunk.
        var zlibUnassigned: Int
        var chunkRemaining = 0
        /// Where the open IDAT's type field starts: its CRC is computed when it closes, over
        /// up to 1 MiB still in cache (one large update runs faster than many row-sized ones).
        var chunkStart = 0
        // Stored-block state.
        var filteredRemaining: Int
        var blockRemaining = 0
        var adler = Adler32()

        init(base: UnsafeMutableRawPointer, layout: Layout) {
            self.base = base
            self.layout = layout
            zlibUnassigned = layout.zlibSize
            filteredRemaining = layout.filteredSize
        }

        mutating func writeFile(_ bitmap: Bitmap, pixels: UnsafeRawBufferPointer) {
            writeBytes(PNGSignature.bytes)
            // IHDR (Spec/png.md §2.2).
            var header: [UInt8] = []
            header.reserveCapacity(13)
            header.appendBigEndian(UInt32(bitmap.width))
            header.appendBigEndian(UInt32(bitmap.height))
            header += [UInt8(bitmap.format.bitDepth), bitmap.format.colorType.rawValue, 0, 0, 0]
            writeChunk(type: ChunkType.header, data: header)
            // zlib header 78 01 (Spec/png.md §2.4).
            writeZlib([0x78, 0x01])
            let zero: UInt8 = 0
            var row = pixels.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            withUnsafeBytes(of: zero) { filterByte in
                for _ in 0..<bitmap.height {
                    writeFiltered(filterByte.baseAddress!, count: 1)
                    writeFiltered(row, count: layout.rowBytes)
                    row += layout.rowBytes
                }
            }
            var trailer: [UInt8] = []
            trailer.appendBigEndian(adler.value)
            writeZlib(trailer)
            writeChunk(type: ChunkType.end, data: [])
        }

        mutating func writeBytes(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { source in
                (base + position).copyMemory(from: source.baseAddress!, byteCount: source.count)
            }
            position += bytes.count
        }

        mutating func writeBigEndian(_ value: UInt32) {
            (base + position).storeBytes(of: value.bigEndian, as: UInt32.self)
            position += 4
        }

        mutating func writeChunk(type: UInt32, data: [UInt8]) {
            writeBigEndian(UInt32(data.count))
            let start = position
            writeBigEndian(type)
            writeBytes(data)
            writeBigEndian(
                CRC32.checksum(of: UnsafeRawBufferPointer(start: base + start, count: position - start)))
        }

        /// Appends filtered-data bytes, opening a stored block whenever the last one is full.
        mutating func writeFiltered(_ source: UnsafeRawPointer, count: Int) {
            var source = source
            var count = count
            while count > 0 {
                if blockRemaining == 0 {
                    let length = min(filteredRemaining, PNGEncoder.storedBlockLength)
                    let final: UInt8 = length == filteredRemaining ? 1 : 0
                    let len = UInt16(length)
                    writeZlib([
                        final, UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8),
                    ])
                    blockRemaining = length
                }
                let step = min(count, blockRemaining)
                adler.update(UnsafeRawBufferPointer(start: source, count: step))
                writeZlib(source, count: step)
                source += step
                count -= step
                blockRemaining -= step
                filteredRemaining -= step
            }
        }

        mutating func writeZlib(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { writeZlib($0.baseAddress!, count: $0.count) }
        }

        /// Appends zlib-stream bytes, cutting IDAT chunks of 1 MiB (the last one shorter).
        mutating func writeZlib(_ source: UnsafeRawPointer, count: Int) {
            var source = source
            var count = count
            while count > 0 {
                if chunkRemaining == 0 {
                    let length = min(zlibUnassigned, PNGEncoder.imageDataChunkLength)
                    writeBigEndian(UInt32(length))
                    chunkStart = position
                    writeBigEndian(ChunkType.imageData)
                    chunkRemaining = length
                    zlibUnassigned -= length
                }
                let step = min(count, chunkRemaining)
                (base + position).copyMemory(from: source, byteCount: step)
                position += step
                source += step
                count -= step
                chunkRemaining -= step
                if chunkRemaining == 0 {
                    writeBigEndian(
                        CRC32.checksum(
                            of: UnsafeRawBufferPointer(start: base + chunkStart, count: position - chunkStart)
                        ))
                }
            }
        }
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
