/// The fields of an IHDR chunk, validated (`Spec/png.md` §4.2).
public struct PNGHeader: Sendable, Hashable {
    /// Pixels per row, 1 … 2^31 − 1.
    public var width: Int
    /// Rows, 1 … 2^31 − 1.
    public var height: Int
    /// Bits per sample (per palette index for indexed images): 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// Which channels the image has, and whether it is indexed.
    public var colorType: PNGColorType
    /// Whether the image data is Adam7-interlaced (interlace method 1).
    public var interlaced: Bool

    /// A header of the given fields, as they are: the decoder validates the IHDR it reads
    /// (`Spec/png.md` §4.2), this initializer checks nothing.
    public init(width: Int, height: Int, bitDepth: Int, colorType: PNGColorType, interlaced: Bool) {
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.interlaced = interlaced
    }

    /// Bits per pixel in the image data: channels × bit depth.
    public var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// Bytes per row of the native (unfiltered, deinterlaced) pixels: rows start on a byte
    /// boundary, so a row of sub-byte pixels is padded with zero bits.
    public var bytesPerRow: Int { PNGHeader.bytesPerRow(width: width, bitsPerPixel: bitsPerPixel) }

    /// The native pixel format when PixelFormat has one (depth 8 or 16, no palette).
    public var pixelFormat: PixelFormat? { PixelFormat(colorType: colorType, bitDepth: bitDepth) }

    static func bytesPerRow(width: Int, bitsPerPixel: Int) -> Int {
        (width * bitsPerPixel + 7) / 8
    }

    /// Parses and validates the 13 data bytes of IHDR (`Spec/png.md` §4.2).
    init(parsing data: UnsafeRawBufferPointer) throws(PNGError) {
        let width = Int(data.bigEndianUInt32(at: 0))
        let height = Int(data.bigEndianUInt32(at: 4))
        let depth = Int(data[8])
        let type = data[9]
        guard (1...Bitmap.maximumDimension).contains(width) else {
            throw .invalidHeader(field: "width", value: width)
        }
        guard (1...Bitmap.maximumDimension).contains(height) else {
            throw .invalidHeader(field: "height", value: height)
        }
        guard let colorType = PNGColorType(rawValue: type) else {
            throw .invalidHeader(field: "colorType", value: Int(type))
        }
        guard colorType.allowedBitDepths.contains(depth) else {
            throw .invalidHeader(field: "bitDepth", value: depth)
        }
        guard data[10] == 0 else { throw .invalidHeader(field: "compressionMethod", value: Int(data[10])) }
        guard data[11] == 0 else { throw .invalidHeader(field: "filterMethod", value: Int(data[11])) }
        guard data[12] <= 1 else { throw .invalidHeader(field: "interlaceMethod", value: Int(data[12])) }
        self.init(
            width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: data[12] == 1)
    }
}

extension UnsafeRawBufferPointer {
    @inline(__always)
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
