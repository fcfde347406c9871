/// The constants that frame a PNG file (`Spec/png.md` §1, §5).
enum PNGSignature {
    /// 89 50 4E 47 0D 0A 1A 0A.
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

/// Chunk types as big-endian 32-bit values of their four ASCII letters.
enum ChunkType {
    static let header: UInt32 = 0x4948_4452  // IHDR
    static let palette: UInt32 = 0x504C_5445  // PLTE
    static let imageData: UInt32 = 0x4944_4154  // IDAT
    static let end: UInt32 = 0x4945_4E44  // IEND
    static let transparency: UInt32 = 0x7452_4E53  // tRNS

    /// The four letters of a chunk type, with anything unprintable shown as `?`.
    static func name(_ type: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
