// Also compiled into the inflate fuzz target (Tests/Fuzz/run.sh) as one module with the sources.
#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Writes bits least significant first, the order of RFC 1951 §3.1.1.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    /// Appends the low `bitCount` bits of `value`.
    mutating func write(_ value: Int, bitCount: Int) {
        precondition(bitCount <= 32 && value >= 0 && value < 1 << bitCount)
        buffer |= UInt64(value) << UInt64(count)
        count += bitCount
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
        }
    }

    /// Appends a Huffman code, which DEFLATE sends most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed = 0
        for bit in 0..<length { reversed |= (code >> bit & 1) << (length - 1 - bit) }
        write(reversed, bitCount: length)
    }

    /// Pads with zero bits to the next byte boundary.
    mutating func alignToByte() {
        if count > 0 { write(0, bitCount: 8 - count) }
    }

    /// The bytes written, the last one padded with zero bits.
    var finished: [UInt8] {
        var copy = self
        copy.alignToByte()
        return copy.bytes
    }
}

/// One LZ77 item of a compressed block.
enum Token: Equatable {
    case literal(UInt8)
    case match(length: Int, distance: Int)
}

/// A Huffman code given by its lengths, with the canonical codes of RFC 1951 §3.2.2.
struct CanonicalCode {
    var lengths: [Int]
    var codes: [Int]

    init(lengths: [Int]) {
        self.lengths = lengths
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        codes = lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }

    /// A complete code over `used` symbols of an alphabet of `count` (a single symbol gets
    /// the one-bit code RFC 1951 allows): 2^k − n codes of length k − 1, the rest of length k.
    static func balanced(used: [Int], count: Int) -> CanonicalCode {
        var lengths = [Int](repeating: 0, count: count)
        let symbols = used.sorted()
        if symbols.count == 1 {
            lengths[symbols[0]] = 1
            return CanonicalCode(lengths: lengths)
        }
        var bits = 0
        while 1 << bits < symbols.count { bits += 1 }
        let shorter = (1 << bits) - symbols.count
        for (index, symbol) in symbols.enumerated() {
            lengths[symbol] = index < shorter ? bits - 1 : bits
        }
        return CanonicalCode(lengths: lengths)
    }

    static let fixedLiteralLength = CanonicalCode(
        lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    static let fixedDistance = CanonicalCode(lengths: [Int](repeating: 5, count: 32))
}

/// Length and distance symbols with their extra bits (RFC 1951 §3.2.5), from the RFC's tables.
enum DeflateSymbols {
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ]
    static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
        1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13, 13,
    ]

    /// (symbol, extra bits, extra value) for a match length 3…258; 258 uses symbol 285.
    static func length(_ length: Int) -> (symbol: Int, bitCount: Int, extra: Int) {
        let index = lengthBases.lastIndex { $0 <= length }!
        return (257 + index, lengthExtraBits[index], length - lengthBases[index])
    }

    static func distance(_ distance: Int) -> (symbol: Int, bitCount: Int, extra: Int) {
        let index = distanceBases.lastIndex { $0 <= distance }!
        return (index, distanceExtraBits[index], distance - distanceBases[index])
    }
}

/// One item of a dynamic block's code-length sequence: a symbol 0…18 and its extra bits.
struct CodeLengthItem {
    var symbol: Int
    var extra: Int = 0

    var extraBitCount: Int { [16: 2, 17: 3, 18: 7][symbol] ?? 0 }

    /// Run-length codes `lengths` greedily with symbols 16, 17 and 18.
    static func encode(_ lengths: [Int]) -> [CodeLengthItem] {
        var items: [CodeLengthItem] = []
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == value { run += 1 }
            if value == 0 && run >= 11 {
                let take = min(run, 138)
                items.append(CodeLengthItem(symbol: 18, extra: take - 11))
                index += take
            } else if value == 0 && run >= 3 {
                items.append(CodeLengthItem(symbol: 17, extra: run - 3))
                index += run
            } else if value != 0 && run >= 4 {
                items.append(CodeLengthItem(symbol: value))
                let take = min(run - 1, 6)
                items.append(CodeLengthItem(symbol: 16, extra: take - 3))
                index += 1 + take
            } else {
                items.append(CodeLengthItem(symbol: value))
                index += 1
            }
        }
        return items
    }
}

/// Hand-assembles DEFLATE blocks and zlib streams for tests.
struct DeflateWriter {
    var bits = BitWriter()

    /// A stored block: header, padding, LEN, NLEN, the bytes (`nlen` overrides NLEN).
    mutating func stored(_ data: [UInt8], final: Bool, nlen: Int? = nil) {
        bits.write(final ? 1 : 0, bitCount: 1)
        bits.write(0, bitCount: 2)
        bits.alignToByte()
        bits.write(data.count, bitCount: 16)
        bits.write(nlen ?? (~data.count & 0xFFFF), bitCount: 16)
        for byte in data { bits.write(Int(byte), bitCount: 8) }
    }

    /// A fixed-Huffman block holding `tokens`, then end of block.
    mutating func fixed(_ tokens: [Token], final: Bool) {
        bits.write(final ? 1 : 0, bitCount: 1)
        bits.write(1, bitCount: 2)
        body(
            tokens, literalLength: .fixedLiteralLength, distance: .fixedDistance,
            endOfBlock: true)
    }

    /// A dynamic-Huffman block with balanced complete codes over the symbols `tokens` use.
    mutating func dynamic(_ tokens: [Token], final: Bool) {
        var literalSymbols: Set<Int> = [256]
        var distanceSymbols: Set<Int> = []
        for token in tokens {
            switch token {
            case .literal(let byte): literalSymbols.insert(Int(byte))
            case .match(let length, let distance):
                literalSymbols.insert(DeflateSymbols.length(length).symbol)
                distanceSymbols.insert(DeflateSymbols.distance(distance).symbol)
            }
        }
        let literalCount = max(257, literalSymbols.max()! + 1)
        let literal = CanonicalCode.balanced(used: Array(literalSymbols), count: literalCount)
        let distance =
            distanceSymbols.isEmpty
            ? CanonicalCode(lengths: [0])
            : CanonicalCode.balanced(
                used: Array(distanceSymbols), count: distanceSymbols.max()! + 1)
        dynamicHeader(
            final: final, literalLengths: literal.lengths, distanceLengths: distance.lengths)
        body(tokens, literalLength: literal, distance: distance, endOfBlock: true)
    }

    /// A dynamic block header sending `literalLengths` and `distanceLengths` run-length coded
    /// with a balanced code-length code (or the given `items` and `codeLengthLengths`).
    mutating func dynamicHeader(
        final: Bool, literalLengths: [Int], distanceLengths: [Int],
        items explicitItems: [CodeLengthItem]? = nil,
        codeLengthLengths explicitLengths: [Int]? = nil,
        declaredLiteralCount: Int? = nil, declaredDistanceCount: Int? = nil
    ) {
        let items = explicitItems ?? CodeLengthItem.encode(literalLengths + distanceLengths)
        var codeLengthCode: CanonicalCode
        if let explicitLengths {
            codeLengthCode = CanonicalCode(lengths: explicitLengths)
        } else {
            var used = Set(items.map(\.symbol))
            // One used symbol would make an incomplete code-length code; add a partner.
            if used.count == 1 { used.insert(used.first == 0 ? 1 : 0) }
            codeLengthCode = CanonicalCode.balanced(used: Array(used), count: 19)
        }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var sentCount = 19
        while sentCount > 4 && codeLengthCode.lengths[order[sentCount - 1]] == 0 { sentCount -= 1 }

        bits.write(final ? 1 : 0, bitCount: 1)
        bits.write(2, bitCount: 2)
        bits.write((declaredLiteralCount ?? literalLengths.count) - 257, bitCount: 5)
        bits.write((declaredDistanceCount ?? distanceLengths.count) - 1, bitCount: 5)
        bits.write(sentCount - 4, bitCount: 4)
        for index in 0..<sentCount {
            bits.write(codeLengthCode.lengths[order[index]], bitCount: 3)
        }
        for item in items {
            bits.writeCode(
                codeLengthCode.codes[item.symbol], length: codeLengthCode.lengths[item.symbol])
            bits.write(item.extra, bitCount: item.extraBitCount)
        }
    }

    /// The symbols of `tokens` in the given codes, then the end-of-block code if asked.
    mutating func body(
        _ tokens: [Token], literalLength: CanonicalCode, distance: CanonicalCode, endOfBlock: Bool
    ) {
        for token in tokens {
            switch token {
            case .literal(let byte):
                symbol(Int(byte), in: literalLength)
            case .match(let length, let distanceValue):
                let lengthCode = DeflateSymbols.length(length)
                symbol(lengthCode.symbol, in: literalLength)
                bits.write(lengthCode.extra, bitCount: lengthCode.bitCount)
                let distanceCode = DeflateSymbols.distance(distanceValue)
                symbol(distanceCode.symbol, in: distance)
                bits.write(distanceCode.extra, bitCount: distanceCode.bitCount)
            }
        }
        if endOfBlock { symbol(256, in: literalLength) }
    }

    /// Writes the code of `value` in `code`.
    mutating func symbol(_ value: Int, in code: CanonicalCode) {
        bits.writeCode(code.codes[value], length: code.lengths[value])
    }

    /// The raw DEFLATE bytes.
    var deflate: [UInt8] { bits.finished }

    /// The blocks wrapped in a zlib header (78 01) and the Adler-32 of `output`.
    func zlib(checksumOf output: [UInt8]) -> [UInt8] {
        let adler = Adler32.checksum(of: output)
        return [0x78, 0x01] + deflate
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
    }
}

/// What `tokens` decode to (the reference for hand-assembled blocks).
func expand(_ tokens: [Token], after prefix: [UInt8] = []) -> [UInt8] {
    var output = prefix
    for token in tokens {
        switch token {
        case .literal(let byte): output.append(byte)
        case .match(let length, let distance):
            for _ in 0..<length { output.append(output[output.count - distance]) }
        }
    }
    return output
}
