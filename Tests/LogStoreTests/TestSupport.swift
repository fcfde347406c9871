import Foundation
import Testing

@testable import LogStoreKit

/// A fresh directory per test, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init(_ name: String = #function) {
        let base = FileManager.default.temporaryDirectory.path
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = "\(base)/logstore-\(safe)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String = "store.log") -> String { "\(path)/\(name)" }
}

/// A small deterministic generator (xorshift64*), so fuzz-style tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

/// Deterministic bytes for a key: the value a test expects back.
func expectedValue(for index: Int, length: Int) -> [UInt8] {
    var generator = SeededGenerator(seed: UInt64(index) &+ 1)
    return (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
}

func metadata(_ sequence: UInt64, expiresAt: Int64 = .max) -> EntryMetadata {
    EntryMetadata(createdAt: 1_700_000_000_000, expiresAt: expiresAt, accessSequence: sequence)
}

func fileBytes(_ path: String) -> [UInt8] {
    [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    precondition(
        FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not write \(path)")
}
