import Checksums
import PNG

/// PNG decompression bombs for `imagecache bench png`: small files whose image data inflates
/// about 1,030 times, to an all-zero image (issue 14).
///
/// The zlib stream is one dynamic-Huffman block written by hand (RFC 1951 §3.2.7): a literal
/// zero, then matches of length 258 at distance 1, each coded in two bits (the length symbol
/// 285 and the distance symbol 0 have one-bit codes), then the remainder as literal zeros.
/// That is DEFLATE's largest possible expansion, so a file of about 1 MB reaches the 1 GiB the
/// default `PNGLimits` allow.
public struct DecompressionBomb: Sendable {
    public var width: Int
    public var height: Int
    public var colorType: PNGColorType
    public var bitDepth: Int
    public var interlaced: Bool

    public init(width: Int, height: Int, colorType: PNGColorType, bitDepth: Int, interlaced: Bool) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.interlaced = interlaced
    }

    /// A short name for reports, for example `bomb-16384x16384-rgba8-interlaced`.
    public var name: String {
        let kind =
            switch colorType {
            case .grayscale: "gray"
            case .truecolor: "rgb"
            case .indexed: "palette"
            case .grayscaleAlpha: "grayalpha"
            case .truecolorAlpha: "rgba"
            }
        return "bomb-\(width)x\(height)-\(kind)\(bitDepth)" + (interlaced ? "-interlaced" : "")
    }

    /// Bits per pixel: channels × bit depth.
    var bitsPerPixel: Int { colorType.channels * bitDepth }

    /// The decompressed size S of `Spec/png.md` §6.2: every row (of every Adam7 pass) with its
    /// filter byte.
    public var filteredSize: Int {
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [
                (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                (0, 1, 1, 2),
            ]
            : [(0, 0, 1, 1)]
        var size = 0
        for (x0, y0, dx, dy) in passes where width > x0 && height > y0 {
            let passWidth = (width - x0 + dx - 1) / dx
            let passHeight = (height - y0 + dy - 1) / dy
            size += passHeight * (1 + (passWidth * bitsPerPixel + 7) / 8)
        }
        return size
    }

    /// Every pixel of the bitmap `PNGDecoder.decodeBitmap` gives for the bomb, in `format`:
    /// zeros in a native format; opaque black in the RGBA conversion (palette entry 0 is
    /// black, gray 0 is black, and the bomb has no tRNS).
    public func pixel(in format: PixelFormat) -> [UInt8] {
        switch format {
        case .rgba8 where colorType != .truecolorAlpha: [0, 0, 0, 255]
        case .rgba16 where colorType != .truecolorAlpha: [0, 0, 0, 0, 0, 0, 255, 255]
        default: [UInt8](repeating: 0, count: format.bytesPerPixel)
        }
    }

    /// The PNG file: IHDR, a one-entry PLTE for palette images, one IDAT, IEND.
    public var file: [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
        header += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        bytes += Self.chunk("IHDR", header)
        if colorType == .indexed { bytes += Self.chunk("PLTE", [0, 0, 0]) }
        bytes += Self.chunk("IDAT", Self.zlibZeros(count: filteredSize))
        bytes += Self.chunk("IEND", [])
        return bytes
    }

    /// A zlib stream that inflates to `count` zero bytes (`count` ≥ 1).
    static func zlibZeros(count: Int) -> [UInt8] {
        var writer = ZeroBitWriter()
        writer.bytes = [0x78, 0xDA]
        writer.write(1, 1)  // BFINAL
        writer.write(2, 2)  // BTYPE = dynamic
        writer.write(286 - 257, 5)  // HLIT: literal/length symbols 0…285
        writer.write(1 - 1, 5)  // HDIST: one distance symbol
        writer.write(18 - 4, 4)  // HCLEN: code-length lengths up to symbol 1 in the send order
        // Code-length code: 18 → "0", 1 → "10", 2 → "11", in the order 16, 17, 18, 0, 8, 7, 9,
        // 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { writer.write(length, 3) }
        // Literal/length lengths: 0 → 2, 1…255 → 0, 256 → 2, 257…284 → 0, 285 → 1; then the
        // one distance length, 1. Codes: 285 → "0", 0 → "10", 256 → "11"; distance 0 → "0".
        let two = (0b11, 2)
        let one = (0b01, 2)  // "10" sent most significant bit first
        let zeroRun = (0, 1)  // symbol 18
        func code(_ symbol: (Int, Int)) { writer.write(symbol.0, symbol.1) }
        code(two)
        code(zeroRun)
        writer.write(138 - 11, 7)
        code(zeroRun)
        writer.write(117 - 11, 7)
        code(two)
        code(zeroRun)
        writer.write(28 - 11, 7)
        code(one)
        code(one)
        // Data: one literal zero, the matches of 258 (two zero bits each), literal zeros for
        // the rest, end of block.
        writer.write(0b01, 2)
        let matches = (count - 1) / 258
        writer.writeZeroBits(2 * matches)
        for _ in 0..<((count - 1) % 258) { writer.write(0b01, 2) }
        writer.write(0b11, 2)
        writer.flush()
        // Adler-32 of `count` zeros: a stays 1 and b adds 1 per byte.
        let adler = UInt32(count % 65_521) << 16 | 1
        return writer.bytes + bigEndian(adler)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(of: body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}

/// Writes bits least significant first (RFC 1951 §3.1.1), with a fast run of zero bits.
private struct ZeroBitWriter {
    var bytes: [UInt8] = []
    var buffer = 0
    var count = 0

    mutating func write(_ value: Int, _ bitCount: Int) {
        buffer |= value << count
        count += bitCount
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func writeZeroBits(_ bitCount: Int) {
        var left = bitCount
        while left > 0 && count != 0 {
            write(0, 1)
            left -= 1
        }
        bytes.append(contentsOf: repeatElement(0, count: left / 8))
        write(0, left % 8)
    }

    mutating func flush() {
        if count > 0 { write(0, 8 - count) }
    }
}
