#if !IMAGECACHE_SINGLE_MODULE
import Checksums
#endif

/// A fast path for zlib streams made only of stored blocks, such as the canonical encoding
/// (`Spec/png.md` §2.4, §6.2): the blocks are copied from the IDAT chunks straight into the
/// output, with no joined copy of the stream and no general inflate.
///
/// It only ever succeeds on a well-formed stream that yields exactly the expected size and
/// whose Adler-32 matches. On anything else (a compressed block, a bad header or length, a
/// short or long stream, a checksum mismatch) it returns nil and the caller runs the general
/// inflate, which reports the precise error; so this path changes speed, never results.
enum StoredImageData {
    /// Reads bytes across the IDAT data ranges in order.
    struct Reader {
        let file: UnsafeRawBufferPointer
        let ranges: [Range<Int>]
        var segment = 0
        var offset: Int

        init(file: UnsafeRawBufferPointer, ranges: [Range<Int>]) {
            self.file = file
            self.ranges = ranges
            offset = ranges.first?.lowerBound ?? 0
        }

        /// Copies `count` bytes to `destination`; false when the stream ends first.
        mutating func read(into destination: UnsafeMutableRawPointer, count: Int) -> Bool {
            var written = 0
            while written < count {
                while offset == ranges[segment].upperBound {
                    segment += 1
                    guard segment < ranges.count else { return false }
                    offset = ranges[segment].lowerBound
                }
                let step = min(count - written, ranges[segment].upperBound - offset)
                (destination + written).copyMemory(from: file.baseAddress! + offset, byteCount: step)
                offset += step
                written += step
            }
            return true
        }

        mutating func readBytes(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let complete = bytes.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count) }
            return complete ? bytes : nil
        }
    }

    /// The decompressed stream, or nil when the fast path does not apply.
    static func decompress(_ file: UnsafeRawBufferPointer, ranges: [Range<Int>], expected: Int) -> [UInt8]? {
        var reader = Reader(file: file, ranges: ranges)
        guard let header = reader.readBytes(2) else { return nil }
        let cmf = Int(header[0]), flg = Int(header[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, flg & 0x20 == 0, (cmf * 256 + flg) % 31 == 0 else { return nil }
        // Peek at the first block: anything but a stored block goes to the general inflate
        // before an image-sized buffer is allocated.
        var probe = reader
        guard let first = probe.readBytes(1), first[0] & 0x06 == 0 else { return nil }

        var succeeded = false
        let output = [UInt8](unsafeUninitializedCapacity: expected) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            PlatformMemory.adviseHugePages(base, count: expected)
            var adler = Adler32()
            var produced = 0
            while true {
                guard let blockHeader = reader.readBytes(5), blockHeader[0] & 0x06 == 0 else { break }
                let length = Int(blockHeader[1]) | Int(blockHeader[2]) << 8
                let complement = Int(blockHeader[3]) | Int(blockHeader[4]) << 8
                guard length ^ complement == 0xFFFF, length <= expected - produced else { break }
                guard reader.read(into: base + produced, count: length) else { break }
                adler.update(UnsafeRawBufferPointer(start: base + produced, count: length))
                produced += length
                guard blockHeader[0] & 1 == 1 else { continue }
                if produced == expected, let trailer = reader.readBytes(4) {
                    let declared = UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8 | UInt32(trailer[3])
                    succeeded = declared == adler.value
                }
                break
            }
            initialized = succeeded ? expected : 0
        }
        return succeeded ? output : nil
    }
}
