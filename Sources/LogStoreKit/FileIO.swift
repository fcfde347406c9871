#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import Platform
#endif

/// Sequential writing through one buffer, for compaction and the snapshot.
final class FileAppender {
    let descriptor: Int32
    let path: String
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private var count = 0
    /// File offset of the buffer's first byte.
    private var position: UInt64

    init(descriptor: Int32, path: String, capacity: Int = 1 << 20, startingAt position: UInt64 = 0) {
        self.descriptor = descriptor
        self.path = path
        self.capacity = capacity
        self.position = position
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Bytes appended so far, counting from the start position.
    var length: UInt64 { position + UInt64(count) }

    func append(_ bytes: UnsafeRawBufferPointer) throws(LogStoreError) {
        var rest = bytes
        while rest.count > 0 {
            if count == capacity { try flush() }
            let chunk = min(rest.count, capacity - count)
            (buffer + count).copyMemory(from: rest.baseAddress!, byteCount: chunk)
            count += chunk
            rest = UnsafeRawBufferPointer(rebasing: rest[chunk...])
        }
    }

    func append<Value: FixedWidthInteger>(_ value: Value) throws(LogStoreError) {
        var little = value.littleEndian
        try withUnsafeBytes(of: &little) { (bytes) throws(LogStoreError) in try append(bytes) }
    }

    /// Flushes, then moves the write position `count` bytes on: the caller fills them directly.
    func skip(_ count: UInt64) throws(LogStoreError) {
        try flush()
        position += count
    }

    func flush() throws(LogStoreError) {
        guard count > 0 else { return }
        try storeIO {
            try FileSystem.write(
                descriptor, UnsafeRawBufferPointer(start: buffer, count: count), at: position, path: path)
        }
        position += UInt64(count)
        count = 0
    }
}

/// Sequential reading through a window, for compaction and verification: records are read
/// in file order, so one large read serves many small records.
final class WindowedReader {
    let descriptor: Int32
    let path: String
    let end: UInt64
    private let window: UnsafeMutableRawPointer
    private let capacity: Int
    private var windowStart: UInt64 = 0
    private var windowCount = 0

    init(descriptor: Int32, path: String, end: UInt64, capacity: Int = 1 << 20) {
        self.descriptor = descriptor
        self.path = path
        self.end = end
        self.capacity = capacity
        window = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { window.deallocate() }

    /// Passes the bytes `[offset, offset + count)` to `body` in one or more pieces, in order.
    /// - Throws: `truncatedRecord(offset:)` if the file ends first.
    func read(
        _ offset: UInt64, count: UInt64, _ body: (UnsafeRawBufferPointer) throws(LogStoreError) -> Void
    ) throws(LogStoreError) {
        var next = offset
        let stop = offset + count
        while next < stop {
            if next < windowStart || next >= windowStart + UInt64(windowCount) {
                let wanted = Int(min(UInt64(capacity), end > next ? end - next : 0))
                let got = try storeIO {
                    try FileSystem.read(
                        descriptor, into: UnsafeMutableRawBufferPointer(start: window, count: wanted),
                        at: next,
                        path: path)
                }
                windowStart = next
                windowCount = got
                if got == 0 { throw .truncatedRecord(offset: offset) }
            }
            let inWindow = Int(next - windowStart)
            let piece = Int(min(UInt64(windowCount - inWindow), stop - next))
            try body(UnsafeRawBufferPointer(start: window + inWindow, count: piece))
            next += UInt64(piece)
        }
    }

    /// Copies `[offset, offset + count)` into `destination` (which holds `count` bytes).
    func copy(_ offset: UInt64, count: Int, into destination: UnsafeMutableRawPointer) throws(LogStoreError) {
        var filled = 0
        try read(offset, count: UInt64(count)) { piece in
            (destination + filled).copyMemory(from: piece.baseAddress!, byteCount: piece.count)
            filled += piece.count
        }
    }
}
