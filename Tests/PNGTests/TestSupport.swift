import Foundation
import Testing

@testable import Checksums
@testable import PNG

/// Builds PNG files chunk by chunk, so tests can make any valid or broken structure.
struct PNGFile {
    var chunks: [[UInt8]] = []

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk with its length and a correct CRC-32.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var bytes = bigEndian(UInt32(data.count))
        let body = Array(type.utf8) + data
        bytes += body
        bytes += bigEndian(CRC32.checksum(of: body))
        return bytes
    }

    static func header(
        width: Int, height: Int, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
        compression: UInt8 = 0, filter: UInt8 = 0
    ) -> [UInt8] {
        chunk(
            "IHDR",
            bigEndian(UInt32(truncatingIfNeeded: width)) + bigEndian(UInt32(truncatingIfNeeded: height))
                + [depth, colorType, compression, filter, interlace])
    }

    static let end = chunk("IEND", [])

    /// Signature plus the given chunks.
    static func file(_ chunks: [UInt8]...) -> [UInt8] {
        signature + chunks.flatMap { $0 }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// A zlib stream of stored blocks of at most `blockLength` bytes (RFC 1950/1951), written by
/// the test independently of the encoder under test.
func storedZlib(_ data: [UInt8], blockLength: Int = 65_535) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let length = min(blockLength, data.count - offset)
        let final: UInt8 = offset + length == data.count ? 1 : 0
        out += [
            final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
            UInt8((~length >> 8) & 0xFF),
        ]
        out += data[offset..<offset + length]
        offset += length
    } while offset < data.count
    out += PNGFile.bigEndian(Adler32.checksum(of: data))
    return out
}

/// Forward PNG filtering, written independently of the decoder: applies `filter` (0–4) to
/// every row of `rows` (unfiltered, `rowBytes` each) and prepends the filter byte.
func filterRows(_ rows: [UInt8], rowBytes: Int, bytesPerPixel: Int, filters: (Int) -> UInt8) -> [UInt8] {
    var out: [UInt8] = []
    let height = rowBytes == 0 ? 0 : rows.count / rowBytes
    for y in 0..<height {
        let filter = filters(y)
        out.append(filter)
        for i in 0..<rowBytes {
            let x = Int(rows[y * rowBytes + i])
            let a = i >= bytesPerPixel ? Int(rows[y * rowBytes + i - bytesPerPixel]) : 0
            let b = y > 0 ? Int(rows[(y - 1) * rowBytes + i]) : 0
            let c = y > 0 && i >= bytesPerPixel ? Int(rows[(y - 1) * rowBytes + i - bytesPerPixel]) : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let pa = abs(p - a)
                let pb = abs(p - b)
                let pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
            out.append(UInt8(truncatingIfNeeded: x - predictor))
        }
    }
    return out
}

/// A deterministic pseudo-random generator (SplitMix64), so every run sees the same bytes.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        let word = generator.next()
        for shift in stride(from: 0, to: 64, by: 8) where index < count {
            bytes[index] = UInt8(truncatingIfNeeded: word >> UInt64(shift))
            index += 1
        }
    }
    return bytes
}

/// The PngSuite images, committed in `Tests/Fixtures/PngSuite` (their licence allows it;
/// see `LICENSE` there), and the other fixtures in `Tests/Fixtures/PNG`. A missing file throws,
/// so a test that needs it fails instead of passing without checking.
enum PngSuite {
    struct MissingFixture: Error, CustomStringConvertible {
        var path: String
        var description: String { "the fixture \(path) is missing from the repository" }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let directory = fixtures.appendingPathComponent("PngSuite")

    /// The bytes of PngSuite image `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        try contents(of: directory.appendingPathComponent(name))
    }

    /// The bytes of `Tests/Fixtures/PNG/name`.
    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        try contents(of: fixtures.appendingPathComponent("PNG/" + name))
    }

    /// The text of `Tests/Fixtures/PNG/name`.
    static func fixture(_ name: String) throws -> String {
        String(decoding: try fixtureBytes(name), as: UTF8.self)
    }

    static func contents(of url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw MissingFixture(path: url.path)
        }
        return [UInt8](data)
    }
}
