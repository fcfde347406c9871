@testable import PNG

/// An image described by its sample values, which the test packs, interlaces and filters on its
/// own, to check the decoder on every colour type, bit depth, filter and interlace method.
struct TestImage {
    var width: Int
    var height: Int
    var colorType: UInt8
    var depth: Int
    /// `channels` samples per pixel, row-major.
    var samples: [Int]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }
    var bitsPerPixel: Int { channels * depth }

    /// A deterministic image whose samples use the whole range of the depth.
    init(width: Int, height: Int, colorType: UInt8, depth: Int, seed: UInt64, maximumSample: Int? = nil) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.depth = depth
        self.samples = []
        var generator = SplitMix64(seed: seed)
        let limit = maximumSample ?? ((1 << depth) - 1)
        samples = (0..<(width * height * channels)).map { _ in Int(generator.next() % UInt64(limit + 1)) }
    }

    /// Packs a row of samples: MSB-first bits below 8, big-endian at 16.
    func packRow(_ values: ArraySlice<Int>) -> [UInt8] {
        switch depth {
        case 8: return values.map { UInt8($0) }
        case 16: return values.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        default:
            var bytes = [UInt8](repeating: 0, count: (values.count * depth + 7) / 8)
            for (index, value) in values.enumerated() {
                let bit = index * depth
                bytes[bit / 8] |= UInt8(value << (8 - depth - bit % 8))
            }
            return bytes
        }
    }

    /// The native pixels the decoder must return.
    var packed: [UInt8] {
        (0..<height).flatMap { y in packRow(samples[(y * width * channels)..<((y + 1) * width * channels)]) }
    }

    /// The filtered image data: rows of each Adam7 pass (or of the whole image), each row
    /// filtered with `filters(rowIndexInStream)`.
    func filtered(interlaced: Bool, filters: (Int) -> UInt8) -> [UInt8] {
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [
                (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                (0, 1, 1, 2),
            ]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        var streamRow = 0
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            var rows: [UInt8] = []
            var rowBytes = 0
            for y in ys {
                var values: [Int] = []
                for x in xs {
                    values += samples[((y * width + x) * channels)..<((y * width + x + 1) * channels)]
                }
                let row = packRow(values[...])
                rowBytes = row.count
                rows += row
            }
            let first = streamRow
            out += filterRows(rows, rowBytes: rowBytes, bytesPerPixel: max(1, bitsPerPixel / 8)) {
                filters(first + $0)
            }
            streamRow += ys.count
        }
        return out
    }

    /// A complete PNG file, optionally with extra chunks between IHDR and IDAT.
    ///
    /// - Parameters:
    ///   - zlib: makes the zlib stream from the filtered data (stored blocks by default).
    ///   - idatLength: splits the stream into IDAT chunks of at most this many bytes.
    func file(
        interlaced: Bool = false, extra: [[UInt8]] = [], filters: (Int) -> UInt8 = { UInt8($0 % 5) },
        zlib: ([UInt8]) -> [UInt8] = { storedZlib($0) }, idatLength: Int = .max
    ) -> [UInt8] {
        var bytes = PNGFile.signature
        bytes += PNGFile.header(
            width: width, height: height, depth: UInt8(depth), colorType: colorType,
            interlace: interlaced ? 1 : 0)
        for chunk in extra { bytes += chunk }
        let stream = zlib(filtered(interlaced: interlaced, filters: filters))
        for start in stride(from: 0, to: stream.count, by: max(1, min(idatLength, stream.count))) {
            bytes += PNGFile.chunk("IDAT", Array(stream[start..<min(stream.count, start + idatLength)]))
        }
        bytes += PNGFile.end
        return bytes
    }
}
