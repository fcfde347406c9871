import Testing

@testable import Inflate

/// The fast literal/length table (`Spec/deflate.md` §5.4) is built code by code. Every slot
/// must hold what its definition gives when worked out slot by slot from the main table: two
/// literals where both codes fit in the root, a length with its extra bits where they fit,
/// and otherwise the main table's own entry.
@Suite struct FastTableTests {
    static let rootBits = HuffmanTableBuilder.literalRootBits

    /// The fast table's definition, one slot at a time.
    static func expectedFastTable(from table: UnsafePointer<UInt32>) -> [UInt32] {
        let flags = HuffmanEntry.literal | HuffmanEntry.subtable | HuffmanEntry.exceptional
        return (0..<1 << rootBits).map { index in
            let entry = table[index]
            let length = Int(entry & HuffmanEntry.lengthMask)
            if entry & flags == HuffmanEntry.literal {
                let next = table[index >> length]
                let nextLength = Int(next & HuffmanEntry.lengthMask)
                if next & flags == HuffmanEntry.literal && length + nextLength <= rootBits {
                    return (entry & 0xFF_0000) | (next & 0xFF_0000) << 8 | HuffmanEntry.literal
                        | HuffmanEntry.pair | UInt32(length + nextLength)
                }
            } else if entry & flags == 0 {
                let extra = Int(HuffmanEntry.extraBits(entry))
                if extra > 0 && length <= rootBits {
                    let code = Int(HuffmanEntry.codeLength(entry))
                    let value = (entry >> 16) + UInt32(index >> code & ((1 << extra) - 1))
                    return value << 16 | UInt32(length) << 8 | UInt32(length)
                }
            }
            return entry
        }
    }

    /// A complete code of `symbolCount` codes with random lengths up to 15, given to random
    /// symbols of the 288: leaves split at random until there are enough of them.
    static func randomLengths(symbolCount: Int, generator: inout SplitMix64) -> [UInt8] {
        var leaves = [0]
        while leaves.count < symbolCount {
            let candidates = leaves.indices.filter { leaves[$0] < 15 }
            let split = candidates[generator.below(candidates.count)]
            leaves[split] += 1
            leaves.append(leaves[split])
        }
        var symbols = Array(0..<288)
        for index in symbols.indices.reversed() {
            symbols.swapAt(index, generator.below(index + 1))
        }
        var lengths = [UInt8](repeating: 0, count: 288)
        for (leaf, symbol) in zip(leaves, symbols) { lengths[symbol] = UInt8(leaf) }
        return lengths
    }

    /// Builds the main and fast tables for `lengths` and compares the fast one with its
    /// slot-by-slot definition; returns how many slots hold a pair or a folded length.
    static func checkFastTable(lengths: [UInt8]) throws -> Int {
        let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: Inflater.tablesCapacity)
        defer { tables.deallocate() }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << rootBits)
        defer { scratch.deallocate() }
        let sorted = UnsafeMutablePointer<UInt16>.allocate(capacity: 320)
        defer { sorted.deallocate() }
        var codeLengths = lengths + [UInt8](repeating: 0, count: 32)
        codeLengths[288] = 1
        codeLengths[289] = 1
        try codeLengths.withUnsafeBufferPointer { buffer in
            try HuffmanTableBuilder.buildBlockTables(
                codeLengths: buffer.baseAddress!, literalCount: 288, distanceCount: 2, into: tables,
                pairLiterals: true, scratch: scratch, sorted: sorted)
        }
        let expected = expectedFastTable(from: tables + Inflater.literalTableOffset)
        let built = Array(UnsafeBufferPointer(start: tables, count: 1 << rootBits))
        let wrong = (0..<expected.count).filter { expected[$0] != built[$0] }
        #expect(wrong.count == 0, "slots \(wrong.prefix(8)) differ")
        let main = tables + Inflater.literalTableOffset
        return (0..<expected.count).count { expected[$0] != main[$0] }
    }

    @Test func randomCompleteCodes() throws {
        var generator = SplitMix64(state: 20_261_130)
        var folded = 0
        for trial in 0..<400 {
            let symbolCount = 2 + generator.below(trial % 4 == 0 ? 30 : 287)
            folded += try Self.checkFastTable(
                lengths: Self.randomLengths(symbolCount: symbolCount, generator: &generator))
        }
        // The comparison must have had pairs and folded lengths to check.
        #expect(folded > 10_000)
    }

    @Test func fixedCode() throws {
        let lengths = (0..<288).map { symbol -> UInt8 in
            switch symbol {
            case 0..<144: 8
            case 144..<256: 9
            case 256..<280: 7
            default: 8
            }
        }
        #expect(try Self.checkFastTable(lengths: lengths) > 0)
    }

    @Test func singleOneBitCode() throws {
        for symbol in [0, 65, 255, 256, 270] {
            var lengths = [UInt8](repeating: 0, count: 288)
            lengths[symbol] = 1
            _ = try Self.checkFastTable(lengths: lengths)
        }
    }
}
