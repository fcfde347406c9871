import Foundation
import PNG

/// A PAM file that cannot be read as an image: printed as one line.
struct PAMError: Error, CustomStringConvertible {
    var reason: String
    var description: String { "PAM error: \(reason)" }
}

/// Netpbm PAM (P7) for the formats the codec handles: GRAYSCALE, GRAYSCALE_ALPHA, RGB,
/// RGB_ALPHA at MAXVAL 255 or 65535 (samples big-endian at 65535, like PNG).
enum PAM {
    static let tupleTypes: [String: (channels: Int, eightBit: PixelFormat, sixteenBit: PixelFormat)] = [
        "GRAYSCALE": (1, .gray8, .gray16), "GRAYSCALE_ALPHA": (2, .grayAlpha8, .grayAlpha16),
        "RGB": (3, .rgb8, .rgb16), "RGB_ALPHA": (4, .rgba8, .rgba16),
    ]

    static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let tupleType = tupleTypes.first {
            $0.value.eightBit == bitmap.format || $0.value.sixteenBit == bitmap.format
        }!
        let header =
            "P7\nWIDTH \(bitmap.width)\nHEIGHT \(bitmap.height)\nDEPTH \(bitmap.format.channels)\n"
            + "MAXVAL \(bitmap.format.bytesPerSample == 2 ? 65535 : 255)\nTUPLTYPE \(tupleType.key)\nENDHDR\n"
        return Array(header.utf8) + bitmap.pixels
    }

    static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        guard bytes.starts(with: Array("P7\n".utf8)) else {
            throw PAMError(reason: "the file does not start with the PAM magic 'P7'")
        }
        var fields: [String: String] = [:]
        var position = 3
        var ended = false
        while position < bytes.count {
            let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.count
            guard let line = String(bytes: bytes[position..<end], encoding: .ascii) else {
                throw PAMError(reason: "the header holds a non-ASCII line")
            }
            position = end + 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed == "ENDHDR" {
                ended = true
                break
            }
            let parts = trimmed.split(separator: " ", maxSplits: 1).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2 else {
                throw PAMError(reason: "the header line '\(trimmed)' has no value")
            }
            fields[parts[0]] = fields[parts[0]].map { $0 + " " + parts[1] } ?? parts[1]
        }
        guard ended else { throw PAMError(reason: "the header has no ENDHDR line") }
        func number(_ name: String) throws -> Int {
            guard let text = fields[name] else { throw PAMError(reason: "the header has no \(name)") }
            guard let value = Int(text), value > 0 else {
                throw PAMError(reason: "\(name) '\(text)' is not a positive integer")
            }
            return value
        }
        let width = try number("WIDTH")
        let height = try number("HEIGHT")
        let depth = try number("DEPTH")
        let maximum = try number("MAXVAL")
        guard let tuple = fields["TUPLTYPE"] else { throw PAMError(reason: "the header has no TUPLTYPE") }
        guard let type = tupleTypes[tuple] else {
            throw PAMError(reason: "TUPLTYPE \(tuple) is not GRAYSCALE, GRAYSCALE_ALPHA, RGB or RGB_ALPHA")
        }
        guard depth == type.channels else {
            throw PAMError(reason: "DEPTH \(depth) does not match TUPLTYPE \(tuple)")
        }
        guard maximum == 255 || maximum == 65535 else {
            throw PAMError(reason: "MAXVAL \(maximum) is not 255 or 65535")
        }
        let format = maximum == 255 ? type.eightBit : type.sixteenBit
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (expected, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o1, !o2 else { throw PAMError(reason: "a \(width)×\(height) image is too large") }
        let available = bytes.count - position
        guard available == expected else {
            throw PAMError(
                reason:
                    "the image needs \(expected) bytes of samples after ENDHDR but the file has \(available)")
        }
        return try Bitmap(width: width, height: height, format: format, pixels: Array(bytes[position...]))
    }
}
