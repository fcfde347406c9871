#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Streaming decompression: the output goes to a consumer piece by piece, through a sliding
/// window, so memory stays bounded whatever the stream expands to (`Spec/deflate.md` §6.4).
extension Decompressor {
    /// The most a match can reach back (RFC 1951 §3.2.5): the window keeps this much history.
    public static let windowHistory = 32_768

    /// The window the streaming decoders allocate: 32 KiB of history plus 224 KiB of new output
    /// per hand-over, so the slide moves one byte in eight and the window stays in L2 cache.
    public static let streamingWindowCapacity = 256 << 10

    /// Decompresses a zlib stream (RFC 1950) and hands its output to `consume` in order, in
    /// pieces, instead of returning it (`Spec/deflate.md` §2, §6.4).
    ///
    /// Memory is a window of min(256 KiB, `limit`) bytes plus about 60 KB of tables, whatever
    /// the output size; each piece is valid only during the call that receives it. The
    /// pieces, joined, are exactly what ``zlibDecompress(_:expectedSize:limit:)`` returns. The
    /// Adler-32 trailer covers the whole output, so it is checked after the last piece.
    ///
    /// - Parameters:
    ///   - input: the zlib stream; bytes after the Adler-32 trailer are ignored.
    ///   - limit: the most bytes the stream may produce; negative counts as 0.
    ///   - consume: receives each piece of output, never empty.
    /// - Returns: the number of bytes produced.
    /// - Throws: ``InflateError``, exactly as the array-returning form does for the same
    ///   arguments. Pieces handed over before an error are a prefix of the output.
    /// - Complexity: O(input + output) time.
    public static func zlibDecompress(
        _ input: UnsafeRawBufferPointer, limit: Int,
        consume: (UnsafeRawBufferPointer) -> Void
    ) throws(InflateError) -> Int {
        try zlibDecompress(
            input, limit: limit, windowCapacity: streamingWindowCapacity, consume: consume)
    }

    /// Decompresses raw DEFLATE data (RFC 1951) and hands its output to `consume` in order,
    /// in pieces (`Spec/deflate.md` §3, §6.4).
    ///
    /// - Parameters:
    ///   - input: the DEFLATE data; bytes after the final block are ignored.
    ///   - limit: the most bytes the data may produce; negative counts as 0.
    ///   - consume: receives each piece of output, never empty.
    /// - Returns: the number of bytes produced.
    /// - Throws: ``InflateError`` (any case but the zlib header and Adler-32 ones).
    public static func rawInflate(
        _ input: UnsafeRawBufferPointer, limit: Int,
        consume: (UnsafeRawBufferPointer) -> Void
    ) throws(InflateError) -> Int {
        try rawInflate(
            input, limit: limit, windowCapacity: streamingWindowCapacity, consume: consume)
    }

    /// ``zlibDecompress(_:limit:consume:)`` with a chosen window size (tests use small ones
    /// to make every match and literal cross a slide).
    static func zlibDecompress(
        _ input: UnsafeRawBufferPointer, limit: Int, windowCapacity: Int,
        consume: (UnsafeRawBufferPointer) -> Void
    ) throws(InflateError) -> Int {
        let inflater = try Decompressor.openZlib(input)
        var adler = Adler32()
        let produced = try stream(inflater, limit: limit, windowCapacity: windowCapacity) {
            adler.update($0)
            consume($0)
        }
        try inflater.checkAdler32(computed: adler.value)
        return produced
    }

    /// ``rawInflate(_:limit:consume:)`` with a chosen window size.
    static func rawInflate(
        _ input: UnsafeRawBufferPointer, limit: Int, windowCapacity: Int,
        consume: (UnsafeRawBufferPointer) -> Void
    ) throws(InflateError) -> Int {
        try stream(openRaw(input), limit: limit, windowCapacity: windowCapacity, consume: consume)
    }

    /// Runs `inflater` to the end of the final block through a sliding window
    /// (`Spec/deflate.md` §6.4).
    ///
    /// The inflater writes into the window as if it were the whole output. When the window is
    /// full, the new bytes go to `consume` and the last 32 KiB move to its start, where
    /// matches find them; the inflater resumes after them. Until the first slide the window
    /// holds the whole output, so `distanceTooFar` reports the true number of bytes produced;
    /// after it, at least 32 KiB are always behind the write position and no distance is too
    /// far.
    static func stream(
        _ inflater: Inflater, limit: Int, windowCapacity: Int,
        consume: (UnsafeRawBufferPointer) -> Void
    ) throws(InflateError) -> Int {
        let limit = max(limit, 0)
        let capacity = min(max(windowCapacity, windowHistory + 1), max(limit, 1))
        let window = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { window.deallocate() }
        // Bytes produced before window[0], bytes in the window, and how many of them the
        // consumer has seen.
        var base = 0
        var count = 0
        var handedOver = 0
        while true {
            // Room up to the limit; when the limit caps the room, running out of it is final.
            let allowed = limit - base
            let room = min(capacity, allowed)
            let progress = try inflater.run(
                output: window, capacity: room, count: &count, canGrow: room < allowed, limit: limit)
            if count > handedOver {
                consume(UnsafeRawBufferPointer(start: window + handedOver, count: count - handedOver))
            }
            if case .finished = progress { return base + count }
            let kept = min(count, windowHistory)
            window.update(from: window + (count - kept), count: kept)
            base += count - kept
            count = kept
            handedOver = kept
        }
    }

    /// An inflater at the start of raw DEFLATE data; empty input is truncated.
    static func openRaw(_ input: UnsafeRawBufferPointer) throws(InflateError) -> Inflater {
        guard let base = input.baseAddress, input.count > 0 else { throw .truncatedInput }
        return Inflater(input: base.assumingMemoryBound(to: UInt8.self), count: input.count, start: 0)
    }

    /// Checks the zlib header (`Spec/deflate.md` §2.1, §2.2) and returns an inflater
    /// positioned at the DEFLATE data.
    static func openZlib(_ input: UnsafeRawBufferPointer) throws(InflateError) -> Inflater {
        guard input.count >= 2, let base = input.baseAddress else { throw .truncatedInput }
        let cmf = input[0]
        let flg = input[1]
        let method = cmf & 0x0F
        let windowExponent = cmf >> 4
        if method != 8 || windowExponent > 7 || (UInt16(cmf) << 8 | UInt16(flg)) % 31 != 0 {
            throw .invalidZlibHeader(cmf: cmf, flg: flg)
        }
        if flg & 0x20 != 0 { throw .presetDictionaryUnsupported }
        return Inflater(input: base.assumingMemoryBound(to: UInt8.self), count: input.count, start: 2)
    }
}

extension Inflater {
    /// Reads the Adler-32 trailer after the final block and compares it with `computed`
    /// (`Spec/deflate.md` §2.4).
    func checkAdler32(computed: UInt32) throws(InflateError) {
        // The trailer starts at the next byte boundary: the Adler-32, most significant first.
        alignToByte()
        var declared: UInt32 = 0
        for _ in 0..<4 { declared = declared << 8 | (try readBits(8)) }
        if declared != computed { throw .adlerMismatch(declared: declared, computed: computed) }
    }
}
