import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value above 2 GiB through `put FILE`, `get KEY OUT` and `get KEY` to standard output.
/// One `write(2)` on Linux moves at most 2,147,479,552 bytes, so a single write of the whole
/// value (what `FileManager.createFile` did) left a corrupt file (`Spec/cache.md` §12.6).
@Suite struct LargeValueTests {
    /// 2 GiB + 4097: past both 2^31 and the 2,147,479,552-byte limit of one write.
    static let size = (1 << 31) + 4097
    static let chunk = 1 << 20

    /// Why the test cannot run here, or nil: it needs three copies of the value on disk (the
    /// input, the store, the output) and, for the tool, memory for about three in-memory copies.
    static let skipReason: String? = {
        let folder = FileManager.default.temporaryDirectory.path
        var file = statvfs()
        let needDisk = UInt64(3 * size + (1 << 30))
        if statvfs(folder, &file) == 0 {
            let free = UInt64(file.f_bavail) * UInt64(file.f_frsize)
            if free < needDisk {
                return "SKIPPED: needs \(needDisk >> 20) MiB free in \(folder), has \(free >> 20) MiB"
            }
        }
        let needMemory = UInt64(3 * size)
        if let available = availableMemory(), available < needMemory {
            return "SKIPPED: needs \(needMemory >> 20) MiB of available memory, has \(available >> 20) MiB"
        }
        return nil
    }()

    /// MemAvailable from /proc/meminfo, in bytes; nil where there is no such file.
    static func availableMemory() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
            return digits.map { $0 * 1024 }
        }
        return nil
    }

    /// One MiB of fixed pseudo-random bytes (xorshift, fixed seed): every chunk's body.
    static let base: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: chunk)
        bytes.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for position in words.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[position] = state
            }
        }
        return bytes
    }()

    /// Chunk `index` of the value: ``base`` with the chunk's number in its first 8 bytes, so a
    /// chunk written twice or in the wrong place is caught.
    static func fill(_ buffer: inout [UInt8], chunk index: Int) {
        buffer = base
        buffer.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(index).littleEndian, as: UInt64.self) }
    }

    /// Writes the value to `path` one chunk at a time.
    static func writeValue(to path: String) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var buffer = [UInt8](repeating: 0, count: chunk)
        var written = 0
        var index = 0
        while written < size {
            fill(&buffer, chunk: index)
            let count = min(chunk, size - written)
            try handle.write(contentsOf: buffer[0..<count])
            written += count
            index += 1
        }
        try handle.close()
    }

    /// Whether the file at `path` holds exactly the value; reads one chunk at a time.
    static func holdsValue(_ path: String) throws -> Bool {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard (attributes[.size] as? Int) == size else { return false }
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        var expected = [UInt8](repeating: 0, count: chunk)
        var checked = 0
        var index = 0
        while checked < size {
            fill(&expected, chunk: index)
            let count = min(chunk, size - checked)
            guard let data = try handle.read(upToCount: count), data.count == count else { return false }
            let same = data.withUnsafeBytes { actual in
                expected.withUnsafeBytes { memcmp(actual.baseAddress!, $0.baseAddress!, count) == 0 }
            }
            guard same else { return false }
            checked += count
            index += 1
        }
        return true
    }

    @Test(.enabled(if: skipReason == nil, Comment(rawValue: skipReason ?? "")))
    func aValueAboveTwoGiBRoundTripsThroughFilesAndStandardOutput() throws {
        let scratch = TemporaryDirectory()
        let input = scratch.path + "/in.bin"
        try Self.writeValue(to: input)
        let store = ["--store", scratch.path + "/cache"]
        let put = try imagecache(["put"] + store + ["big", input])
        #expect(put.status == 0, "\(put.error)")
        try FileManager.default.removeItem(atPath: input)
        #expect(try imagecache(["ls", "--json"] + store).text.contains("\"bytes\":\(Self.size),"))

        let output = scratch.path + "/out.bin"
        let get = try imagecache(["get"] + store + ["big", output])
        #expect(get.status == 0, "\(get.error)")
        #expect(try Self.holdsValue(output))
        try FileManager.default.removeItem(atPath: output)

        // Standard output redirected to a file: the same chunked writes.
        let process = Process()
        process.executableURL = try imagecacheBinary()
        process.arguments = ["get"] + store + ["--read-only", "big"]
        #expect(FileManager.default.createFile(atPath: output, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: output))
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0)
        #expect(try Self.holdsValue(output))
    }
}
