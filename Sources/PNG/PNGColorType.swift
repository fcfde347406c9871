/// The PNG colour type, the IHDR byte that says which channels a pixel has
/// (ISO/IEC 15948 §6.1, `Spec/png.md` §4.2).
public enum PNGColorType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Colour type 0: one gray sample; bit depths 1, 2, 4, 8, 16.
    case grayscale = 0
    /// Colour type 2: red, green, blue; bit depths 8, 16.
    case truecolor = 2
    /// Colour type 3: one palette index; bit depths 1, 2, 4, 8.
    case indexed = 3
    /// Colour type 4: gray and alpha; bit depths 8, 16.
    case grayscaleAlpha = 4
    /// Colour type 6: red, green, blue, alpha; bit depths 8, 16.
    case truecolorAlpha = 6

    /// Samples per pixel in the image data (an index counts as one sample).
    public var channels: Int {
        switch self {
        case .grayscale, .indexed: 1
        case .grayscaleAlpha: 2
        case .truecolor: 3
        case .truecolorAlpha: 4
        }
    }

    /// The bit depths the standard allows for this colour type.
    public var allowedBitDepths: [Int] {
        switch self {
        case .grayscale: [1, 2, 4, 8, 16]
        case .indexed: [1, 2, 4, 8]
        case .truecolor, .grayscaleAlpha, .truecolorAlpha: [8, 16]
        }
    }

    /// The colour type as `png info` prints it: `grayscale`, `truecolor`, `indexed`,
    /// `grayscale+alpha` or `truecolor+alpha`.
    public var description: String {
        switch self {
        case .grayscale: "grayscale"
        case .truecolor: "truecolor"
        case .indexed: "indexed"
        case .grayscaleAlpha: "grayscale+alpha"
        case .truecolorAlpha: "truecolor+alpha"
        }
    }
}
