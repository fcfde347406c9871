import Testing

@testable import PNG

/// The stored-block path unfilters each row as soon as it is copied, two Paeth rows at a time
/// (`StoredImageData`): every filter sequence, row split across blocks and chunks, and an
/// invalid filter type must give the pixels (or the error) of the general path.
struct StoredPathTests {
    /// Filter sequences with runs of Paeth of every parity, Paeth first and last.
    static let sequences: [[UInt8]] = [
        [4, 4, 4, 4, 4, 4], [0, 4, 4, 4, 1, 4], [4, 1, 4, 4, 2, 4], [3, 4, 2, 4, 4, 4],
        [1, 2, 3, 4, 0, 4], [2, 4, 4, 3, 4, 4],
    ]

    @Test(arguments: [(8, UInt8(2)), (8, UInt8(6)), (8, UInt8(0)), (16, UInt8(4)), (8, UInt8(4))])
    func everyFilterSequenceMatchesTheRawPixels(depth: Int, colorType: UInt8) throws {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colorType)]!
        let bytesPerPixel = channels * depth / 8
        for width in [1, 2, 3, 5, 7, 16, 33] {
            for (index, sequence) in Self.sequences.enumerated() {
                let height = sequence.count
                let rowBytes = width * bytesPerPixel
                let pixels = randomBytes(rowBytes * height, seed: UInt64(width * 100 + index))
                let filtered = filterRows(pixels, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel) {
                    sequence[$0]
                }
                for blockLength in [7, 50, 65_535] {
                    let stream = storedZlib(filtered, blockLength: blockLength)
                    // The stream in one IDAT, and in chunks of 13 bytes.
                    for chunkLength in [stream.count, 13] {
                        var chunks: [UInt8] = []
                        var offset = 0
                        while offset < stream.count {
                            let end = min(stream.count, offset + chunkLength)
                            chunks += PNGFile.chunk("IDAT", Array(stream[offset..<end]))
                            offset = end
                        }
                        let file = PNGFile.file(
                            PNGFile.header(
                                width: width, height: height, depth: UInt8(depth), colorType: colorType),
                            chunks, PNGFile.end)
                        let decoded = try PNGDecoder().decode(file)
                        #expect(
                            decoded.pixels == pixels,
                            "width \(width), filters \(sequence), blocks of \(blockLength), chunks of \(chunkLength)"
                        )
                    }
                }
            }
        }
    }

    /// An invalid filter type after a pending Paeth row: the stored path gives up and the
    /// general one reports the row and the type.
    @Test func anInvalidFilterTypeIsReportedByTheGeneralPath() {
        let width = 5
        let rowBytes = width * 3
        for badRow in 0..<4 {
            let pixels = randomBytes(rowBytes * 4, seed: UInt64(badRow))
            var filtered = filterRows(pixels, rowBytes: rowBytes, bytesPerPixel: 3) { _ in 4 }
            filtered[badRow * (rowBytes + 1)] = 5
            let file = PNGFile.file(
                PNGFile.header(width: width, height: 4, depth: 8, colorType: 2),
                PNGFile.chunk("IDAT", storedZlib(filtered, blockLength: 9)), PNGFile.end)
            #expect(throws: PNGError.invalidFilterType(row: badRow, filter: 5)) {
                try PNGDecoder().decode(file)
            }
        }
    }
}
