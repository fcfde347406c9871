/// Careful bit reading: every bit checked against the end of the input (`Spec/deflate.md` §3).
///
/// The header, dynamic-table and end-of-stream code use these; the hot loop in
/// `Inflater+Huffman.swift` keeps its own copy of the bit buffer and refills in bulk.
extension Inflater {
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
        _ table: UnsafePointer<UInt32>, rootBits: Int, kind: InflateError.Table
    ) throws(InflateError) -> UInt32 {
        refillCarefully()
        var entry = table[Int(truncatingIfNeeded: bitBuffer) & ((1 << rootBits) - 1)]
        if entry & HuffmanEntry.subtable != 0 {
            let subMask = (1 << Int(HuffmanEntry.subtableBits(entry))) - 1
            let index = Int(truncatingIfNeeded: bitBuffer >> UInt64(rootBits)) & subMask
            entry = table[Int(entry >> 16) + index]
        }
        // The code alone: its extra bits are read after it, each checked.
        let length = Int(HuffmanEntry.codeLength(entry))
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
}
