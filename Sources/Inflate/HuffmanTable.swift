/// Table-driven Huffman decoding (`Spec/deflate.md` §5).
///
/// A table is a flat run of `UInt32` entries. The low `rootBits` bits of the bit buffer index
/// the root table; a code longer than `rootBits` lands on a pointer entry that names a
/// subtable, indexed by the following bits. Each entry packs:
///
///     bits  0…4   length in bits of the code and the extra bits after it (in a subtable: the
///                 full length, root included; in a pointer entry: the root's width)
///     bit   5     zero, so that a shift by the whole entry masked to 6 bits drops the code
///     bit   6     a literal pair (fast table, literal entries); zero in other entries
///     bit   7     a length and the distance after it (fast table, `match`)
///     bits  8…11  the code's own length, without extra bits; a pointer entry's subtable
///                 index bits
///     bit  12     invalid: an unassigned bit pattern (value 0xFFFF) or a reserved symbol
///     bit  13     end of block
///     bit  14     pointer to a subtable (value = its offset)
///     bit  15     literal byte
///     bits 16…31  value: literal (a pair: first in 16…23, second in 24…31), base length,
///                 base distance, code-length symbol, subtable offset
///
/// DEFLATE sends Huffman codes most significant bit first inside a least-significant-first
/// bit stream, so a code's bits are reversed to index the table.
///
/// The literal/length code also has a fast table of the root's width, read by the hot loop
/// (`Spec/deflate.md` §5.4): where two literal codes fit in the root bits together, one entry
/// decodes both; where a length code and its extra bits fit, one entry gives the length itself
/// (its length field counts the extra bits, and it has none left to read), and where the
/// distance code after them fits too, the distance's base and extra bits as well. Every other
/// entry is the main table's, so subtables, end of block and invalid codes are found there.
enum HuffmanEntry {
    static let lengthMask: UInt32 = 0x1F
    static let invalid: UInt32 = 1 << 12
    static let endOfBlock: UInt32 = 1 << 13
    static let subtable: UInt32 = 1 << 14
    static let literal: UInt32 = 1 << 15
    /// End of block or invalid: anything that leaves the literal/match path.
    static let exceptional: UInt32 = endOfBlock | invalid
    /// The value an unassigned bit pattern carries; no symbol of any alphabet reaches it.
    static let unassignedValue: UInt32 = 0xFFFF
    /// An unassigned bit pattern. Its length is 1 so that with no input bits left the decoder
    /// reports truncation, and with one or more it reports the unassigned code.
    static let unassigned: UInt32 = (unassignedValue << 16) | invalid | 1 << 8 | 1
    /// A fast-table literal entry that holds two literals.
    static let pair: UInt32 = 1 << 6
    /// A fast-table entry that holds a length and the distance code after it: its value is the
    /// length, bits 8…11 say where the distance's extra bits start, its length field counts
    /// all of it (the length's code and extra bits, the distance's code and extra bits), and
    /// the distance's base is in the distance bases, at the same slot.
    static let match: UInt32 = 1 << 7

    /// The length of a (non-pointer) entry's code alone.
    @inline(__always)
    static func codeLength(_ entry: UInt32) -> UInt32 { (entry >> 8) & 0xF }

    /// The extra bits after a (non-pointer) entry's code.
    @inline(__always)
    static func extraBits(_ entry: UInt32) -> UInt32 { (entry & lengthMask) - codeLength(entry) }

    /// A pointer entry's subtable index bits.
    @inline(__always)
    static func subtableBits(_ entry: UInt32) -> UInt32 { (entry >> 8) & 0xF }
}

/// Builds decoding tables from code lengths (RFC 1951 §3.2.2), rejecting codes that RFC 1951
/// does not allow (`Spec/deflate.md` §5.2).
enum HuffmanTableBuilder {
    /// Root table width and worst-case size for each alphabet. The worst case for a complete
    /// code: every symbol longer than the root sits under its own prefix, with a subtable of
    /// 2^(15 − root) entries; incomplete codes are only accepted when they have no subtables.
    static let literalRootBits = 11
    static let literalCapacity = (1 << 11) + 288 << (15 - 11)
    static let distanceRootBits = 8
    static let distanceCapacity = (1 << 8) + 32 << (15 - 8)
    static let codeLengthRootBits = 7
    static let codeLengthCapacity = 1 << 7
    /// Room for the symbols of a block's literal/length code, then its distance code, in
    /// canonical order: the block's table builder keeps the first while it builds the second.
    static let sortedCapacity = 288 + 32

    /// The entry template for each literal/length symbol: literals, end of block, the 29 length
    /// codes with their base and (in bits 8…11, until `tableEntry` puts the code length there)
    /// their extra bits, and the reserved 286 and 287.
    static let literalLengthSymbols: [UInt32] = {
        var entries = [UInt32](repeating: 0, count: 288)
        for symbol in 0..<256 { entries[symbol] = UInt32(symbol) << 16 | HuffmanEntry.literal }
        entries[256] = HuffmanEntry.endOfBlock
        var base: UInt32 = 3
        for index in 0..<28 {
            let extra: UInt32 = index < 8 ? 0 : UInt32(index / 4 - 1)
            entries[257 + index] = base << 16 | extra << 8
            base += 1 << extra
        }
        entries[285] = 258 << 16
        entries[286] = 286 << 16 | HuffmanEntry.invalid
        entries[287] = 287 << 16 | HuffmanEntry.invalid
        return entries
    }()

    /// The entry template for each distance symbol: 30 codes with their base and extra bits (as
    /// for the literal/length templates), and the reserved 30 and 31.
    static let distanceSymbols: [UInt32] = {
        var entries = [UInt32](repeating: 0, count: 32)
        var base: UInt32 = 1
        for index in 0..<30 {
            let extra: UInt32 = index < 4 ? 0 : UInt32(index / 2 - 1)
            entries[index] = base << 16 | extra << 8
            base += 1 << extra
        }
        entries[30] = 30 << 16 | HuffmanEntry.invalid
        entries[31] = 31 << 16 | HuffmanEntry.invalid
        return entries
    }()

    /// The entry for each code-length symbol: just the symbol.
    static let codeLengthSymbols: [UInt32] = (0..<19).map { UInt32($0) << 16 }

    /// Builds a block's tables in the layout of `Inflater.tables` at `tables`: the
    /// literal/length code from `codeLengths[0..<literalCount]`, the distance code from
    /// `codeLengths[288..<288 + distanceCount]`, and the fast table, which pairs literals,
    /// folds length extra bits and joins lengths with distances when `pairLiterals` and is
    /// otherwise the main table's root. `sorted` has room for ``sortedCapacity`` symbols.
    static func buildBlockTables(
        codeLengths: UnsafePointer<UInt8>, literalCount: Int, distanceCount: Int,
        into tables: UnsafeMutablePointer<UInt32>, pairLiterals: Bool,
        scratch: UnsafeMutablePointer<UInt8>, sorted: UnsafeMutablePointer<UInt16>
    ) throws(InflateError) {
        let literalTable = tables + Inflater.literalTableOffset
        let literalCodes = try literalLengthSymbols.withUnsafeBufferPointer {
            (symbols) throws(InflateError) in
            try build(
                lengths: UnsafeBufferPointer(start: codeLengths, count: literalCount),
                symbols: symbols, rootBits: literalRootBits, table: literalTable, scratch: scratch,
                sorted: sorted, kind: .literalLength)
        }
        let distanceTable = tables + Inflater.distanceTableOffset
        try distanceSymbols.withUnsafeBufferPointer { (symbols) throws(InflateError) in
            _ = try build(
                lengths: UnsafeBufferPointer(start: codeLengths + 288, count: distanceCount),
                symbols: symbols, rootBits: distanceRootBits, table: distanceTable, scratch: scratch,
                sorted: sorted + 288, kind: .distance)
        }
        if pairLiterals {
            buildFastLiteralTable(
                from: literalTable, lengths: UnsafeBufferPointer(start: codeLengths, count: literalCount),
                canonicalOrder: UnsafeBufferPointer(start: sorted, count: literalCodes),
                distances: UnsafePointer(distanceTable), rootBits: literalRootBits, into: tables,
                distanceBases: UnsafeMutableRawPointer(tables + Inflater.distanceBaseOffset)
                    .assumingMemoryBound(to: UInt16.self))
        } else {
            tables.update(from: literalTable, count: 1 << literalRootBits)
        }
    }

    /// Fills `table` with the decoding table for `lengths`.
    ///
    /// - Parameters:
    ///   - lengths: the code length (0…15, 0 = unused) of each symbol.
    ///   - symbols: the entry for each symbol, without its length; as many as `lengths`.
    ///   - rootBits: the root table's width.
    ///   - table: room for the alphabet's capacity (see the `…Capacity` constants).
    ///   - scratch: room for 2^rootBits bytes.
    ///   - sorted: room for one `UInt16` per symbol.
    ///   - kind: which code this is; decides which incomplete codes are accepted.
    /// - Returns: how many symbols have a code, which `sorted` now holds in canonical order.
    /// - Throws: `oversubscribedCode` or `incompleteCode` (`Spec/deflate.md` §5.2).
    static func build(
        lengths: UnsafeBufferPointer<UInt8>, symbols: UnsafeBufferPointer<UInt32>,
        rootBits: Int, table: UnsafeMutablePointer<UInt32>, scratch: UnsafeMutablePointer<UInt8>,
        sorted: UnsafeMutablePointer<UInt16>, kind: InflateError.Table
    ) throws(InflateError) -> Int {
        // Four quarters' tallies of each length (quarter q's at 16q…16q + 15), then the
        // totals at 64…79.
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: 5 * 16) {
            (buffer) throws(InflateError) -> Int in
            let tallies = buffer.baseAddress!
            let count = tallies + 64
            tallies.update(repeating: 0, count: 5 * 16)
            forEachInQuarters(lengths) { quarter, symbol in
                tallies[16 &* quarter &+ Int(lengths[symbol])] &+= 1
            }
            for length in 0..<16 {
                count[length] =
                    tallies[length] &+ tallies[16 &+ length] &+ tallies[32 &+ length]
                    &+ tallies[48 &+ length]
            }
            let used = lengths.count - count[0]
            // Kraft: the codes of each length take 2^-length of the code space.
            var left = 1
            for length in 1...15 {
                left = left << 1 - count[length]
                if left < 0 { throw .oversubscribedCode(table: kind) }
            }
            if left > 0 {
                let singleOneBitCode = used == 1 && count[1] == 1
                let allowed: Bool
                switch kind {
                case .codeLength: allowed = false
                case .literalLength: allowed = singleOneBitCode
                case .distance: allowed = singleOneBitCode || used == 0
                }
                if !allowed { throw .incompleteCode(table: kind) }
            }
            sortCanonically(lengths, tallies: tallies, into: sorted)
            fill(
                symbols: symbols, counts: count, rootBits: rootBits, table: table,
                scratch: scratch, sorted: sorted)
            return used
        }
    }

    /// Calls `body(quarter, symbol)` for every symbol of `lengths`, taking four quarters of
    /// them side by side (the last quarter also takes the up to 3 left over), in order within
    /// each quarter.
    ///
    /// Counting or placing symbols one after another, consecutive symbols often share a length,
    /// and each update of that length's count waited for the store of the one before. With four
    /// quarters, each keeping counts of its own, those waits overlap: building a block's
    /// tables on the photo-like stream took 10% less time (1.39 µs a block, from 1.55).
    @inline(__always)
    private static func forEachInQuarters(
        _ lengths: UnsafeBufferPointer<UInt8>, _ body: (_ quarter: Int, _ symbol: Int) -> Void
    ) {
        let quarter = lengths.count / 4
        for index in 0..<quarter {
            body(0, index)
            body(1, quarter &+ index)
            body(2, 2 &* quarter &+ index)
            body(3, 3 &* quarter &+ index)
        }
        for index in 4 &* quarter..<lengths.count { body(3, index) }
    }

    /// Sorts the symbols by code length, then by symbol: canonical order (RFC 1951 §3.2.2), in
    /// which each code is the previous one plus 1, shifted left whenever the length grows.
    ///
    /// A counting sort: `tallies` holds each quarter's count of each length (as
    /// ``forEachInQuarters(_:_:)`` takes them) and becomes where that quarter's next symbol of
    /// that length goes. Symbols without a code (length 0) go after all the others, so no
    /// symbol needs a test; `sorted` has room for every symbol.
    private static func sortCanonically(
        _ lengths: UnsafeBufferPointer<UInt8>, tallies: UnsafeMutablePointer<Int>,
        into sorted: UnsafeMutablePointer<UInt16>
    ) {
        var start = 0
        for order in 1...16 {
            let length = order & 15  // 1…15, then 0
            for quarter in 0..<4 {
                let tally = tallies[16 &* quarter &+ length]
                tallies[16 &* quarter &+ length] = start
                start &+= tally
            }
        }
        forEachInQuarters(lengths) { quarter, symbol in
            let slot = 16 &* quarter &+ Int(lengths[symbol])
            sorted[tallies[slot]] = UInt16(truncatingIfNeeded: symbol)
            tallies[slot] &+= 1
        }
    }

    /// Fills `table` from the symbols in canonical order (`sorted`) and the number of codes of
    /// each length (`counts`).
    private static func fill(
        symbols: UnsafeBufferPointer<UInt32>, counts: UnsafePointer<Int>, rootBits: Int,
        table: UnsafeMutablePointer<UInt32>, scratch: UnsafeMutablePointer<UInt8>,
        sorted: UnsafeMutablePointer<UInt16>
    ) {
        // Codes up to the root width, one length at a time: doubling the table replicates the
        // shorter codes into the new half, then each code of this length takes one slot.
        // Slots no code reaches keep the unassigned entry (only incomplete codes have them).
        table[0] = HuffmanEntry.unassigned
        var size = 1
        var code = 0
        var next = 0
        for length in 1...rootBits {
            (table + size).update(from: table, count: size)
            size &<<= 1
            code &<<= 1
            for _ in 0..<counts[length] {
                table[reversed(code, bitCount: length)] = tableEntry(symbols[Int(sorted[next])], length)
                code &+= 1
                next &+= 1
            }
        }
        guard rootBits < 15, (rootBits + 1...15).contains(where: { counts[$0] != 0 }) else {
            return
        }

        // Longer codes share a root prefix with codes next to them in canonical order. Pass 1
        // records the longest code under each prefix (lengths only grow, so the last one),
        // which sizes that prefix's subtable.
        var probe = code
        for length in rootBits + 1...15 {
            probe &<<= 1
            for _ in 0..<counts[length] {
                scratch[probe >> (length - rootBits)] = UInt8(length)
                probe &+= 1
            }
        }
        // Pass 2: allocate each subtable when its prefix first appears and fill it; a code of
        // `tail` bits past the root takes every slot whose low bits are its reversed tail.
        var offset = size
        var currentPrefix = -1
        var base = 0
        var subBits = 0
        for length in rootBits + 1...15 {
            code &<<= 1
            let tailBits = length - rootBits
            for _ in 0..<counts[length] {
                let prefix = code >> tailBits
                if prefix != currentPrefix {
                    currentPrefix = prefix
                    subBits = Int(scratch[prefix]) - rootBits
                    base = offset
                    table[reversed(prefix, bitCount: rootBits)] =
                        UInt32(base) << 16 | HuffmanEntry.subtable | UInt32(subBits) << 8
                        | UInt32(rootBits)
                    (table + base).update(repeating: HuffmanEntry.unassigned, count: 1 << subBits)
                    offset &+= 1 << subBits
                }
                let entry = tableEntry(symbols[Int(sorted[next])], length)
                var slot = reversed(code & ((1 << tailBits) - 1), bitCount: tailBits)
                while slot < 1 << subBits {
                    table[base &+ slot] = entry
                    slot &+= 1 << tailBits
                }
                code &+= 1
                next &+= 1
            }
        }
    }

    /// A symbol's entry for a code of `length` bits: its length field counts the extra bits
    /// that follow the code as well, so one shift consumes both, and bits 8…11 keep the code's
    /// own length, where the extra bits start.
    @inline(__always)
    private static func tableEntry(_ symbol: UInt32, _ length: Int) -> UInt32 {
        let extra = (symbol >> 8) & 0xF
        return (symbol & ~0xF00) | UInt32(length) << 8 | (UInt32(length) + extra)
    }

    /// Fills `fast` (2^rootBits entries) from the literal/length table `table`: literal pairs
    /// and lengths with their extra bits folded in, where they fit in the root bits, and
    /// matches, where a whole code of the distance table `distances` fits after a length too
    /// (its base in `distanceBases`, at the same slot); every other entry copied.
    ///
    /// A second code is read from the bits left after the first, with zeros above them. The
    /// entry found there is the right one whenever its length fits in those bits: no longer
    /// code can match them, since no code is a prefix of another.
    ///
    /// The work goes code by code rather than slot by slot: a code of length L owns the slots
    /// `reversed code + k << L`, and the bits after it are k, so its pairs read their second
    /// codes from `table[k]` in order. Those second codes depend only on L, so they are packed
    /// once per length and each slot then costs a load, an add, a select and a store.
    ///
    /// - Parameters:
    ///   - lengths: the code length of each literal/length symbol, as `table` was built from.
    ///   - canonicalOrder: the symbols with a code, sorted by code length, then by symbol, as
    ///     ``build(lengths:symbols:rootBits:table:scratch:sorted:kind:)`` left them in `sorted`
    ///     and counted them.
    ///   - distances: the distance table, whose root is `distanceRootBits` wide.
    static func buildFastLiteralTable(
        from table: UnsafePointer<UInt32>, lengths: UnsafeBufferPointer<UInt8>,
        canonicalOrder: UnsafeBufferPointer<UInt16>, distances: UnsafePointer<UInt32>, rootBits: Int,
        into fast: UnsafeMutablePointer<UInt32>, distanceBases: UnsafeMutablePointer<UInt16>
    ) {
        fast.update(from: table, count: 1 << rootBits)
        let flags = HuffmanEntry.literal | HuffmanEntry.subtable | HuffmanEntry.exceptional
        let distanceMask = 1 << distanceRootBits &- 1
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 1 << (rootBits - 1)) { seconds in
            let seconds = seconds.baseAddress!
            var secondsRoom = -1
            var code = 0
            var previousLength = 0
            for symbol in canonicalOrder {
                let length = Int(lengths[Int(symbol)])
                // Codes of the root's width or longer leave no bits for anything after them.
                guard length < rootBits else { break }
                code &<<= length &- previousLength
                previousLength = length
                let first = reversed(code, bitCount: length)
                code &+= 1
                let entry = table[first]
                let room = rootBits &- length
                if entry & flags == HuffmanEntry.literal {
                    if room != secondsRoom {
                        // Each second literal that fits in `room` bits, packed as its value in
                        // bits 24…31 and its length; 0 where none fits.
                        secondsRoom = room
                        for k in 0..<1 << room {
                            let second = table[k]
                            let fits =
                                second & flags == HuffmanEntry.literal
                                && Int(second & HuffmanEntry.lengthMask) <= room
                            seconds[k] =
                                fits ? (second & 0xFF_0000) << 8 | second & HuffmanEntry.lengthMask : 0
                        }
                    }
                    let firstPacked =
                        (entry & 0xFF_0000) | HuffmanEntry.literal | HuffmanEntry.pair | UInt32(length)
                    for k in 0..<1 << room {
                        let second = seconds[k]
                        fast[first | k << length] = second == 0 ? entry : second &+ firstPacked
                    }
                } else if entry & flags == 0 {
                    // A length code: its extra bits folded in when they are in the root bits
                    // too, and then a match where the distance code after them fits as well.
                    let total = Int(entry & HuffmanEntry.lengthMask)
                    guard total <= rootBits else { continue }
                    let extra = total &- length
                    let mask = (1 << extra) &- 1
                    let base = entry >> 16
                    let lengthFields = UInt32(total) << 8 | UInt32(total)
                    let distanceRoom = UInt32(rootBits &- total)
                    // The bits after the length's extra bits (`rest`) pick the distance; each
                    // distance then covers the slots of every value of the extra bits.
                    for rest in 0..<1 << distanceRoom {
                        let distance = distances[rest & distanceMask]
                        // A subtable pointer or an invalid code never fits.
                        let code =
                            distance & (HuffmanEntry.subtable | HuffmanEntry.invalid) == 0
                            ? HuffmanEntry.codeLength(distance) : 15
                        // The match entry is the folded one plus the distance's fields; a
                        // select without a branch, since whether a code fits varies from one
                        // distance to the next.
                        let fits: UInt32 = code <= distanceRoom ? 1 : 0
                        let addend =
                            (HuffmanEntry.match | code << 8 | distance & HuffmanEntry.lengthMask)
                            & (0 &- fits)
                        let distanceBase = UInt16(truncatingIfNeeded: distance &>> 16)
                        var slot = first | rest << total
                        var value = (base << 16 | lengthFields) &+ addend
                        for _ in 0...mask {
                            fast[slot] = value
                            distanceBases[slot] = distanceBase
                            slot &+= 1 << length
                            value &+= 1 << 16
                        }
                    }
                }
            }
        }
    }

    /// The low `bitCount` (at most 16) bits of `value` in reverse order.
    @inline(__always)
    private static func reversed(_ value: Int, bitCount: Int) -> Int {
        var bits = UInt32(truncatingIfNeeded: value)
        bits = (bits >> 1) & 0x5555 | (bits & 0x5555) << 1
        bits = (bits >> 2) & 0x3333 | (bits & 0x3333) << 2
        bits = (bits >> 4) & 0x0F0F | (bits & 0x0F0F) << 4
        bits = (bits >> 8) & 0x00FF | (bits & 0x00FF) << 8
        return Int(bits >> UInt32(16 - bitCount))
    }
}
