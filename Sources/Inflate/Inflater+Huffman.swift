/// Decoding the symbols of fixed- and dynamic-Huffman blocks (`Spec/deflate.md` §4.4, §5).
extension Inflater {
    /// Room the fast loop keeps free at the end of the output: a 258-byte match plus the up to
    /// 31 bytes (rounded up here) that 32-byte copies write past its end.
    static let fastOutputMargin = 258 + 32

    /// Decodes symbols of the current Huffman block (`Spec/deflate.md` §4.4).
    ///
    /// - Returns: true at the end-of-block symbol; false when the output is full and the
    ///   caller can offer more room (the literal or match that did not fit is kept pending).
    func decodeHuffmanBlock(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int, canGrow: Bool,
        limit: Int
    ) throws(InflateError) -> Bool {
        let literalRootBits = HuffmanTableBuilder.literalRootBits
        let distanceRootBits = HuffmanTableBuilder.distanceRootBits
        while true {
            if try decodeFast(output: output, capacity: capacity, count: &count) { return true }

            // Near the end of the input or of the output: one symbol, every bit and byte
            // checked.
            let entry = try decodeSymbol(
                literalTable, rootBits: literalRootBits, kind: .literalLength)
            if entry & HuffmanEntry.literal != 0 {
                if count == capacity {
                    if !canGrow { throw .outputLimitExceeded(limit: limit) }
                    pendingLiteral = Int(entry >> 16)
                    return false
                }
                output[count] = UInt8(truncatingIfNeeded: entry >> 16)
                count += 1
                continue
            }
            if entry & HuffmanEntry.endOfBlock != 0 { return true }
            let length =
                Int(entry >> 16) + Int(try readBits(Int(HuffmanEntry.extraBits(entry))))
            let distanceEntry = try decodeSymbol(
                distanceTable, rootBits: distanceRootBits, kind: .distance)
            let distance =
                Int(distanceEntry >> 16)
                + Int(try readBits(Int(HuffmanEntry.extraBits(distanceEntry))))
            if distance > count { throw .distanceTooFar(distance: distance, available: count) }
            let chunk = min(length, capacity - count)
            Inflater.copyMatchBytewise(output: output + count, distance: distance, length: chunk)
            count += chunk
            if chunk < length {
                if !canGrow { throw .outputLimitExceeded(limit: limit) }
                pendingLength = length - chunk
                pendingDistance = distance
                return false
            }
        }
    }

    /// The hot loop: decodes while at least 8 input bytes and `fastOutputMargin` output bytes
    /// remain, so it needs no bounds checks per symbol (`Spec/deflate.md` §5.4).
    ///
    /// Each step starts with the 64-bit buffer refilled to at least 56 bits by one unaligned
    /// load, without a branch, and the next fast-table entry already looked up. That covers the
    /// longest match: a 15-bit length code, 5 extra bits, a 15-bit distance code and 13 extra
    /// bits. Literals come one or two per entry, and up to three entries (33 bits) are decoded
    /// before the next refill; every literal entry writes two bytes, the second only kept when
    /// the entry holds a pair. A match is one entry where its length's code and extra bits and
    /// its distance's code fit in the root bits together, and two otherwise.
    ///
    /// - Returns: true at the end-of-block symbol, false when it left the fast region.
    func decodeFast(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int
    ) throws(InflateError) -> Bool {
        // No distance reaches further back than 32,768 bytes (`Spec/deflate.md` §4.4), so once
        // that many are out, no match can reach before the output's start, and the loop that
        // runs from there on leaves the check out. On the bench's photo-like stream (2.6M
        // matches in 12.6 MB) that is 4.4M fewer instructions and 2% less time.
        if count < Decompressor.windowHistory {
            if try decodeFastLoop(output: output, capacity: capacity, count: &count, CheckedDistances.self) {
                return true
            }
            guard count >= Decompressor.windowHistory else { return false }
        }
        return try decodeFastLoop(output: output, capacity: capacity, count: &count, TrustedDistances.self)
    }

    /// ``decodeFast(output:capacity:count:)``'s loop, in one copy per `Distances`: with
    /// ``CheckedDistances``, every match's distance is checked against the bytes before it, and
    /// the loop stops once 32,768 bytes are out; with ``TrustedDistances``, the caller has made
    /// sure that at least that many are. (A generic parameter, because the optimiser
    /// specialises a generic function for each type, where a Bool parameter stayed a test.)
    private func decodeFastLoop<Distances: FastLoopDistances>(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int, _: Distances.Type
    ) throws(InflateError) -> Bool {
        let checksDistances = Distances.areChecked
        guard position <= inputCount - 8 && count <= capacity - Inflater.fastOutputMargin else {
            return false
        }
        // Moving pointers rather than offsets from the buffers' starts: the loop needs every
        // register it can get.
        let inputEnd = UnsafeRawPointer(input + (inputCount - 8))
        let fastEnd = output + (capacity - Inflater.fastOutputMargin)
        let outputEnd =
            checksDistances ? min(fastEnd, output + Decompressor.windowHistory) : fastEnd
        var next = UnsafeRawPointer(input + position)
        var out = output + count
        let fast = tables
        let literals = fast + Inflater.literalTableOffset
        let distances = fast + Inflater.distanceTableOffset
        let literalRootBits = UInt64(HuffmanTableBuilder.literalRootBits)
        let literalMask = UInt64(1) &<< literalRootBits &- 1
        let distanceRootBits = UInt64(HuffmanTableBuilder.distanceRootBits)
        let distanceMask = UInt64(1) &<< distanceRootBits &- 1
        var bitBuffer = self.bitBuffer
        // Only the low 6 bits of `bitCount` are kept up to date: each code subtracts its whole
        // entry, whose low 6 bits are its length, and every use masks (`Spec/deflate.md` §5.4).
        var bitCount = UInt64(self.bitCount)
        defer {
            self.position = next - UnsafeRawPointer(input)
            self.bitBuffer = bitBuffer
            self.bitCount = Int(bitCount & 63)
            count = out - output
        }

        // Bits above `bitCount` are copies of the bytes at `next…` or zero, so OR-ing the
        // next 8 bytes in again is harmless; `next` then advances by the whole bytes that fit.
        @inline(__always) func refill() {
            let word = next.loadUnaligned(as: UInt64.self)
            bitBuffer |= UInt64(littleEndian: word) &<< bitCount
            next += 7 &- Int(truncatingIfNeeded: bitCount &>> 3 & 7)
            bitCount |= 56
        }
        // Writes a literal entry's one or two bytes; bits 0…5 of an entry are its code length,
        // and a masking shift uses just those, so the shift needs no mask on the critical path.
        @inline(__always) func emit(_ entry: UInt32) {
            UnsafeMutableRawPointer(out).storeBytes(
                of: UInt16(truncatingIfNeeded: entry &>> 16).littleEndian, as: UInt16.self)
            out += 1 &+ Int(truncatingIfNeeded: entry &>> 6 & 1)
            bitBuffer &>>= UInt64(entry)
            bitCount &-= UInt64(entry)
        }

        // How many more refills may run before `next` and `out` are compared with their ends
        // again. A step (the work between two refills) moves `next` by at most 7 bytes and
        // `out` by at most 258, so a step budget worked out from the distance to both ends
        // stands for the two comparisons: one count down a step instead of two, and one
        // register for the two ends. On the photo-like stream, built as SwiftPM builds it,
        // 0.45% faster (the mean over the four 16-byte placements of the code, which alone
        // move the speed by up to 3%).
        var budget = 0
        @inline(__always) func stepsLeft() -> Int {
            min((inputEnd - next) / 7, (outputEnd - out) / 258)
        }
        // Whether the refill about to run, and the step after it, stay inside the fast region.
        @inline(__always) func mayRefill() -> Bool {
            if budget != 0 {
                budget &-= 1
                return true
            }
            guard next <= inputEnd && out <= outputEnd else { return false }
            budget = stepsLeft()
            return true
        }

        budget = stepsLeft()
        refill()
        var entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
        // Checks a match's distance where that is needed, looks the next entry up and copies.
        // The refill wrote 64 input bits and a match takes at most 48, so the next entry is
        // looked up first: neither the refill nor the copy delays it. (Inlined in each of the
        // two places a match is decoded; one place with the length and distance set in either
        // branch ran 2% slower.)
        @inline(__always) func copyMatch(length: Int, distance: Int) throws(InflateError) {
            if checksDistances && distance > out - output {
                throw .distanceTooFar(distance: distance, available: out - output)
            }
            entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
            Inflater.copyMatchFast(output: out, distance: distance, length: length)
            out += length
        }
        while true {
            if entry & HuffmanEntry.literal != 0 {
                emit(entry)
                entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
                if entry & HuffmanEntry.literal != 0 {
                    emit(entry)
                    entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
                    if entry & HuffmanEntry.literal != 0 {
                        emit(entry)
                        entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
                    }
                }
                // At least 23 bits were left for that lookup; the refill adds bits above them.
                guard mayRefill() else { return false }
                refill()
                continue
            }
            if entry & HuffmanEntry.match != 0 {
                // A length and the distance code after it, in one entry: its shift drops both
                // codes and their extra bits, and the distance's base waits at the same slot of
                // the distance bases. The next lookup then waits for one load, not two: on the
                // photo-like stream, whose 2.6M matches are 3 to 10 long, nearly every match is
                // one entry, and the inflate runs 20% faster.
                let saved = bitBuffer
                bitBuffer &>>= UInt64(entry)
                bitCount &-= UInt64(entry)
                let length = Int(entry &>> 16)
                let slot = Int(truncatingIfNeeded: saved & literalMask)
                let base = UnsafeRawPointer(fast).load(
                    fromByteOffset: Inflater.distanceBaseOffset &* 4 &+ slot &* 2, as: UInt16.self)
                try copyMatch(length: length, distance: Int(base) &+ Inflater.extraValue(entry, saved))
                guard mayRefill() else { return false }
                refill()
                continue
            }
            // A subtable, end of block or invalid code: one test keeps them off the path of
            // the lengths.
            if entry & (HuffmanEntry.subtable | HuffmanEntry.exceptional) != 0 {
                if entry & HuffmanEntry.subtable != 0 {
                    let subMask = UInt64(1) &<< UInt64(HuffmanEntry.subtableBits(entry)) &- 1
                    let index = (bitBuffer &>> literalRootBits) & subMask
                    entry = literals[Int(entry &>> 16) &+ Int(truncatingIfNeeded: index)]
                    if entry & HuffmanEntry.literal != 0 {
                        out.pointee = UInt8(truncatingIfNeeded: entry &>> 16)
                        out += 1
                        bitBuffer &>>= UInt64(entry)
                        bitCount &-= UInt64(entry)
                        guard mayRefill() else { return false }
                        refill()
                        entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
                        continue
                    }
                }
                if entry & HuffmanEntry.exceptional != 0 {
                    if entry & HuffmanEntry.endOfBlock == 0 {
                        throw Inflater.error(forInvalid: entry, in: .literalLength)
                    }
                    bitBuffer &>>= UInt64(entry)
                    bitCount &-= UInt64(entry)
                    return true
                }
            }
            // A length: one shift drops the code and its extra bits, which are read from the
            // saved buffer, off the critical path.
            var saved = bitBuffer
            bitBuffer &>>= UInt64(entry)
            bitCount &-= UInt64(entry)
            // Always extracted, without a branch: an entry without extra bits to read (none,
            // or folded into the fast table) has its code length equal to its whole length,
            // so the extraction gives 0. On the photo-like stream, whose 2.6M matches are
            // mostly 3 to 6 long (lengths 3-10 have no extra bits, 11 on do), the branch
            // cost about 1% of the inflate.
            let length = Int(entry &>> 16) &+ Inflater.extraValue(entry, saved)

            var distanceEntry = distances[Int(truncatingIfNeeded: bitBuffer & distanceMask)]
            if distanceEntry & (HuffmanEntry.subtable | HuffmanEntry.invalid) != 0 {
                if distanceEntry & HuffmanEntry.subtable != 0 {
                    let subMask =
                        UInt64(1) &<< UInt64(HuffmanEntry.subtableBits(distanceEntry)) &- 1
                    let index = (bitBuffer &>> distanceRootBits) & subMask
                    distanceEntry =
                        distances[Int(distanceEntry &>> 16) &+ Int(truncatingIfNeeded: index)]
                }
                if distanceEntry & HuffmanEntry.invalid != 0 {
                    throw Inflater.error(forInvalid: distanceEntry, in: .distance)
                }
            }
            saved = bitBuffer
            bitBuffer &>>= UInt64(distanceEntry)
            bitCount &-= UInt64(distanceEntry)
            try copyMatch(
                length: length,
                distance: Int(distanceEntry &>> 16) &+ Inflater.extraValue(distanceEntry, saved))
            guard mayRefill() else { return false }
            refill()
        }
    }

    /// Copies a match that may overrun its end by up to 31 bytes (`fastOutputMargin`); the
    /// caller has checked that `distance` is 1 or more and reaches no further than the output.
    ///
    /// Distances of 64 or more copy 32 bytes at a time, and 8 to 63 copy 8 at a time: each load
    /// reads only bytes already final. (From 32 back, 16-byte loads of bytes stored one or two
    /// steps before waited for those stores: the gradient's matches, about 200 bytes from 32 to
    /// 127 back, inflated at 0.55-0.65x libdeflate's speed, and at 0.73-0.76x with words.)
    /// Shorter distances never load what they just stored: the period's bytes are repeated into
    /// a word once, and the word is stored every whole number of periods that fits in 8 bytes
    /// (8 bytes for 1, 2 and 4; 6 for 3; 5, 6, 7 for 5, 6, 7).
    @inline(__always)
    static func copyMatchFast(output: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let destination = UnsafeMutableRawPointer(output)
        let source = UnsafeRawPointer(output + (0 &- distance))
        if distance >= 8 {
            // Most matches are short: two words cover up to 16 bytes without a loop.
            destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            destination.storeBytes(
                of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
                as: UInt64.self)
            guard length > 16 else { return }
            var offset = 16
            if distance >= 64 {
                repeat {
                    let first = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                    let second = source.loadUnaligned(
                        fromByteOffset: offset &+ 16, as: SIMD16<UInt8>.self)
                    destination.storeBytes(of: first, toByteOffset: offset, as: SIMD16<UInt8>.self)
                    destination.storeBytes(
                        of: second, toByteOffset: offset &+ 16, as: SIMD16<UInt8>.self)
                    offset &+= 32
                } while offset < length
            } else {
                // Two words a step: half the loop's own instructions per byte, and at most 15
                // bytes written past the match.
                repeat {
                    let first = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    destination.storeBytes(of: first, toByteOffset: offset, as: UInt64.self)
                    let second = source.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                    destination.storeBytes(of: second, toByteOffset: offset &+ 8, as: UInt64.self)
                    offset &+= 16
                } while offset < length
            }
        } else {
            // The first `distance` bytes of the source are final; the load's other bytes are
            // masked off, and three shifts repeat the period across the word.
            let periodBits = UInt64(distance &* 8)
            var pattern =
                UInt64(littleEndian: source.loadUnaligned(as: UInt64.self))
                & (UInt64.max >> (64 &- periodBits))
            pattern |= pattern << periodBits
            pattern |= pattern << (2 &* periodBits)
            pattern |= pattern << (4 &* periodBits)
            // 8 − 8 % distance, from byte `distance` of a constant: `%` was a 64-bit division.
            let step = Int(truncatingIfNeeded: UInt64(0x0706_0508_0608_0800) &>> periodBits & 0xFF)
            var offset = 0
            repeat {
                destination.storeBytes(of: pattern.littleEndian, toByteOffset: offset, as: UInt64.self)
                offset &+= step
            } while offset < length
        }
    }

    /// The extra bits of a length or distance entry, taken from `saved`, the bit buffer as it
    /// was before the entry's code and extra bits were dropped.
    @inline(__always)
    static func extraValue(_ entry: UInt32, _ saved: UInt64) -> Int {
        // Masking shifts use the low 6 bits of their count: the entry's whole length (bits
        // 0…5) for the mask, and its code length (bits 8…13, the flags above it zero in a
        // length or distance entry) for the shift.
        let bits = saved & (UInt64(1) &<< UInt64(entry) &- 1)
        return Int(truncatingIfNeeded: bits &>> UInt64(entry &>> 8))
    }

    /// The error an invalid table entry stands for (`Spec/deflate.md` §5.3).
    static func error(forInvalid entry: UInt32, in table: InflateError.Table) -> InflateError {
        let value = entry >> 16
        if value == HuffmanEntry.unassignedValue { return .unassignedCode(table: table) }
        return .invalidSymbol(table: table, symbol: Int(value))
    }
}

/// Whether a copy of the fast loop checks each match's distance
/// (``Inflater/decodeFast(output:capacity:count:)``).
protocol FastLoopDistances {
    static var areChecked: Bool { get }
}

/// Distances are checked: fewer than 32,768 bytes are out.
enum CheckedDistances: FastLoopDistances {
    static var areChecked: Bool { true }
}

/// Distances need no check: at least 32,768 bytes are out, as far as any distance reaches.
enum TrustedDistances: FastLoopDistances {
    static var areChecked: Bool { false }
}
