import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

extension TemporaryDirectory {
    /// The path of a file in the folder; `store.log` by default.
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

/// The generation in the header of the log at `path` (`Spec/store.md` §2).
func logGeneration(_ path: String) -> UInt64 {
    fileBytes(path).withUnsafeBytes { RecordFormat.load(at: 16, from: $0) }
}

/// What the sync mark beside the log at `path` names (`Spec/store.md` §4.1), or nil when it is
/// missing or not a mark.
struct SyncMark: Equatable {
    var generation: UInt64
    var length: UInt64
}

func syncMark(_ path: String) -> SyncMark? {
    let bytes = fileBytes(path + ".sync")
    guard bytes.count == 32, Array(bytes[0..<8]) == SyncMarkFormat.magic else { return nil }
    return bytes.withUnsafeBytes {
        SyncMark(generation: RecordFormat.load(at: 8, from: $0), length: RecordFormat.load(at: 16, from: $0))
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    precondition(
        FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not write \(path)")
}

/// A flag that can be set once from any thread, for test hooks that must act only the first
/// time they run.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false

    /// Sets the flag; whether this call set it (false when it was set already).
    func setOnce() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if set { return false }
        set = true
        return true
    }

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }
}

/// A value one thread sets and others (or test hooks, made before the handle they must reach
/// exists) read, under a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}

/// A number one thread sets and others read, under a lock; 0 at first.
typealias SharedNumber = LockedBox<Int>

extension LockedBox where Value == Int {
    convenience init() { self.init(0) }
}
