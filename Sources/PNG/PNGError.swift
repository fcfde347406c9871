#if !IMAGECACHE_SINGLE_MODULE
    import Inflate
#endif

/// Everything that can go wrong while encoding or decoding a PNG (`Spec/png.md` §9).
///
/// The case names are stable: other implementations and the conformance suite match on them.
/// Each case carries the evidence a user needs to find the problem.
public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Bitmaps and the encoder

    /// A width or height is 0 or above 2,147,483,647 (2^31 − 1).
    case invalidDimensions(width: Int, height: Int)
    /// The pixel buffer does not hold exactly `width * height * bytesPerPixel` bytes.
    case invalidPixelBufferLength(expected: Int, actual: Int)
    /// The image is too large to address in memory: its filtered data size overflows `Int`;
    /// or it has more than 2^32 pixels and was to be downsampled (`Spec/thumbnail.md` §2.9).
    case imageTooLarge(width: Int, height: Int)

    // MARK: File structure

    /// The file does not start with the 8-byte PNG signature 89 50 4E 47 0D 0A 1A 0A.
    case invalidSignature
    /// The file ends at byte `offset` in the middle of a chunk (or before the first chunk).
    case truncatedData(offset: Int)
    /// A chunk's length field is above 2^31 − 1, or wrong for a chunk of fixed length.
    case invalidChunkLength(chunk: String, length: Int)
    /// The 4 chunk-type bytes at `offset` are not all ASCII letters.
    case invalidChunkType(offset: Int)
    /// A chunk's stored CRC-32 differs from the CRC-32 of its type and data.
    case chunkChecksumMismatch(chunk: String, declared: UInt32, computed: UInt32)
    /// A chunk whose type marks it critical (first letter upper case) is not one this
    /// decoder knows (IHDR, PLTE, IDAT, IEND).
    case unknownCriticalChunk(String)
    /// The first chunk is `found`, not IHDR.
    case missingHeader(found: String)
    /// An IHDR field holds a value the standard does not allow.
    case invalidHeader(field: String, value: Int)
    /// A chunk that may appear once appears again.
    case duplicateChunk(String)
    /// A chunk appears where the ordering rules forbid it (`Spec/png.md` §5.3).
    case misplacedChunk(String)
    /// An indexed-colour image has no PLTE chunk before its image data.
    case missingPalette
    /// A PLTE chunk's length is not a multiple of 3, holds no entries, or holds more entries
    /// than the bit depth can index.
    case invalidPalette(length: Int)
    /// A PLTE chunk appears in a grayscale image (colour type 0 or 4).
    case paletteNotAllowed(colorType: Int)
    /// A tRNS chunk's length does not fit the colour type.
    case invalidTransparency(length: Int)
    /// A tRNS chunk appears in an image that already has an alpha channel (colour type 4 or 6).
    case transparencyNotAllowed(colorType: Int)
    /// The file has no IDAT chunk.
    case missingImageData
    /// The file ends after its last chunk without an IEND chunk.
    case missingEnd

    // MARK: Image data

    /// The zlib stream in the IDAT chunks is malformed; `Spec/deflate.md` §7 lists the
    /// `InflateError` names (module `Inflate`).
    case compression(InflateError)
    /// The decompressed image data is shorter than the header requires.
    case imageDataTooShort(expected: Int, actual: Int)
    /// The decompressed image data is longer than the header allows.
    case imageDataTooLong(expected: Int)
    /// A row of the image data starts with a filter type other than 0–4.
    case invalidFilterType(row: Int, filter: Int)
    /// A decoder limit (``PNGLimits``) would be exceeded; nothing was allocated for it.
    case limitExceeded(limit: String, requested: Int, maximum: Int)

    // MARK: Thumbnails

    /// A thumbnail's maximum pixel size is below 1 (`Spec/thumbnail.md` §1.2).
    case invalidMaximumPixelSize(Int)

    /// The stable name of the case, as listed in `Spec/png.md` §9.
    public var name: String {
        switch self {
        case .invalidDimensions: "invalidDimensions"
        case .invalidPixelBufferLength: "invalidPixelBufferLength"
        case .imageTooLarge: "imageTooLarge"
        case .invalidSignature: "invalidSignature"
        case .truncatedData: "truncatedData"
        case .invalidChunkLength: "invalidChunkLength"
        case .invalidChunkType: "invalidChunkType"
        case .chunkChecksumMismatch: "chunkChecksumMismatch"
        case .unknownCriticalChunk: "unknownCriticalChunk"
        case .missingHeader: "missingHeader"
        case .invalidHeader: "invalidHeader"
        case .duplicateChunk: "duplicateChunk"
        case .misplacedChunk: "misplacedChunk"
        case .missingPalette: "missingPalette"
        case .invalidPalette: "invalidPalette"
        case .paletteNotAllowed: "paletteNotAllowed"
        case .invalidTransparency: "invalidTransparency"
        case .transparencyNotAllowed: "transparencyNotAllowed"
        case .missingImageData: "missingImageData"
        case .missingEnd: "missingEnd"
        case .compression: "compression"
        case .imageDataTooShort: "imageDataTooShort"
        case .imageDataTooLong: "imageDataTooLong"
        case .invalidFilterType: "invalidFilterType"
        case .limitExceeded: "limitExceeded"
        case .invalidMaximumPixelSize: "invalidMaximumPixelSize"
        }
    }

    /// `PNG error <name>: <what is wrong>`, a sentence for the user that starts with the
    /// error's ``name`` (`Spec/png.md` §9); switch on the case, not on this text.
    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height):
            "PNG error invalidDimensions: \(width)×\(height) is not a valid image size; width and height must each be 1 to 2147483647"
        case .invalidPixelBufferLength(let expected, let actual):
            "PNG error invalidPixelBufferLength: the pixel buffer holds \(actual) bytes but the size and format need exactly \(expected)"
        case .imageTooLarge(let width, let height):
            "PNG error imageTooLarge: a \(width)×\(height) image is too large to hold in memory, or to downsample (more than 2^32 pixels)"
        case .invalidSignature:
            "PNG error invalidSignature: the data does not start with the PNG signature; it is not a PNG file (or it was altered in transfer)"
        case .truncatedData(let offset):
            "PNG error truncatedData: the file ends early, at byte \(offset); it was probably cut off"
        case .invalidChunkLength(let chunk, let length):
            "PNG error invalidChunkLength: the \(chunk) chunk declares an invalid length of \(length) bytes"
        case .invalidChunkType(let offset):
            "PNG error invalidChunkType: the chunk type at byte \(offset) is not four ASCII letters; the file is corrupt"
        case .chunkChecksumMismatch(let chunk, let declared, let computed):
            "PNG error chunkChecksumMismatch: the \(chunk) chunk declares CRC-32 \(PNGError.hex(declared)) but its bytes give \(PNGError.hex(computed)); the file is corrupt"
        case .unknownCriticalChunk(let chunk):
            "PNG error unknownCriticalChunk: the file needs the critical chunk \(chunk), which this decoder does not know"
        case .missingHeader(let found):
            "PNG error missingHeader: the first chunk must be IHDR but is \(found)"
        case .invalidHeader(let field, let value):
            "PNG error invalidHeader: the IHDR field \(field) has the invalid value \(value)"
        case .duplicateChunk(let chunk):
            "PNG error duplicateChunk: the \(chunk) chunk may appear only once but appears again"
        case .misplacedChunk(let chunk):
            "PNG error misplacedChunk: the \(chunk) chunk appears where the chunk ordering rules forbid it"
        case .missingPalette:
            "PNG error missingPalette: the indexed-colour image has no PLTE chunk before its image data"
        case .invalidPalette(let length):
            "PNG error invalidPalette: the PLTE chunk's length \(length) is not 3 to 768, a multiple of 3, and within what the bit depth can index"
        case .paletteNotAllowed(let colorType):
            "PNG error paletteNotAllowed: a PLTE chunk is not allowed in an image of colour type \(colorType)"
        case .invalidTransparency(let length):
            "PNG error invalidTransparency: the tRNS chunk's length \(length) does not fit the image's colour type"
        case .transparencyNotAllowed(let colorType):
            "PNG error transparencyNotAllowed: a tRNS chunk is not allowed in an image of colour type \(colorType), which has an alpha channel"
        case .missingImageData:
            "PNG error missingImageData: the file has no IDAT chunk, so it holds no pixels"
        case .missingEnd:
            "PNG error missingEnd: the file ends without an IEND chunk; it was probably cut off"
        case .compression(let error):
            "PNG error compression(\(PNGError.inflateErrorName(error))): the image data's zlib stream is invalid: \(error)"
        case .imageDataTooShort(let expected, let actual):
            "PNG error imageDataTooShort: the image data decompresses to \(actual) bytes but the header needs \(expected)"
        case .imageDataTooLong(let expected):
            "PNG error imageDataTooLong: the image data decompresses to more than the \(expected) bytes the header allows"
        case .invalidFilterType(let row, let filter):
            "PNG error invalidFilterType: row \(row) of the image data has filter type \(filter); only 0 to 4 exist"
        case .limitExceeded(let limit, let requested, let maximum):
            "PNG error limitExceeded: the image needs \(requested) for \(limit) but the limit is \(maximum); raise PNGLimits.\(limit) to decode it"
        case .invalidMaximumPixelSize(let value):
            "PNG error invalidMaximumPixelSize: a thumbnail's maximum pixel size must be at least 1, not \(value)"
        }
    }

    /// The stable name of an inflate error (`Spec/deflate.md`): the case name, found by
    /// reflection so that new inflate cases need no change here.
    public static func inflateErrorName(_ error: InflateError) -> String {
        if let label = Mirror(reflecting: error).children.first?.label { return label }
        let payloadFree: [(InflateError, String)] = [
            (.truncatedInput, "truncatedInput"),
            (.presetDictionaryUnsupported, "presetDictionaryUnsupported"),
            (.invalidBlockType, "invalidBlockType"),
            (.repeatWithoutPreviousLength, "repeatWithoutPreviousLength"),
            (.missingEndOfBlock, "missingEndOfBlock"),
        ]
        return payloadFree.first { $0.0 == error }?.1 ?? "inflate"
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
