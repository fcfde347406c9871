import Platform
import Testing

@Suite struct SystemMemoryTests {
    /// The touch loads the first byte of every 64-byte line and the last byte, and nothing
    /// past the buffer: each of those bytes alone shows in the result, others never do.
    @Test(arguments: [1, 63, 64, 65, 4096, 4153])
    func touchingLoadsEachLineAndTheLastByte(count: Int) {
        var bytes = [UInt8](repeating: 0, count: count + 1)
        bytes[count] = 0xFF  // past the buffer: never loaded
        let loaded = Set(stride(from: 0, to: count, by: 64)).union([count - 1])
        for index in 0..<count {
            bytes[index] = 1
            let touched = bytes.withUnsafeBytes {
                SystemMemory.touchEachCacheLine(of: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }
            #expect(touched == (loaded.contains(index) ? 1 : 0), "byte \(index) of \(count)")
            bytes[index] = 0
        }
        let empty = bytes.withUnsafeBytes {
            SystemMemory.touchEachCacheLine(of: UnsafeRawBufferPointer(rebasing: $0[0..<0]))
        }
        #expect(empty == 0)
    }
}
