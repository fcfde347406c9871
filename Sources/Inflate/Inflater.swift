#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

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

    /// The current block's tables: the literal/length code's fast table
    /// (`HuffmanTableBuilder.buildFastLiteralTable`), then its main table, then the distance
    /// table, then the fast table's distance bases, laid out as one run so the hot loop reaches
    /// them all from one register, at constant offsets. Either `ownTables` or, for a fixed-code
    /// block, ``FixedHuffmanTables``.
    var tables: UnsafePointer<UInt32>
    /// Where a dynamic block's tables are built.
    let ownTables: UnsafeMutablePointer<UInt32>
    /// The current block's main literal/length table.
    var literalTable: UnsafePointer<UInt32> { tables + Inflater.literalTableOffset }
    /// The current block's distance table.
    var distanceTable: UnsafePointer<UInt32> { tables + Inflater.distanceTableOffset }
    /// Where the main literal/length table and the distance table start in the tables.
    static let literalTableOffset = 1 << HuffmanTableBuilder.literalRootBits
    static let distanceTableOffset = literalTableOffset + HuffmanTableBuilder.literalCapacity
    /// Where the distance bases of the fast table's matches start (in `UInt32`s): one `UInt16`
    /// per fast-table slot, read where the slot holds a match.
    static let distanceBaseOffset = distanceTableOffset + HuffmanTableBuilder.distanceCapacity
    static let tablesCapacity = distanceBaseOffset + (1 << HuffmanTableBuilder.literalRootBits) / 2
    /// The input left, in bytes, below which a block's fast table is the main table's root
    /// copied: pairing literals takes about as long as decoding 2 KB of photograph-like data.
    static let fastTableMinimumInput = 4_096
    let codeLengthTable: UnsafeMutablePointer<UInt32>
    let scratch: UnsafeMutablePointer<UInt8>
    /// The used symbols of a code in canonical order, for the table builder.
    let sortedSymbols: UnsafeMutablePointer<UInt16>
    /// 286 + 30 code lengths of a dynamic block; the distance lengths are moved to 288 on, where
    /// the table builder reads them.
    let codeLengths: UnsafeMutablePointer<UInt8>
    /// The Adler-32 of the output's first `checksummed` bytes, when `tracksAdler32`: the
    /// one-shot zlib decoder sums the output of Huffman blocks as they end, while the bytes are
    /// still in the processor's caches, rather than the whole output after it.
    var tracksAdler32 = false
    var adler32 = Adler32()
    var checksummed = 0

    /// Starts decoding `input` at byte `start`.
    init(input: UnsafePointer<UInt8>, count: Int, start: Int) {
        self.input = input
        self.inputCount = count
        self.position = start
        ownTables = .allocate(capacity: Inflater.tablesCapacity)
        tables = UnsafePointer(ownTables)
        codeLengthTable = .allocate(capacity: HuffmanTableBuilder.codeLengthCapacity)
        scratch = .allocate(capacity: 1 << HuffmanTableBuilder.literalRootBits)
        sortedSymbols = .allocate(capacity: HuffmanTableBuilder.sortedCapacity)
        codeLengths = .allocate(capacity: 320)
    }

    deinit {
        ownTables.deallocate()
        codeLengthTable.deallocate()
        scratch.deallocate()
        sortedSymbols.deallocate()
        codeLengths.deallocate()
    }

    // MARK: - Driving the blocks

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
            if !flushed {
                checksum(output, count)
                return .needsSpace
            }
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
                // The bytes copied are not summed here: summing them just after the copy made
                // astronaut.png's 33 KB stored blocks inflate 10% slower. A later block or the
                // caller sums them.
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
                checksum(output, count)
                if !ended { return .needsSpace }
                phase = .blockHeader
            }
        }
    }

    /// Adds the output from `checksummed` to `count` to `adler32`, when it is tracked and at
    /// least 32 KiB wait: short sums cost more per byte (4 KiB at a time ran 10% slower than
    /// 64 KiB), and 32 KiB are still cached. The caller sums the rest at the end.
    private func checksum(_ output: UnsafeMutablePointer<UInt8>, _ count: Int) {
        guard tracksAdler32 && count - checksummed >= 32_768 else { return }
        adler32.update(UnsafeRawBufferPointer(start: output + checksummed, count: count - checksummed))
        checksummed = count
    }
}
