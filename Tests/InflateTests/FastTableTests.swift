import Testing

@testable import Inflate

/// The fast literal/length table (`Spec/deflate.md` §5.4) is built code by code. Every slot
/// must hold what its definition gives when worked out slot by slot from the main table and
/// the distance table: two literals where both codes fit in the root, a length with its extra
/// bits where they fit, and the distance code after it too where that fits as well (its base
/// beside, in the distance bases), and otherwise the main table's own entry.
@Suite struct FastTableTests {
    static let rootBits = HuffmanTableBuilder.literalRootBits

    /// The fast table's definition, one slot at a time, and the distance base each match slot
    /// must have (nil for other slots).
    static func expectedFastTable(from table: UnsafePointer<UInt32>, distances: UnsafePointer<UInt32>)
        -> [(entry: UInt32, distanceBase: UInt16?)]
    {
        let flags = HuffmanEntry.literal | HuffmanEntry.subtable | HuffmanEntry.exceptional
        return (0..<1 << rootBits).map { index in
            let entry = table[index]
            let length = Int(entry & HuffmanEntry.lengthMask)
            if entry & flags == HuffmanEntry.literal {
                let next = table[index >> length]
                let nextLength = Int(next & HuffmanEntry.lengthMask)
                if next & flags == HuffmanEntry.literal && length + nextLength <= rootBits {
                    let pair =
                        (entry & 0xFF_0000) | (next & 0xFF_0000) << 8 | HuffmanEntry.literal
                        | HuffmanEntry.pair | UInt32(length + nextLength)
                    return (pair, nil)
                }
            } else if entry & flags == 0 && length <= rootBits {
                let extra = Int(HuffmanEntry.extraBits(entry))
                let code = Int(HuffmanEntry.codeLength(entry))
                let value = (entry >> 16) + UInt32(index >> code & ((1 << extra) - 1))
                let distance = distances[index >> length & (1 << HuffmanTableBuilder.distanceRootBits - 1)]
                let distanceCode = Int(HuffmanEntry.codeLength(distance))
                if distance & (HuffmanEntry.subtable | HuffmanEntry.invalid) == 0
                    && length + distanceCode <= rootBits
                {
                    let all = length + Int(distance & HuffmanEntry.lengthMask)
                    let match =
                        value << 16 | HuffmanEntry.match | UInt32(length + distanceCode) << 8 | UInt32(all)
                    return (match, UInt16(distance >> 16))
                }
                return (value << 16 | UInt32(length) << 8 | UInt32(length), nil)
            }
            return (entry, nil)
        }
    }

    /// A complete code of `symbolCount` codes with random lengths up to 15, given to random
    /// symbols of the `alphabet`: leaves split at random until there are enough of them.
    static func randomLengths(symbolCount: Int, alphabet: Int = 288, generator: inout SplitMix64) -> [UInt8] {
        var leaves = [0]
        while leaves.count < symbolCount {
            let candidates = leaves.indices.filter { leaves[$0] < 15 }
            let split = candidates[generator.below(candidates.count)]
            leaves[split] += 1
            leaves.append(leaves[split])
        }
        var symbols = Array(0..<alphabet)
        for index in symbols.indices.reversed() {
            symbols.swapAt(index, generator.below(index + 1))
        }
        var lengths = [UInt8](repeating: 0, count: alphabet)
        for (leaf, symbol) in zip(leaves, symbols) { lengths[symbol] = UInt8(leaf) }
        return lengths
    }

    /// Builds the tables for the literal/length code `lengths` and the distance code
    /// `distanceLengths`, and compares the fast table with its slot-by-slot definition; returns
    /// how many slots hold a pair, a folded length or a match, and how many a match.
    static func checkFastTable(lengths: [UInt8], distanceLengths: [UInt8] = [1, 1]) throws -> (
        special: Int, matches: Int
    ) {
        let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: Inflater.tablesCapacity)
        defer { tables.deallocate() }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << rootBits)
        defer { scratch.deallocate() }
        let sorted = UnsafeMutablePointer<UInt16>.allocate(capacity: HuffmanTableBuilder.sortedCapacity)
        defer { sorted.deallocate() }
        var codeLengths = lengths + distanceLengths
        codeLengths += [UInt8](repeating: 0, count: 320 - codeLengths.count)
        try codeLengths.withUnsafeBufferPointer { buffer in
            try HuffmanTableBuilder.buildBlockTables(
                codeLengths: buffer.baseAddress!, literalCount: 288, distanceCount: distanceLengths.count,
                into: tables, pairLiterals: true, scratch: scratch, sorted: sorted)
        }
        let expected = expectedFastTable(
            from: tables + Inflater.literalTableOffset, distances: tables + Inflater.distanceTableOffset)
        let built = Array(UnsafeBufferPointer(start: tables, count: 1 << rootBits))
        let bases = UnsafeRawPointer(tables + Inflater.distanceBaseOffset).assumingMemoryBound(
            to: UInt16.self)
        let wrong = (0..<expected.count).filter { slot in
            expected[slot].entry != built[slot]
                || expected[slot].distanceBase.map { $0 != bases[slot] } ?? false
        }
        #expect(wrong.count == 0, "slots \(wrong.prefix(8)) differ")
        let main = tables + Inflater.literalTableOffset
        return (
            (0..<expected.count).count { expected[$0].entry != main[$0] },
            expected.count { $0.distanceBase != nil }
        )
    }

    /// A random distance code: none, one 1-bit code (both incomplete, as RFC 1951 allows), or
    /// a complete code of up to 30 codes, some longer than the distance root.
    static func randomDistanceLengths(generator: inout SplitMix64) -> [UInt8] {
        switch generator.below(8) {
        case 0: return [0, 0]
        case 1: return generator.below(2) == 0 ? [1, 0] : [0, 1]
        default:
            return randomLengths(symbolCount: 2 + generator.below(29), alphabet: 30, generator: &generator)
        }
    }

    @Test func randomCompleteCodes() throws {
        var generator = SplitMix64(state: 20_261_130)
        var special = 0
        var matches = 0
        for trial in 0..<400 {
            let symbolCount = 2 + generator.below(trial % 4 == 0 ? 30 : 287)
            let counts = try Self.checkFastTable(
                lengths: Self.randomLengths(symbolCount: symbolCount, generator: &generator),
                distanceLengths: Self.randomDistanceLengths(generator: &generator))
            special += counts.special
            matches += counts.matches
        }
        // The comparison must have had pairs, folded lengths and matches to check.
        #expect(special > 10_000)
        #expect(matches > 5_000)
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
        #expect(
            try Self.checkFastTable(lengths: lengths, distanceLengths: [UInt8](repeating: 5, count: 32))
                .special > 0)
    }

    @Test func singleOneBitCode() throws {
        for symbol in [0, 65, 255, 256, 270] {
            var lengths = [UInt8](repeating: 0, count: 288)
            lengths[symbol] = 1
            _ = try Self.checkFastTable(lengths: lengths)
        }
    }
}
