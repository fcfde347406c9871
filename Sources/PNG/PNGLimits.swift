/// Resource limits the decoder enforces before it allocates (`Spec/png.md` §10).
///
/// A file states its size in IHDR; the decoder checks that size against these limits as soon
/// as it reads IHDR, so a tiny file that claims a huge image fails at once.
public struct PNGLimits: Sendable, Hashable {
    /// The largest `width × height` accepted. Default 2^28 (268,435,456 pixels, for example
    /// 16,384 × 16,384), which is 1 GiB as RGBA8.
    public var maximumPixelCount: Int
    /// The largest decompressed (filtered) image data accepted, in bytes: the row bytes plus
    /// one filter byte per row (per pass row when interlaced). Default 2^30 + 2^26 bytes,
    /// enough for 16,384 × 16,384 RGBA8 with its filter bytes.
    public var maximumDecompressedBytes: Int

    /// Limits of the given sizes; each defaults to the value its property states.
    public init(maximumPixelCount: Int = 1 << 28, maximumDecompressedBytes: Int = (1 << 30) + (1 << 26)) {
        self.maximumPixelCount = maximumPixelCount
        self.maximumDecompressedBytes = maximumDecompressedBytes
    }

    /// 2^28 pixels and 1.0625 GiB of decompressed data.
    public static let `default` = PNGLimits()

    /// No limit beyond what the platform can address.
    public static let unlimited = PNGLimits(maximumPixelCount: .max, maximumDecompressedBytes: .max)
}
