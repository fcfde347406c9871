import Foundation
import Platform
import TestSupport
import Testing

/// The words of a shared mapping (`Spec/store.md` §12.2), as the lock of changes uses them: a
/// compare-and-swap takes a word, a store gives it back.
@Suite struct SharedWordsTests {
    /// Two threads take one word by compare-and-swap and give it back with a store, and count
    /// in another word only while they hold the first. No taking is undone and no count lost:
    /// a store is one access. (It went through `storeBytes`, which an unoptimised build made a
    /// `memcpy` that stores 8 bytes twice; a compare-and-swap between the two was undone, and
    /// the lock let two holders in, here about once in 4,000 givings back.)
    @Test func aWordGivenBackWithAStoreIsTakenByOneThreadAtATime() throws {
        let directory = TemporaryDirectory()
        let mapping = try Self.mappedFile(in: directory)
        let words = mapping.words
        let lock = 256
        let counter = 512
        let rounds = 400_000
        let lost = AtomicCount()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let token = UInt64(worker + 1)
            for _ in 0..<rounds {
                while !words.compareExchange(expecting: 0, replacingWith: token, at: lock) {}
                if words.load(at: lock) != token { lost.add(1) }
                words.store(words.load(at: counter) + 1, at: counter)
                words.storeReleasing(0, at: lock)
            }
        }
        #expect(lost.value ?? 0 == 0, "a taking of the word was undone while its holder held it")
        #expect(words.load(at: counter) == UInt64(2 * rounds))
        withExtendedLifetime(mapping) {}
    }

    /// The file's words are little-endian whatever the host (`Spec/store.md` §12.2), on every
    /// access path: a store lays the low byte first, a load and a compare-and-swap read bytes
    /// laid that way. (The atomics work in the host's order, which on a big-endian host would
    /// be the reverse.)
    @Test func wordsAreLittleEndianInTheFile() throws {
        let directory = TemporaryDirectory()
        let mapping = try Self.mappedFile(in: directory)
        let words = mapping.words
        let value: UInt64 = 0x0102_0304_0506_0708
        let laidOut: [UInt8] = [8, 7, 6, 5, 4, 3, 2, 1]
        func bytesInFile(at offset: Int) -> [UInt8] {
            Array(UnsafeRawBufferPointer(start: words.bytes(at: offset, count: 8), count: 8))
        }

        words.store(value, at: 64)
        #expect(bytesInFile(at: 64) == laidOut)

        laidOut.withUnsafeBytes {
            words.bytes(at: 128, count: 8).copyMemory(from: $0.baseAddress!, byteCount: 8)
        }
        #expect(words.load(at: 128) == value)
        #expect(words.compareExchange(expecting: value, replacingWith: value + 1, at: 128))
        #expect(bytesInFile(at: 128)[0] == 9)
        #expect(words.add(1, at: 128) == value + 1)
        #expect(words.load(at: 128) == value + 2)
        withExtendedLifetime(mapping) {}
    }

    /// A writable shared mapping of a new 4 KiB file in `directory`, its words all zero.
    static func mappedFile(in directory: TemporaryDirectory) throws -> SharedMapping {
        let path = directory.path + "/words"
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(ftruncate(fd, 4_096) == 0)
        return try SharedMapping.map(fd, length: 4_096, writable: true, path: path)
    }
}
