/// The fixed code's tables (RFC 1951 §3.2.6), built once per process and shared, read-only, by
/// every decoder, as zlib keeps its fixed tables: a small file's fixed block used to rebuild
/// them each time, about 26,600 instructions before a few hundred bytes of output (7.6% of
/// decoding the PngSuite files, by callgrind).
///
/// The code has all 288 literal/length and 32 distance symbols, so the reserved ones decode
/// to `invalidSymbol` (`Spec/deflate.md` §5.3). The layout is the one `Inflater.tables`
/// describes; its fast table always pairs literals and folds length extra bits, since the cost
/// is paid once.
final class FixedHuffmanTables: @unchecked Sendable {
    /// The tables, written once in `init` and never again, so any thread may read them.
    let tables: UnsafePointer<UInt32>

    static let shared = FixedHuffmanTables()

    private init() {
        let codeLengths = UnsafeMutablePointer<UInt8>.allocate(capacity: 288 + 32)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << HuffmanTableBuilder.literalRootBits)
        let sorted = UnsafeMutablePointer<UInt16>.allocate(capacity: HuffmanTableBuilder.sortedCapacity)
        defer {
            codeLengths.deallocate()
            scratch.deallocate()
            sorted.deallocate()
        }
        for symbol in 0..<288 {
            codeLengths[symbol] =
                switch symbol {
                case 0..<144: 8
                case 144..<256: 9
                case 256..<280: 7
                default: 8
                }
        }
        (codeLengths + 288).update(repeating: 5, count: 32)
        let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: Inflater.tablesCapacity)
        do {
            try HuffmanTableBuilder.buildBlockTables(
                codeLengths: codeLengths, literalCount: 288, distanceCount: 32, into: tables,
                pairLiterals: true, scratch: scratch, sorted: sorted)
        } catch {
            // The fixed code is complete and not oversubscribed; the builder cannot reject it.
            preconditionFailure("the fixed Huffman code was rejected: \(error)")
        }
        self.tables = UnsafePointer(tables)
    }
}
