// The fuzz target Tests/Fuzz/InflateFuzzer.swift compiles this file into one module with the
// sources, so the imports are guarded as in Sources/.
#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Inflate
#endif

/// A deliberately simple decoder written from `Spec/deflate.md` alone: one bit at a time,
/// canonical codes walked length by length, every rule checked in the spec's order. The
/// mutation tests require the real decoder to agree with it on every input, error included.
struct ReferenceInflater {
    let input: [UInt8]
    let limit: Int
    var bitPosition = 0
    var output: [UInt8] = []

    init(_ input: [UInt8], start: Int = 0, limit: Int) {
        self.input = input
        self.limit = max(limit, 0)
        bitPosition = start * 8
    }

    static func zlib(_ input: [UInt8], limit: Int = .max) -> Result<[UInt8], InflateError> {
        Result { () throws(InflateError) in
            guard input.count >= 2 else { throw .truncatedInput }
            let cmf = input[0]
            let flg = input[1]
            if cmf & 0x0F != 8 || cmf >> 4 > 7 || (Int(cmf) * 256 + Int(flg)) % 31 != 0 {
                throw .invalidZlibHeader(cmf: cmf, flg: flg)
            }
            if flg & 0x20 != 0 { throw .presetDictionaryUnsupported }
            var inflater = ReferenceInflater(input, start: 2, limit: limit)
            try inflater.blocks()
            inflater.bitPosition = (inflater.bitPosition + 7) / 8 * 8
            var declared: UInt32 = 0
            for _ in 0..<4 { declared = declared << 8 | UInt32(try inflater.bits(8)) }
            let computed = Adler32.checksum(of: inflater.output)
            if declared != computed {
                throw .adlerMismatch(declared: declared, computed: computed)
            }
            return inflater.output
        }
    }

    static func raw(_ input: [UInt8], limit: Int = .max) -> Result<[UInt8], InflateError> {
        Result { () throws(InflateError) in
            var inflater = ReferenceInflater(input, limit: limit)
            try inflater.blocks()
            return inflater.output
        }
    }

    mutating func bit() throws(InflateError) -> Int {
        guard bitPosition < input.count * 8 else { throw .truncatedInput }
        defer { bitPosition += 1 }
        return Int(input[bitPosition / 8] >> UInt8(bitPosition % 8) & 1)
    }

    mutating func bits(_ count: Int) throws(InflateError) -> Int {
        var value = 0
        for index in 0..<count { value |= try bit() << index }
        return value
    }

    mutating func emit(_ byte: UInt8) throws(InflateError) {
        if output.count >= limit { throw .outputLimitExceeded(limit: limit) }
        output.append(byte)
    }

    mutating func blocks() throws(InflateError) {
        var final = false
        while !final {
            final = try bit() == 1
            switch try bits(2) {
            case 0:
                bitPosition = (bitPosition + 7) / 8 * 8
                let length = try bits(16)
                let complement = try bits(16)
                if length != ~complement & 0xFFFF {
                    throw .storedLengthMismatch(
                        length: UInt16(length), complement: UInt16(complement))
                }
                for _ in 0..<length { try emit(UInt8(try bits(8))) }
            case 1:
                let literal = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
                try codes(
                    literal: try Code(lengths: literal, table: .literalLength),
                    distance: try Code(lengths: [Int](repeating: 5, count: 32), table: .distance))
            case 2:
                let (literal, distance) = try dynamicCodes()
                try codes(literal: literal, distance: distance)
            default:
                throw .invalidBlockType
            }
        }
    }

    mutating func dynamicCodes() throws(InflateError) -> (Code, Code) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        if literalCount > 286 || distanceCount > 30 {
            throw .tooManyCodes(literalLength: literalCount, distance: distanceCount)
        }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengthLengths[order[index]] = try bits(3) }
        let codeLengthCode = try Code(lengths: codeLengthLengths, table: .codeLength)
        var lengths: [Int] = []
        let total = literalCount + distanceCount
        while lengths.count < total {
            let symbol = try decode(codeLengthCode)
            var value = 0
            let count: Int
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
                continue
            case 16:
                count = 3 + (try bits(2))
                guard let previous = lengths.last else { throw .repeatWithoutPreviousLength }
                value = previous
            case 17: count = 3 + (try bits(3))
            default: count = 11 + (try bits(7))
            }
            if count > total - lengths.count {
                throw .codeLengthsOverflow(count: count, remaining: total - lengths.count)
            }
            lengths += [Int](repeating: value, count: count)
        }
        if lengths[256] == 0 { throw .missingEndOfBlock }
        return (
            try Code(lengths: Array(lengths[..<literalCount]), table: .literalLength),
            try Code(lengths: Array(lengths[literalCount...]), table: .distance)
        )
    }

    mutating func codes(literal: Code, distance: Code) throws(InflateError) {
        while true {
            let symbol = try decode(literal)
            if symbol < 256 {
                try emit(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            if symbol > 285 { throw .invalidSymbol(table: .literalLength, symbol: symbol) }
            let index = symbol - 257
            let length =
                DeflateSymbols.lengthBases[index]
                + (try bits(DeflateSymbols.lengthExtraBits[index]))
            let distanceSymbol = try decode(distance)
            if distanceSymbol > 29 {
                throw .invalidSymbol(table: .distance, symbol: distanceSymbol)
            }
            let distanceValue =
                DeflateSymbols.distanceBases[distanceSymbol]
                + (try bits(DeflateSymbols.distanceExtraBits[distanceSymbol]))
            if distanceValue > output.count {
                throw .distanceTooFar(distance: distanceValue, available: output.count)
            }
            for _ in 0..<length { try emit(output[output.count - distanceValue]) }
        }
    }

    /// A Huffman code checked against the rules of RFC 1951 as the spec states them.
    struct Code {
        var table: InflateError.Table
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int], table: InflateError.Table) throws(InflateError) {
            self.table = table
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1..<16 {
                left = left * 2 - counts[length]
                if left < 0 { throw .oversubscribedCode(table: table) }
            }
            let used = counts.reduce(0, +)
            if left > 0 {
                let single = used == 1 && counts[1] == 1
                let allowed =
                    table == .literalLength ? single : table == .distance && (single || used == 0)
                if !allowed { throw .incompleteCode(table: table) }
            }
            for length in 1..<16 {
                for (symbol, symbolLength) in lengths.enumerated() where symbolLength == length {
                    symbols.append(symbol)
                }
            }
        }
    }

    /// Reads a code one bit at a time (`Spec/deflate.md` §5.3).
    mutating func decode(_ code: Code) throws(InflateError) -> Int {
        if code.symbols.count <= 1 {
            // Empty code, or one symbol with the one-bit code 0.
            let first = try bit()
            if first == 0, let symbol = code.symbols.first { return symbol }
            throw .unassignedCode(table: code.table)
        }
        var value = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            value |= try bit()
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        // A complete code always matches within 15 bits.
        throw .unassignedCode(table: code.table)
    }
}
