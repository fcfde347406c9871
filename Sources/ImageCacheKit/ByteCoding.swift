/// Little-endian writing and bounds-checked reading for the backends' file formats
/// (`Spec/backends.md` §1.1: every integer is little-endian).
struct ByteWriter {
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    mutating func append(_ raw: String.UTF8View) {
        bytes.append(contentsOf: raw)
    }
}

/// Reads fields in order; every read returns nil instead of running past the end.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func read<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        let size = MemoryLayout<Integer>.size
        guard remaining >= size else { return nil }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Integer.self) }
        offset += size
        return Integer(littleEndian: value)
    }

    mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}

/// `array.withUnsafeBytes(body)` that keeps `body`'s typed error (the standard library's
/// `rethrows` erases it).
@inline(__always)
func withBytes<Value, Failure: Error>(
    of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(Failure) -> Value
) throws(Failure) -> Value {
    let outcome = array.withUnsafeBytes { bytes in Result { () throws(Failure) in try body(bytes) } }
    return try outcome.get()
}

/// `array.withUnsafeMutableBytes(body)` that keeps `body`'s typed error.
@inline(__always)
func withMutableBytes<Value, Failure: Error>(
    of array: inout [UInt8], _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Value
) throws(Failure) -> Value {
    let outcome = array.withUnsafeMutableBytes { bytes in Result { () throws(Failure) in try body(bytes) } }
    return try outcome.get()
}
