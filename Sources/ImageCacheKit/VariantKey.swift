/// The key of a variant (`Spec/thumbnail.md` §5.2): `FF 56`, the maximum pixel size as a
/// big-endian u32, then the original's key bytes. No string key starts with 0xFF.
struct VariantKey: Hashable {
    static let prefix: [UInt8] = [0xFF, 0x56]
    /// The longest original key with stored variants: 65,535 − 6 bytes.
    static let maximumOriginalLength = 65_535 - 6

    var original: [UInt8]
    var maximumPixelSize: UInt32

    /// The variant's key bytes.
    var bytes: [UInt8] {
        var key = Self.prefix
        key.reserveCapacity(6 + original.count)
        withUnsafeBytes(of: maximumPixelSize.bigEndian) { key.append(contentsOf: $0) }
        key.append(contentsOf: original)
        return key
    }

    init(original: [UInt8], maximumPixelSize: UInt32) {
        self.original = original
        self.maximumPixelSize = maximumPixelSize
    }

    /// Parses a key; nil unless it is a variant's.
    init?<Bytes: Collection>(_ key: Bytes) where Bytes.Element == UInt8 {
        guard key.count > 6, key.starts(with: Self.prefix) else { return nil }
        var size: UInt32 = 0
        for byte in key.dropFirst(2).prefix(4) { size = size << 8 | UInt32(byte) }
        self.init(original: Array(key.dropFirst(6)), maximumPixelSize: size)
    }

    /// Whether `key` is a variant's key (cheap: its first byte).
    static func isVariant<Bytes: Collection>(_ key: Bytes) -> Bool where Bytes.Element == UInt8 {
        key.first == 0xFF
    }
}

extension VariantKey: CustomStringConvertible {
    /// `variant 128 of photo`: how messages name a variant, whose key bytes are not text.
    var description: String {
        "variant \(maximumPixelSize) of \(String(decoding: original, as: UTF8.self))"
    }
}
