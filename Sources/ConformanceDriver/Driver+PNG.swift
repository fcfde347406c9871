#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import PNG
#endif

/// `png.encode`, `png.decode` and `png.downsample` (Spec/conformance.md §5.2, §5.3, §5.6).
extension Driver {
    func encodePNG(_ request: Request) throws(RequestFailure) -> [String: Message] {
        let format = try Driver.pixelFormat(named: try request.string("format"))
        let width = try request.integer("width")
        let height = try request.integer("height")
        let pixels = try request.bytes("pixels")
        var png: [UInt8]
        do {
            let bitmap = try Bitmap(width: Int(width), height: Int(height), format: format, pixels: pixels)
            png = try PNGEncoder.encode(bitmap)
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
        if faults.contains(.wrongAdler32) { Driver.breakAdler32(&png) }
        return ["png": .bytes(png)]
    }

    func decodePNG(_ request: Request) throws(RequestFailure) -> [String: Message] {
        var bytes = try request.bytes("png")
        if faults.contains(.ancillaryChunkChecksumsUnchecked) { Driver.repairAncillaryChecksums(&bytes) }
        if faults.contains(.dataAfterEndRejected), Driver.hasDataAfterEnd(bytes) {
            throw RequestFailure(name: "truncatedData")
        }
        var limits = PNGLimits.default
        let requested = request.object("limits")
        if let pixels = try requested.optionalInteger("maximumPixelCount") {
            limits.maximumPixelCount = Int(pixels)
        }
        if let total = try requested.optionalInteger("maximumDecompressedBytes") {
            limits.maximumDecompressedBytes = Int(total)
        }
        let decoded: DecodedPNG
        do {
            decoded = try PNGDecoder(limits: limits).decode(bytes)
        } catch {
            let name = Driver.name(of: error)
            if faults.contains(.distanceTooFarZeroFilled), name == "distanceTooFar" {
                throw RequestFailure(name: "adlerMismatch")
            }
            throw RequestFailure(name: name)
        }
        let header = decoded.header
        var rgba = decoded.rgba()
        if faults.contains(.trnsKeyUnmasked), Driver.keyHasBitsAboveDepth(decoded) {
            // Unmasked, the key matches no pixel: every pixel is opaque.
            let size = rgba.format == .rgba16 ? 2 : 1
            for pixel in stride(from: 0, to: rgba.pixels.count, by: 4 * size) {
                for index in 0..<size { rgba.pixels[pixel + 3 * size + index] = 0xFF }
            }
        }
        return [
            "width": .integer(Int64(header.width)),
            "height": .integer(Int64(header.height)),
            "colorType": .integer(Int64(header.colorType.rawValue)),
            "bitDepth": .integer(Int64(header.bitDepth)),
            "interlaced": .bool(header.interlaced),
            "samples": .bytes(Driver.unpackedSamples(decoded)),
            "rgba": .bytes(rgba.pixels),
            "rgbaDepth": .integer(rgba.format == .rgba16 ? 16 : 8),
        ]
    }

    func downsamplePNG(_ request: Request) throws(RequestFailure) -> [String: Message] {
        let format = try Driver.pixelFormat(named: try request.string("format"))
        let width = try request.integer("width")
        let height = try request.integer("height")
        let pixels = try request.bytes("pixels")
        let maximumPixelSize = try request.integer("maximumPixelSize")
        let thumbnail: Bitmap
        do {
            let bitmap = try Bitmap(width: Int(width), height: Int(height), format: format, pixels: pixels)
            thumbnail = try bitmap.downsampled(toFit: Int(maximumPixelSize))
        } catch {
            throw RequestFailure(name: Driver.name(of: error))
        }
        return [
            "width": .integer(Int64(thumbnail.width)),
            "height": .integer(Int64(thumbnail.height)),
            "format": .string(thumbnail.format.description),
            "pixels": .bytes(thumbnail.pixels),
        ]
    }

    /// trns-key-unmasked: whether a gray or RGB key has bits above the bit depth.
    static func keyHasBitsAboveDepth(_ decoded: DecodedPNG) -> Bool {
        let maximum = (1 << decoded.header.bitDepth) - 1
        switch decoded.transparency {
        case .grayKey(let key)?: return Int(key) > maximum
        case .rgbKey(let red, let green, let blue)?: return max(Int(red), Int(green), Int(blue)) > maximum
        default: return false
        }
    }

    static func pixelFormat(named name: String) throws(RequestFailure) -> PixelFormat {
        guard let format = PixelFormat.allCases.first(where: { $0.description == name }) else {
            throw .badRequest("unknown pixel format \(name)")
        }
        return format
    }

    /// The protocol's native samples: one byte per sample below 16 bits (unscaled), rows
    /// without padding. The decoder keeps sub-byte samples packed, as PNG does.
    static func unpackedSamples(_ decoded: DecodedPNG) -> [UInt8] {
        let header = decoded.header
        let depth = header.bitDepth
        guard depth < 8 else { return decoded.pixels }
        let samplesPerRow = header.width * header.colorType.channels
        let bytesPerRow = (samplesPerRow * depth + 7) / 8
        let mask = UInt8((1 << depth) - 1)
        var samples = [UInt8]()
        samples.reserveCapacity(samplesPerRow * header.height)
        for row in 0..<header.height {
            let start = row * bytesPerRow
            for index in 0..<samplesPerRow {
                let bit = index * depth
                let byte = decoded.pixels[start + bit / 8]
                samples.append((byte >> UInt8(8 - depth - bit % 8)) & mask)
            }
        }
        return samples
    }

    /// The `wrong-adler32` fault: adds one to the zlib trailer in the last IDAT chunk and
    /// recomputes that chunk's CRC, so only the Adler-32 is wrong.
    static func breakAdler32(_ png: inout [UInt8]) {
        var offset = 8
        var lastImageData: (start: Int, length: Int)?
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { lastImageData = (offset, length) }
            offset += 12 + length
        }
        guard let (start, length) = lastImageData, length >= 4 else { return }
        let trailer = start + 8 + length - 4
        let adler = png[trailer..<trailer + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } &+ 1
        for index in 0..<4 {
            png[trailer + index] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * UInt32(index)))
        }
        let crc = CRC32.checksum(of: png[start + 4..<start + 8 + length])
        for index in 0..<4 {
            png[trailer + 4 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index)))
        }
    }
}
