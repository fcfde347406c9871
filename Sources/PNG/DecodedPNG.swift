/// One palette entry of a PLTE chunk.
public struct PNGPaletteEntry: Sendable, Hashable {
    /// The red sample, 0 … 255.
    public var red: UInt8
    /// The green sample, 0 … 255.
    public var green: UInt8
    /// The blue sample, 0 … 255.
    public var blue: UInt8

    /// A palette entry of the given samples.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// The contents of a tRNS chunk (`Spec/png.md` §5.1).
public enum PNGTransparency: Sendable, Hashable {
    /// Indexed images: the alpha of palette entries 0, 1, …; later entries are opaque.
    case paletteAlpha([UInt8])
    /// Grayscale images: pixels whose gray sample equals this value are fully transparent.
    case grayKey(UInt16)
    /// Truecolour images: pixels whose three samples equal these values are fully transparent.
    case rgbKey(red: UInt16, green: UInt16, blue: UInt16)
}

/// A chunk as it appears in a file: its type, where it starts and how long its data is.
public struct PNGChunkInfo: Sendable, Hashable {
    /// The four letters of the chunk type, for example `IDAT`.
    public var type: String
    /// Byte offset of the chunk's length field in the file.
    public var offset: Int
    /// Length of the chunk's data in bytes.
    public var length: Int
}

/// A decoded PNG in its native form (`Spec/png.md` §7).
public struct DecodedPNG: Sendable, Hashable {
    /// The validated IHDR fields.
    public var header: PNGHeader
    /// The PLTE entries, or nil when the file has no PLTE (PLTE in truecolour images is a
    /// suggestion for quantizers and is kept here too).
    public var palette: [PNGPaletteEntry]?
    /// The tRNS contents, or nil when the file has none.
    public var transparency: PNGTransparency?
    /// The native samples, deinterlaced and unfiltered: `header.height` rows of
    /// `header.bytesPerRow` bytes; sub-byte samples packed most significant bits first as
    /// in PNG, with each row padded to a byte boundary; 16-bit samples big-endian.
    public var pixels: [UInt8]
    /// Every chunk of the file up to and including IEND, in file order.
    public var chunks: [PNGChunkInfo]

    /// The image as a ``Bitmap``: the native samples when the format is one of
    /// ``PixelFormat``'s and there is no tRNS, otherwise ``rgba()`` (`Spec/png.md` §7.2).
    public func bitmap() -> Bitmap {
        if let format = header.pixelFormat, transparency == nil {
            return Bitmap(validatedWidth: header.width, height: header.height, format: format, pixels: pixels)
        }
        return rgba()
    }
}

extension Bitmap {
    /// A bitmap whose size and buffer the caller has already checked.
    init(validatedWidth width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }
}
