import Testing

@testable import PNG

@Suite struct EncoderTests {
    /// A 1×1 gray8 image with sample 0x7F, every byte worked out by hand from Spec/png.md §2.
    /// The two chunk CRCs were computed independently (Python's zlib.crc32).
    @Test func canonicalBytesOfATinyImage() throws {
        let bitmap = try Bitmap(width: 1, height: 1, format: .gray8, pixels: [0x7F])
        let expected: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,  // signature
            0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,  // IHDR, length 13
            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,  // width 1, height 1
            0x08, 0x00, 0x00, 0x00, 0x00,  // depth 8, colour type 0, compression, filter, interlace
            0x3A, 0x7E, 0x9B, 0x55,  // CRC
            0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54,  // IDAT, length 13
            0x78, 0x01,  // zlib header
            0x01, 0x02, 0x00, 0xFD, 0xFF,  // final stored block, LEN 2, NLEN
            0x00, 0x7F,  // filter byte 0, the sample
            0x00, 0x81, 0x00, 0x80,  // Adler-32: b = 129, a = 128
            0x7C, 0x4B, 0x6C, 0xA3,  // CRC
            0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,  // IEND
        ]
        #expect(try PNGEncoder.encode(bitmap) == expected)
    }

    @Test(arguments: [(0, 1), (1, 0), (-1, 5), (Int(Int32.max) + 1, 1), (1, Int(Int32.max) + 1)])
    func rejectsInvalidDimensions(width: Int, height: Int) {
        #expect(throws: PNGError.invalidDimensions(width: width, height: height)) {
            try Bitmap(width: width, height: height, format: .rgb8, pixels: [])
        }
    }

    @Test func rejectsABufferOfTheWrongLength() {
        #expect(throws: PNGError.invalidPixelBufferLength(expected: 24, actual: 23)) {
            try Bitmap(width: 3, height: 2, format: .rgba8, pixels: [UInt8](repeating: 0, count: 23))
        }
        // The encoder checks again: the fields of a Bitmap are mutable.
        var bitmap = try! Bitmap(width: 2, height: 2, format: .gray16, pixels: [UInt8](repeating: 0, count: 8))
        bitmap.width = 3
        #expect(throws: PNGError.invalidPixelBufferLength(expected: 12, actual: 8)) {
            try PNGEncoder.encode(bitmap)
        }
    }

    @Test func rejectsAnImageWhoseSizeOverflows() {
        var bitmap = try! Bitmap(width: 1, height: 1, format: .rgba16, pixels: [UInt8](repeating: 0, count: 8))
        bitmap.width = Int(Int32.max)
        bitmap.height = Int(Int32.max)
        #expect(throws: PNGError.imageTooLarge(width: Int(Int32.max), height: Int(Int32.max))) {
            try PNGEncoder.encode(bitmap)
        }
    }

    /// Stored blocks hold 65,535 bytes and IDAT chunks 1 MiB: check the split of a file whose
    /// filtered data spans several of each (Spec/png.md §2.4, §2.5).
    @Test func splitsBlocksAndChunksAsSpecified() throws {
        let width = 700, height = 500  // rgb8: 2,101 filtered bytes per row, 1,050,500 in all
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = try PNGEncoder.encode(Bitmap(width: width, height: height, format: .rgb8, pixels: pixels))
        let filtered = 2_101 * 500
        let blocks = (filtered + 65_534) / 65_535
        let zlib = 2 + 5 * blocks + filtered + 4
        #expect(blocks == 17)
        // First IDAT is 1 MiB, the second holds the rest.
        #expect(Array(file[33..<41]) == [0x00, 0x10, 0x00, 0x00, 0x49, 0x44, 0x41, 0x54])
        let second = 33 + 12 + 1_048_576
        let rest = zlib - 1_048_576
        #expect(Array(file[second..<second + 4]) == [0, UInt8(rest >> 16), UInt8((rest >> 8) & 0xFF), UInt8(rest & 0xFF)])
        #expect(file.count == 33 + 24 + zlib + 12)
        // The first stored block header follows the zlib header: not final, LEN 65535.
        #expect(Array(file[41..<48]) == [0x78, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00])
    }
}
