import Checksums
import Testing

@testable import PNG

/// A zlib stream of fixed-Huffman blocks holding only literals (RFC 1951 §3.2.6), written by
/// the test on its own: data that the stored-block fast path cannot take, so the streaming
/// inflate and row assembly decode it.
func literalZlib(_ data: [UInt8], blockLength: Int = 50_000) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var buffer: UInt64 = 0
    var count = 0
    func write(_ value: Int, _ bits: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            out.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }
    func code(_ value: Int, _ length: Int) {
        var reversed = 0
        for bit in 0..<length { reversed |= (value >> bit & 1) << (length - 1 - bit) }
        write(reversed, length)
    }
    var offset = 0
    repeat {
        let end = min(data.count, offset + blockLength)
        write(end == data.count ? 1 : 0, 1)
        write(1, 2)
        for byte in data[offset..<end] {
            if byte < 144 { code(0x30 + Int(byte), 8) } else { code(0x190 + Int(byte) - 144, 9) }
        }
        code(0, 7)
        offset = end
    } while offset < data.count
    if count > 0 { write(0, 8 - count) }
    return out + PNGFile.bigEndian(Adler32.checksum(of: data))
}

/// The streaming decode (`Spec/png.md` §6, §10.2): rows assembled from pieces of any size
/// give the same pixels, bitmap and errors as decoding the whole stream at once would.
@Suite struct StreamingDecodeTests {
    /// Every colour type and bit depth PNG allows.
    static let formats: [(colorType: UInt8, depth: Int)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16), (6, 8), (6, 16),
    ]

    static func palette(depth: Int) -> [UInt8] {
        PNGFile.chunk("PLTE", (0..<(3 * min(256, 1 << depth))).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    }

    /// A tRNS chunk for the colour type, or nothing where tRNS is not allowed.
    static func transparency(colorType: UInt8, depth: Int) -> [[UInt8]] {
        switch colorType {
        case 0: [PNGFile.chunk("tRNS", [0, 1])]
        case 2: [PNGFile.chunk("tRNS", [0, 1, 0, 2, 0, 3])]
        case 3: [PNGFile.chunk("tRNS", Array([0, 99, 200].prefix(1 << depth)))]
        default: []
        }
    }

    /// Native pixels, the bitmap, and the bitmap against `decode(_:).bitmap()`, for every
    /// format, with and without Adam7 and tRNS, stored and compressed, in one IDAT or many.
    @Test func everyFormatDecodesAlikeThroughTheStream() throws {
        var checked = 0
        for (index, format) in Self.formats.enumerated() {
            for (width, height) in [(1, 1), (7, 5), (33, 9)] {
                let image = TestImage(
                    width: width, height: height, colorType: format.colorType, depth: format.depth,
                    seed: UInt64(index * 100 + width))
                let palette = format.colorType == 3 ? [Self.palette(depth: format.depth)] : []
                for interlaced in [false, true] {
                    for extra in [
                        palette,
                        palette + Self.transparency(colorType: format.colorType, depth: format.depth),
                    ] {
                        for (zlib, idatLength) in [
                            ({ storedZlib($0, blockLength: 11) }, 7),
                            ({ literalZlib($0, blockLength: 13) }, .max),
                            ({ literalZlib($0) }, 5),
                        ] as [(([UInt8]) -> [UInt8], Int)] {
                            let file = image.file(
                                interlaced: interlaced, extra: extra, zlib: zlib, idatLength: idatLength)
                            let decoded = try PNGDecoder().decode(file)
                            #expect(
                                decoded.pixels == image.packed, "\(format) \(width)x\(height) \(interlaced)")
                            #expect(try PNGDecoder().decodeBitmap(file) == decoded.bitmap())
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 15 * 3 * 2 * 2 * 3)
    }

    /// Rows longer than the inflate window arrive in several pieces and are gathered at their
    /// destination before they are unfiltered; rows shorter than it straddle piece borders.
    @Test func rowsLongerThanTheWindow() throws {
        for (width, height, colorType, depth) in [
            (66_000, 2, UInt8(6), 8), (9_000, 12, 3, 8), (200, 150, 2, 16),
        ] {
            let image = TestImage(width: width, height: height, colorType: colorType, depth: depth, seed: 7)
            let palette = colorType == 3 ? [Self.palette(depth: depth)] : []
            for interlaced in [false, true] {
                let file = image.file(interlaced: interlaced, extra: palette, zlib: { literalZlib($0) })
                let decoded = try PNGDecoder().decode(file)
                #expect(decoded.pixels == image.packed, "\(width)x\(height) interlaced \(interlaced)")
                #expect(try PNGDecoder().decodeBitmap(file) == decoded.bitmap())
            }
        }
    }

    /// Paeth rows followed by Up rows, which the row assembler unfilters in one pass
    /// (`PNGFilter.paethThenUpRows`): runs of 5 and of 20 Up rows (past the 16 it takes at
    /// once), up to the image's last row, on 3- and 4-byte pixels, in rows shorter and longer
    /// than the pass's 48-byte lag, and in an image larger than one inflate window, so that
    /// pieces end inside a run.
    @Test func paethRowsFollowedByUpRowsDecodeAlike() throws {
        for (width, height, colorType) in [
            (2, 30, UInt8(2)), (7, 30, 2), (7, 30, 6), (100, 45, 2), (100, 45, 6), (2_000, 70, 2),
        ] {
            let image = TestImage(width: width, height: height, colorType: colorType, depth: 8, seed: 11)
            for run in [6, 21] {
                let file = image.file(filters: { $0 % run == 1 ? 4 : 2 }, zlib: { literalZlib($0) })
                let decoded = try PNGDecoder().decode(file)
                #expect(
                    decoded.pixels == image.packed,
                    "\(width)x\(height) colour type \(colorType), runs of \(run)")
                #expect(try PNGDecoder().decodeBitmap(file) == decoded.bitmap())
            }
        }
    }

    /// Runs of 1 to 9 Paeth rows between Sub rows, and a run of 7 that ends the image, which
    /// both decode paths unfilter four rows at a time where they can
    /// (`PNGFilter.paethFourRows`): through stored blocks (rows copied one by one, a Paeth
    /// row waiting for three more) with blocks that end inside rows, and through compressed
    /// data whose pieces end inside runs, on 3- and 4-byte pixels, on rows just too short for
    /// it (9 pixels of 3 bytes), just long enough and longer.
    @Test func runsOfPaethRowsDecodeAlike() throws {
        var schedule: [UInt8] = []
        for run in 1...9 { schedule += [UInt8](repeating: 4, count: run) + [1] }
        schedule += [UInt8](repeating: 4, count: 7)
        for (width, colorType) in [(9, UInt8(2)), (10, 2), (8, 6), (9, 6), (333, 2), (250, 6)] {
            let image = TestImage(
                width: width, height: schedule.count, colorType: colorType, depth: 8, seed: 29)
            let zlibs: [([UInt8]) -> [UInt8]] = [
                { storedZlib($0) }, { storedZlib($0, blockLength: 1_000) },
                { literalZlib($0, blockLength: 1_000) },
            ]
            for (index, zlib) in zlibs.enumerated() {
                let file = image.file(filters: { schedule[$0] }, zlib: zlib)
                let decoded = try PNGDecoder().decode(file)
                #expect(
                    decoded.pixels == image.packed,
                    "\(width) pixels wide, colour type \(colorType), stream \(index)")
                #expect(try PNGDecoder().decodeBitmap(file) == decoded.bitmap())
            }
        }
    }

    /// An invalid filter type is reported only when the stream itself is sound: a corrupt
    /// stream, too much data and too little data all come first (`Spec/png.md` §6.2, §6.3).
    @Test func streamErrorsComeBeforeFilterErrors() throws {
        let image = TestImage(width: 20, height: 6, colorType: 2, depth: 8, seed: 3)
        let badFilter: (Int) -> UInt8 = { $0 == 2 ? 7 : 1 }
        let filtered = image.filtered(interlaced: false, filters: badFilter)
        func file(_ stream: [UInt8]) -> [UInt8] {
            PNGFile.file(
                PNGFile.header(width: 20, height: 6, depth: 8, colorType: 2), PNGFile.chunk("IDAT", stream),
                PNGFile.end)
        }
        for zlib in [{ storedZlib($0) }, { literalZlib($0, blockLength: 17) }] as [([UInt8]) -> [UInt8]] {
            #expect(throws: PNGError.invalidFilterType(row: 2, filter: 7)) {
                try PNGDecoder().decode(file(zlib(filtered)))
            }
            var corrupt = zlib(filtered)
            corrupt[corrupt.count - 1] ^= 0xFF
            let adler = Adler32.checksum(of: filtered)
            #expect(
                throws: PNGError.compression(.adlerMismatch(declared: adler ^ 0xFF, computed: adler))
            ) { try PNGDecoder().decode(file(corrupt)) }
            #expect(throws: PNGError.imageDataTooLong(expected: filtered.count)) {
                try PNGDecoder().decode(file(zlib(filtered + [0])))
            }
            #expect(throws: PNGError.imageDataTooShort(expected: filtered.count, actual: filtered.count - 1))
            {
                try PNGDecoder().decode(file(zlib(Array(filtered.dropLast()))))
            }
            #expect(throws: PNGError.compression(.truncatedInput)) {
                try PNGDecoder().decodeBitmap(file(Array(zlib(filtered).dropLast(5))))
            }
        }
    }

    /// The row of an invalid filter type counts the filtered rows of all passes in order.
    @Test func filterErrorRowCountsEveryPass() throws {
        let image = TestImage(width: 9, height: 9, colorType: 0, depth: 4, seed: 5)
        for bad in [0, 3, 11, 18] {
            let file = image.file(
                interlaced: true, filters: { $0 == bad ? 5 : UInt8($0 % 5) }, zlib: { literalZlib($0) })
            #expect(throws: PNGError.invalidFilterType(row: bad, filter: 5)) { try PNGDecoder().decode(file) }
            #expect(throws: PNGError.invalidFilterType(row: bad, filter: 5)) {
                try PNGDecoder().decodeBitmap(file)
            }
        }
    }
}
