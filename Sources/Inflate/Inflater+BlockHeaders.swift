/// Block headers: stored lengths, the fixed code and dynamic code lengths
/// (`Spec/deflate.md` §4.1–§4.3, §5.2).
extension Inflater {
    /// Reads BFINAL and BTYPE and the header of the block they announce.
    func readBlockHeader() throws(InflateError) {
        let header = try readBits(3)
        isFinalBlock = header & 1 == 1
        switch header >> 1 {
        case 0:
            alignToByte()
            let length = try readBits(16)
            let complement = try readBits(16)
            if length != ~complement & 0xFFFF {
                throw .storedLengthMismatch(
                    length: UInt16(length), complement: UInt16(complement))
            }
            // Hand the bytes still in the bit buffer back to the input: stored data is copied
            // straight from it.
            position -= bitCount >> 3
            bitBuffer = 0
            bitCount = 0
            phase = .stored(remaining: Int(length))
        case 1:
            tables = FixedHuffmanTables.shared.tables
            phase = .huffman
        case 2:
            try readDynamicTables()
            phase = .huffman
        default:
            throw .invalidBlockType
        }
    }

    /// Reads a dynamic block's code lengths (RFC 1951 §3.2.7, `Spec/deflate.md` §4.3).
    func readDynamicTables() throws(InflateError) {
        let literalCount = Int(try readBits(5)) + 257
        let distanceCount = Int(try readBits(5)) + 1
        let codeLengthCount = Int(try readBits(4)) + 4
        if literalCount > 286 || distanceCount > 30 {
            throw .tooManyCodes(literalLength: literalCount, distance: distanceCount)
        }
        let order = Inflater.codeLengthOrder
        codeLengths.update(repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengths[order[index]] = UInt8(try readBits(3))
        }
        try HuffmanTableBuilder.codeLengthSymbols.withUnsafeBufferPointer {
            (symbols) throws(InflateError) in
            _ = try HuffmanTableBuilder.build(
                lengths: UnsafeBufferPointer(start: codeLengths, count: 19), symbols: symbols,
                rootBits: HuffmanTableBuilder.codeLengthRootBits, table: codeLengthTable,
                scratch: scratch, sorted: sortedSymbols, kind: .codeLength)
        }

        let total = literalCount + distanceCount
        var index = 0
        while index < total {
            let symbol = Int(
                try decodeSymbol(
                    codeLengthTable, rootBits: HuffmanTableBuilder.codeLengthRootBits,
                    kind: .codeLength) >> 16)
            if symbol < 16 {
                codeLengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            let repeatCount: Int
            var value: UInt8 = 0
            switch symbol {
            case 16:
                repeatCount = 3 + Int(try readBits(2))
                if index == 0 { throw .repeatWithoutPreviousLength }
                value = codeLengths[index - 1]
            case 17:
                repeatCount = 3 + Int(try readBits(3))
            default:
                repeatCount = 11 + Int(try readBits(7))
            }
            if repeatCount > total - index {
                throw .codeLengthsOverflow(count: repeatCount, remaining: total - index)
            }
            (codeLengths + index).update(repeating: value, count: repeatCount)
            index += repeatCount
        }
        if codeLengths[256] == 0 { throw .missingEndOfBlock }
        // The distance lengths follow the literal/length ones; move them to their slot.
        (codeLengths + 288).update(from: codeLengths + literalCount, count: distanceCount)
        try buildTables(literalCount: literalCount, distanceCount: distanceCount)
    }

    /// Builds the block's tables in `ownTables` from `codeLengths[0..<literalCount]` and
    /// `codeLengths[288..<288 + distanceCount]`, and makes them current.
    func buildTables(literalCount: Int, distanceCount: Int) throws(InflateError) {
        // The fast table pays for itself over a few kilobytes of input; before a short rest of
        // the stream, it is the main table's root (whose entries are valid there too).
        try HuffmanTableBuilder.buildBlockTables(
            codeLengths: codeLengths, literalCount: literalCount, distanceCount: distanceCount,
            into: ownTables, pairLiterals: inputCount - position >= Inflater.fastTableMinimumInput,
            scratch: scratch, sorted: sortedSymbols)
        tables = UnsafePointer(ownTables)
    }

    /// The order in which a dynamic block sends the code-length code's lengths.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
