/// An image in memory: interleaved samples, rows top to bottom, no padding between rows.
///
/// 16-bit samples are big-endian, as in PNG, so `pixels` is exactly the row data the
/// canonical encoder writes after each filter byte (`Spec/png.md` §2.3).
public struct Bitmap: Sendable, Hashable {
    /// Pixels per row, 1 … 2^31 − 1.
    public var width: Int
    /// Rows, 1 … 2^31 − 1.
    public var height: Int
    /// The layout of each pixel.
    public var format: PixelFormat
    /// `width * height * format.bytesPerPixel` bytes.
    public var pixels: [UInt8]

    /// The largest width or height PNG can state: 2^31 − 1.
    public static let maximumDimension = Int(Int32.max)

    /// Makes a bitmap after checking that the buffer matches the size and format.
    ///
    /// - Throws: ``PNGError/invalidDimensions(width:height:)`` for a zero, negative or oversize
    ///   dimension, ``PNGError/imageTooLarge(width:height:)`` when the byte count overflows
    ///   `Int`, ``PNGError/invalidPixelBufferLength(expected:actual:)`` for a buffer of the
    ///   wrong length.
    public init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) throws(PNGError) {
        let expected = try Bitmap.byteCount(width: width, height: height, format: format)
        guard pixels.count == expected else {
            throw .invalidPixelBufferLength(expected: expected, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// Bytes in one row: `width * format.bytesPerPixel`.
    public var bytesPerRow: Int { width * format.bytesPerPixel }

    /// The number of pixel bytes an image of this size and format needs, after checking
    /// the dimensions.
    ///
    /// - Throws: ``PNGError/invalidDimensions(width:height:)`` or
    ///   ``PNGError/imageTooLarge(width:height:)``.
    public static func byteCount(width: Int, height: Int, format: PixelFormat) throws(PNGError) -> Int {
        guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height) else {
            throw .invalidDimensions(width: width, height: height)
        }
        let (row, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (total, totalOverflow) = row.multipliedReportingOverflow(by: height)
        guard !rowOverflow, !totalOverflow else { throw .imageTooLarge(width: width, height: height) }
        return total
    }
}
