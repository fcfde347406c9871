/// Exact area-averaging downsampling for thumbnails (`Spec/thumbnail.md`).
///
/// Every target pixel is the mean of the source area it covers, each source pixel weighted by
/// the exact integer part of its area inside the target pixel (§2.1), colour averaged on
/// premultiplied alpha (§2.5), with one division per sample rounded half up (§2.6). So the
/// output bytes are a function of the input alone, identical in every implementation of the
/// spec. Works on every ``PixelFormat``, for any reduction ratio; never upscales.
///
/// Pure and stateless: no file I/O, safe to call from any thread.
public enum Downsampler {
    /// The most pixels a bitmap may have to be reduced: 2^32. Up to this size every exact sum
    /// of `Spec/thumbnail.md` §2.7 fits in a `UInt64`.
    public static let maximumPixelCount: UInt64 = 1 << 32

    /// The size of the thumbnail of a `width × height` image whose longer side may be at most
    /// `maximumPixelSize` pixels (`Spec/thumbnail.md` §1).
    ///
    /// The longer side becomes `maximumPixelSize`, the shorter one keeps the aspect ratio to the
    /// nearest pixel (an exact half rounds up) and is at least 1. An image that already fits
    /// keeps its size: thumbnails never upscale.
    ///
    /// - Parameters:
    ///   - width: the source width, 1 … 2^31 − 1.
    ///   - height: the source height, 1 … 2^31 − 1.
    ///   - maximumPixelSize: the largest allowed width and height, at least 1.
    /// - Returns: the target size; `1 ≤ width ≤ source width`, `1 ≤ height ≤ source height`.
    /// - Throws: ``PNGError/invalidDimensions(width:height:)`` for a side outside 1 … 2^31 − 1,
    ///   ``PNGError/invalidMaximumPixelSize(_:)`` when `maximumPixelSize < 1`.
    public static func targetSize(width: Int, height: Int, maximumPixelSize: Int) throws(PNGError) -> (
        width: Int, height: Int
    ) {
        guard (1...Bitmap.maximumDimension).contains(width), (1...Bitmap.maximumDimension).contains(height)
        else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard maximumPixelSize >= 1 else { throw .invalidMaximumPixelSize(maximumPixelSize) }
        if width <= maximumPixelSize && height <= maximumPixelSize { return (width, height) }
        // Int64 even on 32-bit platforms: the products reach 2^62 (§1.3).
        let maximum = Int64(maximumPixelSize)
        if width >= height {
            return (maximumPixelSize, Int(max(1, roundedHalfUp(Int64(height) * maximum, Int64(width)))))
        }
        return (Int(max(1, roundedHalfUp(Int64(width) * maximum, Int64(height)))), maximumPixelSize)
    }

    /// The thumbnail of `bitmap` whose longer side is at most `maximumPixelSize`
    /// (`Spec/thumbnail.md` §2).
    ///
    /// - Parameters:
    ///   - bitmap: the original, in any pixel format.
    ///   - maximumPixelSize: the largest allowed width and height, at least 1.
    /// - Returns: a bitmap of ``targetSize(width:height:maximumPixelSize:)`` in the same pixel
    ///   format; `bitmap` itself when it already fits.
    /// - Throws: the errors of ``Bitmap/init(width:height:format:pixels:)`` when the bitmap's
    ///   fields were changed into an invalid combination,
    ///   ``PNGError/invalidMaximumPixelSize(_:)`` when `maximumPixelSize < 1`,
    ///   ``PNGError/imageTooLarge(width:height:)`` when a bitmap of more than
    ///   ``maximumPixelCount`` pixels would have to be reduced (§2.9).
    /// - Complexity: O(width × height), one pass over the source; the working memory is two
    ///   source rows of sums and one target row.
    public static func downsample(_ bitmap: Bitmap, toFit maximumPixelSize: Int) throws(PNGError) -> Bitmap {
        guard
            let target = try plan(
                width: bitmap.width, height: bitmap.height, format: bitmap.format,
                pixelBufferLength: bitmap.pixels.count, maximumPixelSize: maximumPixelSize)
        else { return bitmap }
        return reduce(bitmap, toWidth: target.width, height: target.height)
    }

    /// The checks of `Spec/thumbnail.md` §2.9 in their order, and the target size; nil when
    /// there is nothing to reduce. Apart from the pixels, it needs only their count, so the
    /// size limits can be tested without allocating 2^32 pixels.
    static func plan(
        width: Int, height: Int, format: PixelFormat, pixelBufferLength: Int, maximumPixelSize: Int
    ) throws(PNGError) -> (width: Int, height: Int)? {
        let expected = try Bitmap.byteCount(width: width, height: height, format: format)
        guard pixelBufferLength == expected else {
            throw .invalidPixelBufferLength(expected: expected, actual: pixelBufferLength)
        }
        let target = try targetSize(width: width, height: height, maximumPixelSize: maximumPixelSize)
        if target == (width, height) { return nil }
        guard UInt64(width) * UInt64(height) <= maximumPixelCount else {
            throw .imageTooLarge(width: width, height: height)
        }
        return target
    }

    /// `round(p / q)` of `Spec/thumbnail.md` §1.2 for `p ≥ 0`, `q ≥ 1`: half up.
    static func roundedHalfUp(_ p: Int64, _ q: Int64) -> Int64 {
        let (quotient, remainder) = p.quotientAndRemainder(dividingBy: q)
        return remainder >= q - remainder ? quotient + 1 : quotient
    }
}
