/// Why a zlib or raw DEFLATE stream could not be decompressed (`Spec/deflate.md` §7).
///
/// Every case names one rule of RFC 1950 / RFC 1951 (or one of this decoder's limits) and
/// carries the values that broke it. The case name is the stable error name listed in the spec.
public enum InflateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Huffman code a failure was found in (`Spec/deflate.md` §5).
    public enum Table: String, Sendable, Hashable, CaseIterable {
        /// The 19-symbol code that transmits a dynamic block's code lengths.
        case codeLength
        /// The literal/length code (symbols 0–287).
        case literalLength
        /// The distance code (symbols 0–31).
        case distance
    }

    /// The input ended before the stream did: a block, a code, its extra bits, the zlib
    /// header or the Adler-32 trailer needs bits past the last input byte.
    case truncatedInput
    /// The two zlib header bytes are not a valid header: the compression method is not 8, the
    /// window size exceeds 32 KiB (CINFO > 7), or `(cmf * 256 + flg) % 31 != 0`.
    case invalidZlibHeader(cmf: UInt8, flg: UInt8)
    /// The zlib header sets FDICT: the data needs a preset dictionary this decoder lacks.
    case presetDictionaryUnsupported
    /// A block header has BTYPE 3, which RFC 1951 reserves.
    case invalidBlockType
    /// A stored block's NLEN is not the one's complement of its LEN.
    case storedLengthMismatch(length: UInt16, complement: UInt16)
    /// A dynamic block declares more than 286 literal/length codes or more than 30 distance
    /// codes.
    case tooManyCodes(literalLength: Int, distance: Int)
    /// A code-length repeat (symbol 16) comes first, with no previous length to repeat.
    case repeatWithoutPreviousLength
    /// A code-length repeat (symbols 16–18) runs past the number of lengths the block
    /// declared: `count` lengths were asked for where only `remaining` were left.
    case codeLengthsOverflow(count: Int, remaining: Int)
    /// A dynamic block gives the end-of-block symbol (256) no code.
    case missingEndOfBlock
    /// The code lengths of `table` claim more codes than bit patterns exist (Kraft sum > 1).
    case oversubscribedCode(table: Table)
    /// The code lengths of `table` leave bit patterns unused, beyond the incomplete codes
    /// RFC 1951 allows (one code of one bit; no distance codes at all).
    case incompleteCode(table: Table)
    /// The stream uses a bit pattern that the incomplete code of `table` leaves unassigned.
    case unassignedCode(table: Table)
    /// The stream uses a symbol that has a fixed-Huffman code but no meaning: literal/length
    /// 286 or 287, distance 30 or 31.
    case invalidSymbol(table: Table, symbol: Int)
    /// A match reaches back `distance` bytes when only `available` bytes have been produced.
    case distanceTooFar(distance: Int, available: Int)
    /// The stream would produce more than `limit` bytes.
    case outputLimitExceeded(limit: Int)
    /// The Adler-32 in the zlib trailer differs from that of the decompressed bytes.
    case adlerMismatch(declared: UInt32, computed: UInt32)

    /// A sentence that says what is wrong with the data and what the user can do about it.
    public var description: String {
        switch self {
        case .truncatedInput:
            return "The compressed data ends too early; the file was probably cut off "
                + "during download or copy, so obtain a complete copy."
        case .invalidZlibHeader(let cmf, let flg):
            return "The zlib header bytes 0x\(hex(cmf)) 0x\(hex(flg)) are invalid (method "
                + "must be 8, window at most 32 KiB, check bits divisible by 31); the data "
                + "is not a zlib stream or is corrupt."
        case .presetDictionaryUnsupported:
            return "The zlib stream needs a preset dictionary, which is not supported; "
                + "re-compress the data without one."
        case .invalidBlockType:
            return "A DEFLATE block has the reserved type 3; the compressed data is corrupt."
        case .storedLengthMismatch(let length, let complement):
            return "A stored block's length \(length) does not match its complement "
                + "\(complement); the compressed data is corrupt."
        case .tooManyCodes(let literalLength, let distance):
            return "A dynamic block declares \(literalLength) literal/length and \(distance) "
                + "distance codes, more than the 286 and 30 DEFLATE allows; the data is corrupt."
        case .repeatWithoutPreviousLength:
            return "A dynamic block repeats a previous code length before giving any; "
                + "the compressed data is corrupt."
        case .codeLengthsOverflow(let count, let remaining):
            return "A dynamic block repeats a code length \(count) times with only "
                + "\(remaining) lengths left to fill; the compressed data is corrupt."
        case .missingEndOfBlock:
            return "A dynamic block has no code for the end-of-block symbol; "
                + "the compressed data is corrupt."
        case .oversubscribedCode(let table):
            return "The \(table.phrase) code lengths describe more codes than can exist; "
                + "the compressed data is corrupt."
        case .incompleteCode(let table):
            return "The \(table.phrase) code lengths leave codes unused; "
                + "the compressed data is corrupt."
        case .unassignedCode(let table):
            return "The data uses a \(table.phrase) code that its block never assigned; "
                + "the compressed data is corrupt."
        case .invalidSymbol(let table, let symbol):
            return "The data uses the reserved \(table.phrase) symbol \(symbol); "
                + "the compressed data is corrupt."
        case .distanceTooFar(let distance, let available):
            return "A match refers \(distance) bytes back when only \(available) bytes "
                + "exist; the compressed data is corrupt."
        case .outputLimitExceeded(let limit):
            return "The data decompresses to more than the limit of \(limit) bytes; "
                + "raise the limit if the input is trusted."
        case .adlerMismatch(let declared, let computed):
            return "The Adler-32 checksum is 0x\(hex(computed)) but the stream declares "
                + "0x\(hex(declared)); the data is corrupt."
        }
    }
}

extension InflateError.Table {
    fileprivate var phrase: String {
        switch self {
        case .codeLength: return "code-length"
        case .literalLength: return "literal/length"
        case .distance: return "distance"
        }
    }
}

private func hex<Value: FixedWidthInteger>(_ value: Value) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    let width = Value.bitWidth / 4
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
