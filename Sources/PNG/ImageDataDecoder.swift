#if !IMAGECACHE_SINGLE_MODULE
    import Platform
    import Inflate
#endif

/// The image-data layer: IDAT concatenation, inflate, unfiltering, Adam7 and the RGBA
/// conversion (`Spec/png.md` §6, §8).
///
/// The decompressed stream is never held whole: inflate hands it over through a 256 KiB
/// window to a ``RowAssembler``, which unfilters each row as it completes and puts it in the
/// output, allocated once at its final size. Memory is the output, the compressed stream (the
/// file's own bytes, or one joined copy when there are several IDAT chunks) and a few rows of
/// scratch (`Spec/png.md` §10.2).
enum ImageDataDecoder {
    /// Returns the pixels of a file whose chunks `file` describes: its native samples when
    /// `converter` is nil, else their RGBA conversion.
    static func decode(
        _ file: ChunkSummary, in bytes: UnsafeRawBufferPointer, converter: RGBAConverter? = nil
    ) throws(PNGError) -> [UInt8] {
        let expected = file.filteredSize
        let header = file.header
        // Streams of stored blocks (the canonical encoding) skip inflate; they fall through to
        // it when anything is unusual, and inflate then reports the precise error.
        if !header.interlaced, converter == nil,
            let pixels = StoredImageData.decompressRows(
                bytes, ranges: file.imageData, header: header, expected: expected)
        {
            return pixels
        }
        let outputRowBytes = converter?.outputRowBytes ?? header.bytesPerRow
        let size = outputRowBytes * header.height
        let zeroed = header.interlaced && converter == nil && header.bitsPerPixel < 8
        var failure: PNGError?
        let pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let base = buffer.baseAddress!
            SystemMemory.adviseHugePages(UnsafeMutableRawPointer(base), count: size)
            if zeroed { base.initialize(repeating: 0, count: size) }
            let assembler = RowAssembler(header: header, converter: converter, output: base)
            do throws(PNGError) {
                try inflate(file, in: bytes, into: assembler)
                initialized = size
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Inflates the image data into `assembler`, then reports, in this order, a malformed
    /// stream, a stream longer or shorter than S, and an invalid filter type (`Spec/png.md`
    /// §6.2, §6.3).
    static func inflate(
        _ file: ChunkSummary, in bytes: UnsafeRawBufferPointer, into assembler: RowAssembler
    ) throws(PNGError) {
        if file.imageData.count == 1 {
            // One IDAT: inflate straight from the file's bytes.
            try inflate(
                UnsafeRawBufferPointer(rebasing: bytes[file.imageData[0]]), expected: file.filteredSize,
                into: assembler)
        } else {
            // Several IDATs: the zlib stream must be made contiguous first.
            let joined = JoinedImageData(capacity: file.imageData.reduce(0) { $0 + $1.count })
            for range in file.imageData { joined.append(UnsafeRawBufferPointer(rebasing: bytes[range])) }
            try inflate(joined.bytes, expected: file.filteredSize, into: assembler)
        }
        if let failure = assembler.failure {
            throw .invalidFilterType(row: failure.row, filter: Int(failure.filter))
        }
    }

    /// Inflates exactly `expected` bytes into `assembler`; producing more or fewer is an error.
    static func inflate(
        _ stream: UnsafeRawBufferPointer, expected: Int, into assembler: RowAssembler
    ) throws(PNGError) {
        let produced: Int
        do {
            produced = try Decompressor.zlibDecompress(stream, limit: expected) { assembler.consume($0) }
        } catch .outputLimitExceeded {
            throw .imageDataTooLong(expected: expected)
        } catch {
            throw .compression(error)
        }
        guard produced == expected else {
            throw .imageDataTooShort(expected: expected, actual: produced)
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
        SystemMemory.adviseHugePages(buffer.baseAddress!, count: buffer.count)
    }

    deinit { buffer.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer[0..<count]) }

    func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        (buffer.baseAddress! + count).copyMemory(from: base, byteCount: source.count)
        count += source.count
    }
}
