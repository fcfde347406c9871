import Checksums
import Inflate
import Testing

/// Streams from Python's zlib at levels 0, 1, 6, 9 and the Z_FIXED, Z_HUFFMAN_ONLY and Z_RLE
/// strategies decode to the exact bytes they were made from (`Spec/deflate.md` §2–§4).
@Suite struct ZlibFixtureTests {
    @Test(arguments: ZlibFixture.all)
    func decodesTheExactBytes(_ fixture: ZlibFixture) throws {
        let expected = fixture.data.bytes
        #expect(CRC32.checksum(of: expected) == fixture.outputCRC32)
        let stream = fixture.stream
        #expect(Int(stream[2] >> 1 & 3) == fixture.firstBlockType)

        #expect(try Decompressor.zlibDecompress(stream) == expected)
        #expect(
            try Decompressor.zlibDecompress(stream, expectedSize: expected.count, limit: expected.count)
                == expected)
        // A wrong size hint only costs reallocations.
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: 1) == expected)
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: 10 * expected.count) == expected)
        #expect(try Decompressor.rawInflate(Array(stream[2..<(stream.count - 4)])) == expected)
        #expect(ReferenceInflater.zlib(stream) == .success(expected))
    }

    @Test(arguments: ZlibFixture.all)
    func stopsAtTheLimit(_ fixture: ZlibFixture) {
        let limit = fixture.data.bytes.count - 1
        #expect(throws: InflateError.outputLimitExceeded(limit: limit)) {
            try Decompressor.zlibDecompress(fixture.stream, expectedSize: limit + 1, limit: limit)
        }
        #expect(throws: InflateError.outputLimitExceeded(limit: limit)) {
            try Decompressor.zlibDecompress(fixture.stream, limit: limit)
        }
    }

    @Test func fixturesCoverEveryBlockTypeAndVariant() {
        #expect(Set(ZlibFixture.all.map(\.firstBlockType)) == [0, 1, 2])
        let variants = Set(ZlibFixture.all.map(\.variant))
        #expect(
            variants == [
                "level0", "level1", "level6", "level9", "fixed", "huffmanOnly", "rle",
                "smallBlocks",
            ])
    }

    /// zlib's own encoding of no data: a fixed block holding only end of block.
    @Test func emptyStream() throws {
        let stream: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        #expect(try Decompressor.zlibDecompress(stream) == [])
        #expect(try Decompressor.zlibDecompress(stream, expectedSize: 0, limit: 0) == [])
        #expect(try Decompressor.rawInflate([0x03, 0x00]) == [])
        // A final empty stored block.
        #expect(
            try Decompressor.rawInflate([0x01, 0x00, 0x00, 0xFF, 0xFF], expectedSize: 0, limit: 0) == [])
    }

    /// Bytes after the Adler-32 are ignored (`Spec/deflate.md` §2.4).
    @Test func trailingBytesAreIgnored() throws {
        let fixture = ZlibFixture.all.first { $0.data == .text && $0.variant == "level6" }!
        let expected = fixture.data.bytes
        #expect(try Decompressor.zlibDecompress(fixture.stream + [0x00, 0xFF, 0x78]) == expected)
        // And after the final block of raw DEFLATE data.
        var writer = DeflateWriter()
        writer.fixed([.literal(65)], final: true)
        #expect(try Decompressor.rawInflate(writer.deflate + [0xDE, 0xAD]) == [65])
    }

    /// The pointer-based entry points agree with the array ones.
    @Test func pointerEntryPoints() throws {
        let fixture = ZlibFixture.all.first { $0.data == .gradient && $0.variant == "level9" }!
        let expected = fixture.data.bytes
        let stream = fixture.stream
        let zlib = try stream.withUnsafeBytes { bytes in
            try Decompressor.zlibDecompress(bytes, expectedSize: expected.count, limit: .max)
        }
        #expect(zlib == expected)
        let raw = try Array(stream[2..<(stream.count - 4)]).withUnsafeBytes { bytes in
            try Decompressor.rawInflate(bytes, expectedSize: nil, limit: expected.count)
        }
        #expect(raw == expected)
    }
}
