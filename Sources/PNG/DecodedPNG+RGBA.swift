extension DecodedPNG {
    /// The image converted to RGBA (`Spec/png.md` §8): `rgba8` when the bit depth is 8 or less,
    /// `rgba16` for 16-bit images.
    ///
    /// Gray at 1, 2 or 4 bits scales to the full 0–255 range (× 255, 85 or 17); gray copies to
    /// red, green and blue; palette indices look up PLTE, their alpha from tRNS (255 past its
    /// end); an index past the end of PLTE gives opaque black. A tRNS colour key makes the
    /// pixels whose samples equal it fully transparent; all other pixels are opaque.
    public func rgba() -> Bitmap {
        let converter = RGBAConverter(header: header, palette: palette, transparency: transparency)
        let width = header.width
        let height = header.height
        let outputRowBytes = converter.outputRowBytes
        let inputRowBytes = header.bytesPerRow
        let converted = [UInt8](unsafeUninitializedCapacity: outputRowBytes * height) { buffer, initialized in
            pixels.withUnsafeBufferPointer { input in
                for row in 0..<height {
                    converter.convertRow(
                        input.baseAddress! + row * inputRowBytes,
                        buffer.baseAddress! + row * outputRowBytes, width: width)
                }
            }
            initialized = outputRowBytes * height
        }
        return Bitmap(
            validatedWidth: width, height: height, format: converter.format, pixels: converted)
    }
}

/// Converts rows of native samples to RGBA (`Spec/png.md` §8), one row at a time, so a decoder
/// can convert each row as soon as it is unfiltered.
struct RGBAConverter {
    let header: PNGHeader
    let palette: [PNGPaletteEntry]?
    let transparency: PNGTransparency?
    /// For indexed and sub-16-bit gray images, the RGBA8 bytes of every sample value.
    let lookup: [UInt8]

    init(header: PNGHeader, palette: [PNGPaletteEntry]?, transparency: PNGTransparency?) {
        self.header = header
        self.palette = palette
        self.transparency = transparency
        lookup =
            header.bitDepth == 16
            ? [] : Self.lookupTable(header: header, palette: palette, transparency: transparency)
    }

    /// `rgba8` for bit depths up to 8, `rgba16` for 16.
    var format: PixelFormat { header.bitDepth == 16 ? .rgba16 : .rgba8 }

    /// Bytes in one converted row of the full image.
    var outputRowBytes: Int { header.width * format.bytesPerPixel }

    /// For indexed and sub-16-bit gray images: the RGBA8 bytes of every possible sample value.
    static func lookupTable(
        header: PNGHeader, palette: [PNGPaletteEntry]?, transparency: PNGTransparency?
    ) -> [UInt8] {
        switch header.colorType {
        case .indexed:
            var table = [UInt8](repeating: 0, count: 256 * 4)
            for index in 0..<256 { table[4 * index + 3] = 255 }
            for (index, entry) in (palette ?? []).enumerated() {
                table[4 * index] = entry.red
                table[4 * index + 1] = entry.green
                table[4 * index + 2] = entry.blue
            }
            if case .paletteAlpha(let alphas) = transparency {
                for (index, alpha) in alphas.enumerated() { table[4 * index + 3] = alpha }
            }
            return table
        case .grayscale:
            let levels = 1 << header.bitDepth
            let scale = 255 / (levels - 1)
            var table = [UInt8](repeating: 0, count: levels * 4)
            for value in 0..<levels {
                let gray = UInt8(value * scale)
                table[4 * value] = gray
                table[4 * value + 1] = gray
                table[4 * value + 2] = gray
                table[4 * value + 3] = 255
            }
            // Spec/png.md §8.2: the key's bits above the bit depth are masked to 0 first (PNG
            // Third Edition, #11tRNS: "decoders must mask the other bits to 0").
            if case .grayKey(let key) = transparency { table[4 * (Int(key) & (levels - 1)) + 3] = 0 }
            return table
        default:
            return []
        }
    }

    /// Converts `width` pixels of native samples (packed as in a PNG row) starting at
    /// `input` into RGBA at `output`.
    func convertRow(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, width: Int) {
        lookup.withUnsafeBufferPointer { table in
            convertRow(input, output, width: width, table: table.baseAddress)
        }
    }

    private func convertRow(
        _ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, width: Int,
        table: UnsafePointer<UInt8>?
    ) {
        let depth = header.bitDepth
        switch header.colorType {
        case .indexed,
            .grayscale where depth <= 8:
            // Whole 4-byte pixels, and a packed input byte unpacked in a register: a 4-byte
            // copy and a shift per pixel took 19 instructions a pixel over PngSuite's
            // indexed and gray files.
            let pixels = UnsafeRawPointer(table!)
            let out = UnsafeMutableRawPointer(output)
            @inline(__always) func put(_ x: Int, _ value: UInt8) {
                out.storeBytes(
                    of: pixels.loadUnaligned(fromByteOffset: 4 &* Int(value), as: UInt32.self),
                    toByteOffset: 4 &* x, as: UInt32.self)
            }
            if depth == 8 {
                for x in 0..<width { put(x, input[x]) }
            } else {
                // One copy per depth, so that every shift is by a constant.
                @inline(__always) func unpack(_ depth: Int) {
                    let mask = UInt8(truncatingIfNeeded: (1 << depth) &- 1)
                    var x = 0
                    var byte = input
                    while x < width {
                        // The first pixel is in the byte's high bits (`Spec/png.md` §7.1).
                        let packed = byte.pointee
                        for slot in 0..<min(8 / depth, width &- x) {
                            put(x &+ slot, packed &>> (8 &- depth &* (slot &+ 1)) & mask)
                        }
                        x &+= 8 / depth
                        byte += 1
                    }
                }
                switch depth {
                case 1: unpack(1)
                case 2: unpack(2)
                default: unpack(4)
                }
            }
        case .grayscale:
            let key: Int = if case .grayKey(let key) = transparency { Int(key) } else { -1 }
            for x in 0..<width {
                let high = input[2 * x]
                let low = input[2 * x + 1]
                let out = output + 8 * x
                out[0] = high
                out[1] = low
                out[2] = high
                out[3] = low
                out[4] = high
                out[5] = low
                let opaque: UInt8 = Int(high) << 8 | Int(low) == key ? 0 : 255
                out[6] = opaque
                out[7] = opaque
            }
        case .truecolor:
            var key: (Int, Int, Int) = (-1, -1, -1)
            if case .rgbKey(let red, let green, let blue) = transparency {
                // Spec/png.md §8.2: at bit depth 8 only the low 8 bits of each key sample count.
                let mask = depth == 8 ? 0xFF : 0xFFFF
                key = (Int(red) & mask, Int(green) & mask, Int(blue) & mask)
            }
            if depth == 8 {
                for x in 0..<width {
                    let r = input[3 * x]
                    let g = input[3 * x + 1]
                    let b = input[3 * x + 2]
                    let out = output + 4 * x
                    out[0] = r
                    out[1] = g
                    out[2] = b
                    out[3] = (Int(r), Int(g), Int(b)) == key ? 0 : 255
                }
            } else {
                for x in 0..<width {
                    let sample = input + 6 * x
                    let out = output + 8 * x
                    out.update(from: sample, count: 6)
                    let r = Int(sample[0]) << 8 | Int(sample[1])
                    let g = Int(sample[2]) << 8 | Int(sample[3])
                    let b = Int(sample[4]) << 8 | Int(sample[5])
                    let opaque: UInt8 = (r, g, b) == key ? 0 : 255
                    out[6] = opaque
                    out[7] = opaque
                }
            }
        case .grayscaleAlpha:
            let size = depth / 8
            for x in 0..<width {
                let gray = input + 2 * size * x
                let out = output + 4 * size * x
                out.update(from: gray, count: size)
                (out + size).update(from: gray, count: size)
                (out + 2 * size).update(from: gray, count: 2 * size)
            }
        case .truecolorAlpha:
            output.update(from: input, count: width * 4 * depth / 8)
        }
    }
}
