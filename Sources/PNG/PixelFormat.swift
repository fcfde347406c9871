/// The layout of one pixel in a ``Bitmap``: which channels, and 8 or 16 bits per sample.
///
/// These are the formats the canonical encoder writes (`Spec/png.md` §2) and the formats
/// ``PNGDecoder/decodeBitmap(_:)-([UInt8])`` returns unchanged. 16-bit samples are stored big-endian,
/// as PNG stores them.
public enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One 8-bit gray sample per pixel.
    case gray8
    /// An 8-bit gray sample, then an 8-bit alpha sample.
    case grayAlpha8
    /// 8-bit red, green and blue samples.
    case rgb8
    /// 8-bit red, green, blue and alpha samples: 4 bytes per pixel.
    case rgba8
    /// One 16-bit gray sample per pixel, big-endian.
    case gray16
    /// A 16-bit gray sample, then a 16-bit alpha sample, each big-endian.
    case grayAlpha16
    /// 16-bit red, green and blue samples, each big-endian.
    case rgb16
    /// 16-bit red, green, blue and alpha samples, each big-endian: 8 bytes per pixel.
    case rgba16

    /// Samples per pixel: 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA).
    public var channels: Int {
        switch self {
        case .gray8, .gray16: 1
        case .grayAlpha8, .grayAlpha16: 2
        case .rgb8, .rgb16: 3
        case .rgba8, .rgba16: 4
        }
    }

    /// Bytes per sample: 1 or 2.
    public var bytesPerSample: Int {
        switch self {
        case .gray8, .grayAlpha8, .rgb8, .rgba8: 1
        case .gray16, .grayAlpha16, .rgb16, .rgba16: 2
        }
    }

    /// Bytes per pixel: `channels * bytesPerSample`.
    public var bytesPerPixel: Int { channels * bytesPerSample }

    /// Bits per sample, as written in the IHDR bit-depth field: 8 or 16.
    public var bitDepth: Int { bytesPerSample * 8 }

    /// The PNG colour type of this format (`Spec/png.md` §2): 0, 2, 4 or 6.
    public var colorType: PNGColorType {
        switch self {
        case .gray8, .gray16: .grayscale
        case .grayAlpha8, .grayAlpha16: .grayscaleAlpha
        case .rgb8, .rgb16: .truecolor
        case .rgba8, .rgba16: .truecolorAlpha
        }
    }

    /// The format with this colour type and bit depth, or nil when PixelFormat has none
    /// (palette images and depths below 8).
    public init?(colorType: PNGColorType, bitDepth: Int) {
        switch (colorType, bitDepth) {
        case (.grayscale, 8): self = .gray8
        case (.grayscale, 16): self = .gray16
        case (.grayscaleAlpha, 8): self = .grayAlpha8
        case (.grayscaleAlpha, 16): self = .grayAlpha16
        case (.truecolor, 8): self = .rgb8
        case (.truecolor, 16): self = .rgb16
        case (.truecolorAlpha, 8): self = .rgba8
        case (.truecolorAlpha, 16): self = .rgba16
        default: return nil
        }
    }

    /// The case's name: `gray8`, `rgba16`, ….
    public var description: String {
        switch self {
        case .gray8: "gray8"
        case .grayAlpha8: "grayAlpha8"
        case .rgb8: "rgb8"
        case .rgba8: "rgba8"
        case .gray16: "gray16"
        case .grayAlpha16: "grayAlpha16"
        case .rgb16: "rgb16"
        case .rgba16: "rgba16"
        }
    }
}
