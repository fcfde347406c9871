/// The DEFLATE decoder's state: where it is in the input, the bit buffer, the block being
/// decoded and its Huffman tables (`Spec/deflate.md` §3–§6).
///
/// The decoder is resumable: `run` stops when the output buffer is full and the caller may
/// hand it a larger one (holding the bytes produced so far) to continue. Matches may reach
/// back into everything produced, so the output buffer is also the window.
final class Inflater {
    enum Phase {
        case blockHeader
        case stored(remaining: Int)
        case huffman
        case done
    }

    enum Progress {
        case finished
        case needsSpace
    }

    let input: UnsafePointer<UInt8>
    let inputCount: Int
    /// The next input byte not yet in the bit buffer.
    var position: Int
    /// Input bits not yet consumed, least significant first. Bits above `bitCount` are either
    /// zero or copies of the bytes at `position…`, so OR-ing those bytes in again is harmless.
    var bitBuffer: UInt64 = 0
    var bitCount = 0

    var phase = Phase.blockHeader
    var isFinalBlock = false
    /// A match that did not fit in the output buffer: bytes still to copy, and its distance.
    var pendingLength = 0
    var pendingDistance = 0
    /// A literal that did not fit in the output buffer, or -1.
    var pendingLiteral = -1

    let literalTable: UnsafeMutablePointer<UInt32>
    let distanceTable: UnsafeMutablePointer<UInt32>
    let codeLengthTable: UnsafeMutablePointer<UInt32>
    let scratch: UnsafeMutablePointer<UInt8>
    /// 286 + 30 code lengths of a dynamic block (plus room for the fixed code's 288 + 32).
    let codeLengths: UnsafeMutablePointer<UInt8>
    var tablesHoldFixedCode = false

    /// Starts decoding `input` at byte `start`.
    init(input: UnsafePointer<UInt8>, count: Int, start: Int) {
        self.input = input
        self.inputCount = count
        self.position = start
        literalTable = .allocate(capacity: HuffmanTableBuilder.literalCapacity)
        distanceTable = .allocate(capacity: HuffmanTableBuilder.distanceCapacity)
        codeLengthTable = .allocate(capacity: HuffmanTableBuilder.codeLengthCapacity)
        scratch = .allocate(capacity: 1 << HuffmanTableBuilder.literalRootBits)
        codeLengths = .allocate(capacity: 320)
    }

    deinit {
        literalTable.deallocate()
        distanceTable.deallocate()
        codeLengthTable.deallocate()
        scratch.deallocate()
        codeLengths.deallocate()
    }

    // MARK: - Careful bit reading (every bit checked against the end of the input)

    /// Tops the bit buffer up one byte at a time, never past the end of the input.
    @inline(__always)
    func refillCarefully() {
        // Below 56 so the buffer never holds 64 bits: the bulk refill shifts by `bitCount`.
        while bitCount < 56 && position < inputCount {
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    /// Reads `count` (0…32) bits, least significant first.
    @inline(__always)
    func readBits(_ count: Int) throws(InflateError) -> UInt32 {
        if bitCount < count {
            refillCarefully()
            if bitCount < count { throw .truncatedInput }
        }
        let value = UInt32(truncatingIfNeeded: bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    /// Drops the bits up to the next byte boundary (before stored data and the trailer).
    func alignToByte() {
        let drop = bitCount & 7
        bitBuffer >>= UInt64(drop)
        bitCount -= drop
    }

    /// Decodes one symbol with `table`, checking that its bits exist; returns its entry.
    ///
    /// - Throws: `truncatedInput` when the code needs bits past the end of the input,
    ///   `unassignedCode` or `invalidSymbol` for the invalid entries (`Spec/deflate.md` §5.3).
    @inline(__always)
    func decodeSymbol(
        _ table: UnsafeMutablePointer<UInt32>, rootBits: Int, kind: InflateError.Table
    ) throws(InflateError) -> UInt32 {
        refillCarefully()
        var entry = table[Int(truncatingIfNeeded: bitBuffer) & ((1 << rootBits) - 1)]
        if entry & HuffmanEntry.subtable != 0 {
            let subMask = (1 << Int(HuffmanEntry.extraBits(entry))) - 1
            let index = Int(truncatingIfNeeded: bitBuffer >> UInt64(rootBits)) & subMask
            entry = table[Int(entry >> 16) + index]
        }
        let length = Int(entry & HuffmanEntry.lengthMask)
        if length > bitCount { throw .truncatedInput }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        if entry & HuffmanEntry.invalid != 0 {
            let value = entry >> 16
            if value == HuffmanEntry.unassignedValue { throw .unassignedCode(table: kind) }
            throw .invalidSymbol(table: kind, symbol: Int(value))
        }
        return entry
    }

    // MARK: - Blocks

    /// Decodes into `output` (whose first `count` bytes are the output so far) until the
    /// stream ends or `capacity` bytes are used.
    ///
    /// - Parameter canGrow: whether the caller can offer more room; when it cannot, needing
    ///   more room throws `outputLimitExceeded(limit:)`.
    func run(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int, canGrow: Bool,
        limit: Int
    ) throws(InflateError) -> Progress {
        if pendingLiteral >= 0 || pendingLength > 0 {
            let flushed = try flushPending(
                output: output, capacity: capacity, count: &count, canGrow: canGrow, limit: limit)
            if !flushed { return .needsSpace }
        }
        while true {
            switch phase {
            case .done:
                return .finished
            case .blockHeader:
                if isFinalBlock {
                    phase = .done
                    return .finished
                }
                try readBlockHeader()
            case .stored(let remaining):
                var remaining = remaining
                let available = inputCount - position
                let room = capacity - count
                let chunk = min(remaining, available, room)
                (output + count).update(from: input + position, count: chunk)
                count += chunk
                position += chunk
                remaining -= chunk
                phase = remaining == 0 ? .blockHeader : .stored(remaining: remaining)
                if remaining > 0 {
                    // Reading a byte comes before writing it, so truncation wins a tie.
                    if position == inputCount { throw .truncatedInput }
                    if !canGrow { throw .outputLimitExceeded(limit: limit) }
                    return .needsSpace
                }
            case .huffman:
                let ended = try decodeHuffmanBlock(
                    output: output, capacity: capacity, count: &count, canGrow: canGrow,
                    limit: limit)
                if !ended { return .needsSpace }
                phase = .blockHeader
            }
        }
    }

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
            if !tablesHoldFixedCode { try buildFixedTables() }
            phase = .huffman
        case 2:
            try readDynamicTables()
            phase = .huffman
        default:
            throw .invalidBlockType
        }
    }

    /// The fixed code of RFC 1951 §3.2.6, with all 288 and 32 symbols so that the reserved
    /// ones decode to `invalidSymbol`.
    func buildFixedTables() throws(InflateError) {
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
        try buildTables(literalCount: 288, distanceCount: 32)
        tablesHoldFixedCode = true
    }

    /// Reads a dynamic block's code lengths (RFC 1951 §3.2.7, `Spec/deflate.md` §4.3).
    func readDynamicTables() throws(InflateError) {
        tablesHoldFixedCode = false
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
            try HuffmanTableBuilder.build(
                lengths: UnsafeBufferPointer(start: codeLengths, count: 19), symbols: symbols,
                rootBits: HuffmanTableBuilder.codeLengthRootBits, table: codeLengthTable,
                scratch: scratch, kind: .codeLength)
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

    /// Builds both tables from `codeLengths[0..<literalCount]` and
    /// `codeLengths[288..<288 + distanceCount]`.
    func buildTables(literalCount: Int, distanceCount: Int) throws(InflateError) {
        try HuffmanTableBuilder.literalLengthSymbols.withUnsafeBufferPointer {
            (symbols) throws(InflateError) in
            try HuffmanTableBuilder.build(
                lengths: UnsafeBufferPointer(start: codeLengths, count: literalCount),
                symbols: symbols, rootBits: HuffmanTableBuilder.literalRootBits,
                table: literalTable, scratch: scratch, kind: .literalLength)
        }
        try HuffmanTableBuilder.distanceSymbols.withUnsafeBufferPointer {
            (symbols) throws(InflateError) in
            try HuffmanTableBuilder.build(
                lengths: UnsafeBufferPointer(start: codeLengths + 288, count: distanceCount),
                symbols: symbols, rootBits: HuffmanTableBuilder.distanceRootBits,
                table: distanceTable, scratch: scratch, kind: .distance)
        }
    }

    /// The order in which a dynamic block sends the code-length code's lengths.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    // MARK: - Pending output

    /// Writes the literal or match that did not fit last time; false if it still does not.
    func flushPending(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int, canGrow: Bool,
        limit: Int
    ) throws(InflateError) -> Bool {
        if pendingLiteral >= 0 {
            if count == capacity {
                if !canGrow { throw .outputLimitExceeded(limit: limit) }
                return false
            }
            output[count] = UInt8(pendingLiteral)
            count += 1
            pendingLiteral = -1
        }
        if pendingLength > 0 {
            let chunk = min(pendingLength, capacity - count)
            Inflater.copyMatchBytewise(
                output: output + count, distance: pendingDistance, length: chunk)
            count += chunk
            pendingLength -= chunk
            if pendingLength > 0 {
                if !canGrow { throw .outputLimitExceeded(limit: limit) }
                return false
            }
        }
        return true
    }

    @inline(__always)
    static func copyMatchBytewise(output: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let source = output - distance
        for index in 0..<length { output[index] = source[index] }
    }
}
