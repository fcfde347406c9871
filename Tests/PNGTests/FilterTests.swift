import Testing

@testable import PNG

/// The vector unfilter paths (Sub, Up, Average, Paeth on 3-, 4-, 6- and 8-byte pixels) against
/// a byte-at-a-time reference written from ISO/IEC 15948 §9, on every row length up to 40
/// bytes: the 4-byte stores of 3-byte pixels, the last pixel finished from a register and the
/// scalar tail all meet at the row's end. Each case runs into a separate row and in place
/// (source = destination), as the stored-block path and split rows use it.
struct FilterTests {
    /// The unfiltered row, one byte at a time (`Spec/png.md` §6.3).
    static func reference(
        filter: UInt8, _ row: [UInt8], above: [UInt8]?, bytesPerPixel: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: row.count)
        for index in row.indices {
            let a = index >= bytesPerPixel ? Int(out[index - bytesPerPixel]) : 0
            let b = above.map { Int($0[index]) } ?? 0
            let c = index >= bytesPerPixel ? above.map { Int($0[index - bytesPerPixel]) } ?? 0 : 0
            let predictor: Int
            switch filter {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            }
            out[index] = row[index] &+ UInt8(truncatingIfNeeded: predictor)
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 4, 6, 8])
    func vectorPathsMatchTheReference(bytesPerPixel: Int) {
        var bytes = TestBytes(seed: 0x1234_5678_9ABC_DEF0 &+ UInt64(bytesPerPixel))
        for pixels in 1...(40 / bytesPerPixel) {
            let count = pixels * bytesPerPixel
            for filter: UInt8 in 0...4 {
                for hasAbove in [false, true] {
                    let row = (0..<count).map { _ in bytes.next() }
                    let above = hasAbove ? (0..<count).map { _ in bytes.next() } : nil
                    let expected = Self.reference(
                        filter: filter, row, above: above, bytesPerPixel: bytesPerPixel)
                    for inPlace in [false, true] {
                        var source = row
                        var separate = [UInt8](repeating: 0xEE, count: count)
                        let succeeded = source.withUnsafeMutableBufferPointer { input in
                            separate.withUnsafeMutableBufferPointer { output in
                                withPrevious(above) { previous in
                                    PNGFilter.unfilter(
                                        filter: filter, source: UnsafePointer(input.baseAddress!),
                                        destination: inPlace ? input.baseAddress! : output.baseAddress!,
                                        previous: previous, count: count, bytesPerPixel: bytesPerPixel)
                                }
                            }
                        }
                        #expect(succeeded)
                        let result = inPlace ? source : separate
                        #expect(
                            result == expected,
                            "filter \(filter), \(bytesPerPixel) bytes a pixel, \(count) bytes, above: \(hasAbove), in place: \(inPlace)"
                        )
                    }
                }
            }
        }
    }

    /// The two-row Average and Paeth wavefronts against the reference applied row after row,
    /// for every row length they accept up to 40 bytes, in place and into separate rows.
    @Test(arguments: [3, 4], [UInt8(3), 4])
    func twoRowsMatchTheReference(bytesPerPixel: Int, filter: UInt8) {
        var bytes = TestBytes(seed: 0x0F1E_2D3C_4B5A_6978 &+ UInt64(bytesPerPixel) &+ UInt64(filter) << 8)
        for pixels in 3...(40 / bytesPerPixel) {
            let count = pixels * bytesPerPixel
            guard count >= 2 * bytesPerPixel + 4 else { continue }
            let above = (0..<count).map { _ in bytes.next() }
            let upper = (0..<count).map { _ in bytes.next() }
            let lower = (0..<count).map { _ in bytes.next() }
            let expectedUpper = Self.reference(
                filter: filter, upper, above: above, bytesPerPixel: bytesPerPixel)
            let expectedLower = Self.reference(
                filter: filter, lower, above: expectedUpper, bytesPerPixel: bytesPerPixel)
            for inPlace in [false, true] {
                // Both rows in one buffer, as in the output, with a guard byte after them.
                var rows = upper + lower + [0xA5]
                var separate = [UInt8](repeating: 0xEE, count: 2 * count + 1)
                rows.withUnsafeMutableBufferPointer { input in
                    separate.withUnsafeMutableBufferPointer { output in
                        above.withUnsafeBufferPointer { prior in
                            let source = input.baseAddress!
                            let destination = inPlace ? source : output.baseAddress!
                            PNGFilter.unfilterTwoRows(
                                filter: filter, upper: (UnsafePointer(source), destination),
                                lower: (UnsafePointer(source + count), destination + count),
                                above: prior.baseAddress!, count: count, pixelBytes: bytesPerPixel)
                        }
                    }
                }
                let result = inPlace ? rows : separate
                #expect(
                    Array(result[0..<2 * count]) == expectedUpper + expectedLower,
                    "filter \(filter), \(bytesPerPixel) bytes a pixel, \(count) bytes, in place: \(inPlace)")
                #expect(result[2 * count] == (inPlace ? 0xA5 : 0xEE), "wrote past the rows")
            }
        }
    }

    /// The four-row Paeth wavefront against the reference applied row after row, for every
    /// row length it accepts up to 64 bytes, in place and into separate rows, with rows
    /// further apart in the source than in the destination (the filter-type bytes between
    /// them), as the decoder hands it compressed data.
    @Test(arguments: [3, 4])
    func fourPaethRowsMatchTheReference(bytesPerPixel: Int) {
        var bytes = TestBytes(seed: 0x5EED_4444_0000_0000 &+ UInt64(bytesPerPixel))
        for pixels in 1...(64 / bytesPerPixel) {
            let count = pixels * bytesPerPixel
            guard count >= 8 * bytesPerPixel + 4 else { continue }
            let above = (0..<count).map { _ in bytes.next() }
            let rows = (0..<4).map { _ in (0..<count).map { _ in bytes.next() } }
            var expected: [UInt8] = []
            var prior = above
            for row in rows {
                prior = Self.reference(filter: 4, row, above: prior, bytesPerPixel: bytesPerPixel)
                expected += prior
            }
            for inPlace in [false, true] {
                // One byte between source rows unless in place, and a guard byte after the rows.
                let gap = inPlace ? 0 : 1
                var input: [UInt8] = rows.flatMap { $0 + [UInt8](repeating: 0x5A, count: gap) } + [0xA5]
                var separate = [UInt8](repeating: 0xEE, count: 4 * count + 1)
                input.withUnsafeMutableBufferPointer { source in
                    separate.withUnsafeMutableBufferPointer { output in
                        above.withUnsafeBufferPointer { prior in
                            PNGFilter.paethFourRows(
                                source: UnsafePointer(source.baseAddress!), sourceStride: count + gap,
                                destination: inPlace ? source.baseAddress! : output.baseAddress!,
                                destinationStride: count, above: prior.baseAddress!, count: count,
                                pixelBytes: bytesPerPixel)
                        }
                    }
                }
                let result = inPlace ? input : separate
                #expect(
                    Array(result[0..<4 * count]) == expected,
                    "\(bytesPerPixel) bytes a pixel, \(count) bytes, in place: \(inPlace)")
                #expect(result[4 * count] == (inPlace ? 0xA5 : 0xEE), "wrote past the rows")
            }
        }
    }

    /// The byte-lane Paeth predictor of the four-row wavefront, on every (a, b, c).
    @Test func paethInBytesMatchesThePredictorEverywhere() {
        var mismatches = 0
        let everyC = stride(from: 0, to: 256, by: 16).map { first in
            SIMD16<UInt8>((0..<16).map { UInt8(first + $0) })
        }
        for a in 0..<256 {
            for b in 0..<256 {
                for (group, c) in everyC.enumerated() {
                    let firstC = 16 * group
                    let predicted = PNGFilter.paethStepInBytes(
                        SIMD16(repeating: UInt8(a)), SIMD16(repeating: UInt8(b)), c)
                    for lane in 0..<16 {
                        let expected = PNGFilter.paethPredictor(Int16(a), Int16(b), Int16(firstC + lane))
                        if Int16(predicted[lane]) != expected { mismatches += 1 }
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// A Paeth row and the Up rows below it in one pass (`PNGFilter.paethThenUpRows`) against
    /// the reference applied row after row: every row length it accepts up to 200 bytes (the
    /// Up columns done inside the Paeth loop, 48 bytes behind it, and the rest after it), with
    /// 1 to 4 and 16 Up rows, each row in its own buffer with a guard byte after it.
    @Test(arguments: [3, 4])
    func paethThenUpRowsMatchTheReference(bytesPerPixel: Int) {
        var bytes = TestBytes(seed: 0x5A5A_0F0F_3C3C_9696 &+ UInt64(bytesPerPixel))
        for pixels in 2...(200 / bytesPerPixel) {
            let count = pixels * bytesPerPixel
            guard count >= bytesPerPixel + 4 else { continue }
            for upRows in [1, 2, 3, 4, 16] {
                let above = (0..<count).map { _ in bytes.next() }
                // Filtered rows as the piece holds them: a filter-type byte before each Up row.
                let rows = (0...upRows).map { _ in (0..<count).map { _ in bytes.next() } }
                var expected = [
                    Self.reference(filter: 4, rows[0], above: above, bytesPerPixel: bytesPerPixel)
                ]
                for row in rows.dropFirst() {
                    expected.append(
                        Self.reference(filter: 2, row, above: expected.last!, bytesPerPixel: bytesPerPixel))
                }
                let piece = rows.enumerated().flatMap { (index, row) -> [UInt8] in
                    index == 0 ? row : [2] + row
                }
                let outputStride = count + 1
                var output = [UInt8](repeating: 0xEE, count: (upRows + 1) * outputStride)
                piece.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { out in
                        above.withUnsafeBufferPointer { prior in
                            PNGFilter.paethThenUpRows(
                                paeth: (input.baseAddress!, out.baseAddress!), above: prior.baseAddress!,
                                up: (input.baseAddress! + count + 1, out.baseAddress! + outputStride),
                                upRows: upRows, sourceStride: count + 1, destinationStride: outputStride,
                                count: count, pixelBytes: bytesPerPixel)
                        }
                    }
                }
                for (index, row) in expected.enumerated() {
                    let start = index * outputStride
                    #expect(
                        Array(output[start..<start + count]) == row,
                        "\(bytesPerPixel) bytes a pixel, \(count) bytes, \(upRows) Up rows: row \(index)")
                    #expect(output[start + count] == 0xEE, "wrote past row \(index)")
                }
            }
        }
    }

    @Test func filterTypesAboveFourAreRejected() {
        var row: [UInt8] = [1, 2, 3]
        for filter: UInt8 in [5, 6, 255] {
            let accepted = row.withUnsafeMutableBufferPointer {
                PNGFilter.unfilter(
                    filter: filter, source: UnsafePointer($0.baseAddress!), destination: $0.baseAddress!,
                    previous: nil, count: 3, bytesPerPixel: 3)
            }
            #expect(!accepted)
        }
    }

    private func withPrevious<Result>(
        _ above: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> Result
    ) -> Result {
        guard let above else { return body(nil) }
        return above.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The test rows' bytes: a 64-bit linear congruential sequence, its high bits.
struct TestBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
