/// Decoding the symbols of fixed- and dynamic-Huffman blocks (`Spec/deflate.md` §4.4, §5).
extension Inflater {
    /// Room the fast loop keeps free at the end of the output: a 258-byte match plus the up to
    /// 7 bytes (rounded up here) that 8-byte copies write past its end.
    static let fastOutputMargin = 258 + 16

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
    /// the entry holds a pair.
    ///
    /// - Returns: true at the end-of-block symbol, false when it left the fast region.
    func decodeFast(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int
    ) throws(InflateError) -> Bool {
        let inputEnd = inputCount - 8
        let outputEnd = capacity - Inflater.fastOutputMargin
        var position = self.position
        guard position <= inputEnd && count <= outputEnd else { return false }
        let input = UnsafeRawPointer(self.input)
        let out = UnsafeMutableRawPointer(output)
        let fast = UnsafePointer(fastLiteralTable)
        let literals = UnsafePointer(literalTable)
        let distances = UnsafePointer(distanceTable)
        let literalRootBits = UInt64(HuffmanTableBuilder.literalRootBits)
        let literalMask = UInt64(1) &<< literalRootBits &- 1
        let distanceRootBits = UInt64(HuffmanTableBuilder.distanceRootBits)
        let distanceMask = UInt64(1) &<< distanceRootBits &- 1
        var bitBuffer = self.bitBuffer
        var bitCount = UInt64(self.bitCount)
        var written = count
        defer {
            self.position = position
            self.bitBuffer = bitBuffer
            self.bitCount = Int(bitCount)
            count = written
        }

        // Bits above `bitCount` are copies of the bytes at `position…` or zero, so OR-ing the
        // next 8 bytes in again is harmless; the position then advances by the whole bytes
        // that fit.
        @inline(__always) func refill() {
            let word = input.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            bitBuffer |= UInt64(littleEndian: word) &<< bitCount
            position &+= Int(truncatingIfNeeded: (63 &- bitCount) &>> 3)
            bitCount |= 56
        }
        // Writes a literal entry's one or two bytes; bits 0…5 of an entry are its code length,
        // and a masking shift uses just those, so the shift needs no mask on the critical path.
        @inline(__always) func emit(_ entry: UInt32) {
            out.storeBytes(
                of: UInt16(truncatingIfNeeded: entry &>> 16).littleEndian, toByteOffset: written,
                as: UInt16.self)
            written &+= 1 &+ Int(truncatingIfNeeded: entry &>> 6 & 1)
            bitBuffer &>>= UInt64(entry)
            bitCount &-= UInt64(entry & HuffmanEntry.lengthMask)
        }

        refill()
        var entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
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
                guard position <= inputEnd && written <= outputEnd else { return false }
                refill()
                continue
            }
            if entry & HuffmanEntry.subtable != 0 {
                let subMask = UInt64(1) &<< UInt64(HuffmanEntry.extraBits(entry)) &- 1
                let index = (bitBuffer &>> literalRootBits) & subMask
                entry = literals[Int(entry &>> 16) &+ Int(truncatingIfNeeded: index)]
                if entry & HuffmanEntry.literal != 0 {
                    output[written] = UInt8(truncatingIfNeeded: entry &>> 16)
                    written &+= 1
                    bitBuffer &>>= UInt64(entry)
                    bitCount &-= UInt64(entry & HuffmanEntry.lengthMask)
                    guard position <= inputEnd && written <= outputEnd else { return false }
                    refill()
                    entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
                    continue
                }
            }
            // A length, end of block or invalid: one shift drops the code and its extra
            // bits, which are read from the saved buffer, off the critical path.
            var saved = bitBuffer
            bitBuffer &>>= UInt64(entry)
            bitCount &-= UInt64(entry & HuffmanEntry.lengthMask)
            if entry & HuffmanEntry.exceptional != 0 {
                if entry & HuffmanEntry.endOfBlock != 0 { return true }
                throw Inflater.error(forInvalid: entry, in: .literalLength)
            }
            let length = Int(entry &>> 16) &+ Inflater.extraValue(entry, saved)

            var distanceEntry = distances[Int(truncatingIfNeeded: bitBuffer & distanceMask)]
            if distanceEntry & HuffmanEntry.subtable != 0 {
                let subMask = UInt64(1) &<< UInt64(HuffmanEntry.extraBits(distanceEntry)) &- 1
                let index = (bitBuffer &>> distanceRootBits) & subMask
                distanceEntry =
                    distances[Int(distanceEntry &>> 16) &+ Int(truncatingIfNeeded: index)]
            }
            saved = bitBuffer
            bitBuffer &>>= UInt64(distanceEntry)
            bitCount &-= UInt64(distanceEntry & HuffmanEntry.lengthMask)
            if distanceEntry & HuffmanEntry.invalid != 0 {
                throw Inflater.error(forInvalid: distanceEntry, in: .distance)
            }
            let distance = Int(distanceEntry &>> 16) &+ Inflater.extraValue(distanceEntry, saved)
            if distance > written {
                throw .distanceTooFar(distance: distance, available: written)
            }
            Inflater.copyMatchFast(
                output: output + written, distance: distance, length: length)
            written &+= length
            guard position <= inputEnd && written <= outputEnd else { return false }
            refill()
            entry = fast[Int(truncatingIfNeeded: bitBuffer & literalMask)]
        }
    }

    /// Copies a match that may overrun its end by up to 15 bytes.
    ///
    /// Distances of 8 or more copy 8 bytes at a time: each load reads only bytes already
    /// final. A distance of 1 repeats one byte. Shorter periods copy their first bytes one at
    /// a time and then 8 bytes at a time from a whole number of periods back, at least 8.
    @inline(__always)
    static func copyMatchFast(output: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let destination = UnsafeMutableRawPointer(output)
        if distance >= 8 {
            let source = UnsafeRawPointer(output - distance)
            var offset = 0
            repeat {
                let chunk = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                destination.storeBytes(of: chunk, toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            } while offset < length
        } else if distance == 1 {
            let pattern = UInt64(output[-1]) &* 0x0101_0101_0101_0101
            var offset = 0
            repeat {
                destination.storeBytes(of: pattern, toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            } while offset < length
        } else {
            // The smallest multiple of the period that is at least 8.
            let stride = (8 &+ distance &- 1) / distance &* distance
            var offset = 0
            while offset < stride &- distance {
                output[offset] = output[offset &- distance]
                offset &+= 1
            }
            let source = UnsafeRawPointer(output - stride)
            while offset < length {
                let chunk = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                destination.storeBytes(of: chunk, toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
        }
    }

    /// The extra bits of a length or distance entry, taken from `saved`, the bit buffer as it
    /// was before the entry's code and extra bits were dropped.
    @inline(__always)
    static func extraValue(_ entry: UInt32, _ saved: UInt64) -> Int {
        let extra = UInt64(HuffmanEntry.extraBits(entry))
        let code = UInt64(entry & HuffmanEntry.lengthMask) &- extra
        return Int(truncatingIfNeeded: (saved &>> code) & (UInt64(1) &<< extra &- 1))
    }

    /// The error an invalid table entry stands for (`Spec/deflate.md` §5.3).
    static func error(forInvalid entry: UInt32, in table: InflateError.Table) -> InflateError {
        let value = entry >> 16
        if value == HuffmanEntry.unassignedValue { return .unassignedCode(table: table) }
        return .invalidSymbol(table: table, symbol: Int(value))
    }
}
