// The Inflate module: a complete decoder for DEFLATE (RFC 1951) inside zlib (RFC 1950).
#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
#endif

/// Decompression of zlib streams (RFC 1950) and raw DEFLATE data (RFC 1951).
///
/// Every function is a pure transformation of bytes, safe to call from any thread. No input
/// crashes, hangs or reads outside `input`; a malformed stream throws an ``InflateError`` that
/// names what is wrong (`Spec/deflate.md`).
public enum Decompressor {
    /// Decompresses a zlib stream (RFC 1950) holding DEFLATE data (RFC 1951), checking its
    /// header and Adler-32 trailer (`Spec/deflate.md` §2, §3).
    ///
    /// Bytes after the Adler-32 trailer are ignored, as PNG decoders customarily do.
    ///
    /// - Parameters:
    ///   - input: the zlib stream.
    ///   - expectedSize: the number of bytes the stream should produce, when known. The output
    ///     buffer is allocated once at this size (up to 1 GiB, `Spec/deflate.md` §6.2); a wrong
    ///     value only costs reallocations. `nil` starts from a guess and grows.
    ///   - limit: the most bytes the stream may produce; negative counts as 0.
    /// - Returns: the decompressed bytes.
    /// - Throws: ``InflateError``; `outputLimitExceeded(limit:)` as soon as the stream would
    ///   produce byte `limit + 1`, before any buffer grows past `limit`.
    /// - Complexity: O(input + output) time; memory O(output) plus about 60 KB of tables.
    public static func zlibDecompress(
        _ input: UnsafeRawBufferPointer, expectedSize: Int?, limit: Int
    ) throws(InflateError) -> [UInt8] {
        let inflater = try openZlib(input)
        inflater.tracksAdler32 = true
        let output = try decode(inflater, expectedSize: expectedSize, limit: limit)
        output.withUnsafeBytes {
            inflater.adler32.update(UnsafeRawBufferPointer(rebasing: $0[inflater.checksummed...]))
        }
        try inflater.checkAdler32(computed: inflater.adler32.value)
        return output
    }

    /// Decompresses a zlib stream held in an array (`Spec/deflate.md` §2, §3).
    ///
    /// - Parameters:
    ///   - input: the zlib stream.
    ///   - expectedSize: the output size when known (see the pointer-based overload).
    ///   - limit: the most bytes the stream may produce; unlimited by default.
    /// - Throws: ``InflateError``.
    public static func zlibDecompress(
        _ input: [UInt8], expectedSize: Int? = nil, limit: Int = .max
    ) throws(InflateError) -> [UInt8] {
        let result = input.withUnsafeBytes { bytes in
            Result { () throws(InflateError) in
                try zlibDecompress(bytes, expectedSize: expectedSize, limit: limit)
            }
        }
        return try result.get()
    }

    /// Decompresses raw DEFLATE data (RFC 1951), with no zlib header or trailer
    /// (`Spec/deflate.md` §3).
    ///
    /// Decoding stops after the block marked final; bytes after it are ignored.
    ///
    /// - Parameters:
    ///   - input: the DEFLATE data.
    ///   - expectedSize: the output size when known; `nil` starts from a guess and grows.
    ///   - limit: the most bytes the data may produce; negative counts as 0.
    /// - Returns: the decompressed bytes.
    /// - Throws: ``InflateError`` (any case but the zlib header and Adler-32 ones).
    public static func rawInflate(
        _ input: UnsafeRawBufferPointer, expectedSize: Int?, limit: Int
    ) throws(InflateError) -> [UInt8] {
        try decode(openRaw(input), expectedSize: expectedSize, limit: limit)
    }

    /// Decompresses raw DEFLATE data held in an array (`Spec/deflate.md` §3).
    ///
    /// - Throws: ``InflateError``.
    public static func rawInflate(
        _ input: [UInt8], expectedSize: Int? = nil, limit: Int = .max
    ) throws(InflateError) -> [UInt8] {
        let result = input.withUnsafeBytes { bytes in
            Result { () throws(InflateError) in
                try rawInflate(bytes, expectedSize: expectedSize, limit: limit)
            }
        }
        return try result.get()
    }

    /// DEFLATE cannot expand more than 1,032 times: a 258-byte match coded in two bits.
    static let maximumExpansion = 1_032

    /// The largest first allocation. A size hint read from an untrusted header (a PNG's width
    /// times height) must not reserve gigabytes before any data arrives; larger outputs grow.
    static let maximumInitialCapacity = 1 << 30

    /// Runs `inflater` to the end of the final block, growing the output as needed
    /// (`Spec/deflate.md` §6).
    static func decode(_ inflater: Inflater, expectedSize: Int?, limit: Int) throws(InflateError)
        -> [UInt8]
    {
        let limit = max(limit, 0)
        let (bound, overflow) = inflater.inputCount.multipliedReportingOverflow(
            by: maximumExpansion)
        let possible = overflow ? Int.max : bound
        let wanted = expectedSize.map { max($0, 0) } ?? max(4 * inflater.inputCount, 4_096)
        var capacity = min(wanted, limit, possible, maximumInitialCapacity)
        var produced = 0
        var output: [UInt8] = []
        while true {
            var progress = Inflater.Progress.finished
            var failure: InflateError?
            let previous = output
            output = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, count in
                let base = buffer.baseAddress!
                previous.withUnsafeBufferPointer { old in
                    if let oldBase = old.baseAddress { base.update(from: oldBase, count: produced) }
                }
                let room = min(buffer.count, limit)
                do throws(InflateError) {
                    progress = try inflater.run(
                        output: base, capacity: room, count: &produced, canGrow: room < limit,
                        limit: limit)
                } catch {
                    failure = error
                }
                count = produced
            }
            if let failure { throw failure }
            if case .finished = progress { return output }
            capacity = output.capacity > limit / 2 ? limit : max(2 * output.capacity, 4_096)
        }
    }
}
