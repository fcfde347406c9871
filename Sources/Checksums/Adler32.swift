/// Adler-32, the checksum that closes every zlib stream (RFC 1950 §8.2).
///
/// `Adler32.checksum(of: "Wikipedia")` is 0x11E60398. The modulo is deferred: 5,552 is the
/// largest run of 0xFF bytes after which `b` still fits in 32 bits, so the loop reduces once
/// per block instead of once per byte.
public struct Adler32: Sendable, Hashable {
    /// The checksum of everything passed to ``update(_:)`` so far; 1 for no bytes.
    public var value: UInt32 { (b << 16) | a }

    @usableFromInline var a: UInt32 = 1
    @usableFromInline var b: UInt32 = 0

    static let modulus: UInt32 = 65_521
    static let blockLength = 5_552

    /// Starts an empty checksum, whose value is 1.
    public init() {}

    /// Adds `bytes` to the checksum.
    ///
    /// - Complexity: O(n).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var a = self.a
        var b = self.b
        var offset = 0
        let count = bytes.count
        while offset < count {
            let end = min(offset + Adler32.blockLength, count)
            // Four bytes per step: b gains 4a + 4s0 + 3s1 + 2s2 + s3, a gains the sum.
            while offset + 4 <= end {
                let s0 = UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
                let s1 = UInt32(base.load(fromByteOffset: offset + 1, as: UInt8.self))
                let s2 = UInt32(base.load(fromByteOffset: offset + 2, as: UInt8.self))
                let s3 = UInt32(base.load(fromByteOffset: offset + 3, as: UInt8.self))
                b = b &+ 4 &* a &+ 4 &* s0 &+ 3 &* s1 &+ 2 &* s2 &+ s3
                a = a &+ s0 &+ s1 &+ s2 &+ s3
                offset += 4
            }
            while offset < end {
                a = a &+ UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
                b = b &+ a
                offset += 1
            }
            a %= Adler32.modulus
            b %= Adler32.modulus
        }
        self.a = a
        self.b = b
    }

    /// Adds the bytes of a sequence to the checksum.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            for byte in bytes {
                a = (a + UInt32(byte)) % Adler32.modulus
                b = (b + a) % Adler32.modulus
            }
        }
    }

    /// The Adler-32 of `bytes`.
    public static func checksum(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }

    /// The Adler-32 of a byte sequence.
    public static func checksum<Bytes: Sequence>(of bytes: Bytes) -> UInt32
    where Bytes.Element == UInt8 {
        var adler = Adler32()
        adler.update(bytes)
        return adler.value
    }
}
