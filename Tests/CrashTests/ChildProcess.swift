import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child binary `name` (`cache-torture-child`, `store-torture-child`) built next to the
/// test bundle.
func childBinary(_ name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    let fallback = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
    try #require(FileManager.default.isExecutableFile(atPath: fallback.path), "build \(name) first")
    return fallback
}

/// A running child and the lines it has printed.
final class Child {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var pending = ""
    private(set) var lines: [String] = []

    /// Starts `binary` with `arguments`.
    init(_ arguments: [String], binary: String = "cache-torture-child") throws {
        process.executableURL = try childBinary(binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads until `count` whole lines have arrived in all, or the child's output ends.
    func waitForLines(_ count: Int) {
        while lines.count < count {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return }
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                lines.append(String(pending[..<newline]))
                pending = String(pending[pending.index(after: newline)...])
            }
        }
    }

    /// Kills the child with SIGKILL and collects every whole line it printed.
    func kill() {
        _ = systemKill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        pending += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // A line cut by the kill has no newline and does not count.
        while let newline = pending.firstIndex(of: "\n") {
            lines.append(String(pending[..<newline]))
            pending = String(pending[pending.index(after: newline)...])
        }
    }

    /// Ends the child's standard input and waits for it to exit.
    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        waitForLines(Int.max)
    }
}

/// Every file under `url` with its bytes, to show that nothing there changed.
func snapshotOfFiles(under url: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { return result }
    while let relative = enumerator.nextObject() as? String {
        let path = url.path + "/" + relative
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            result[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
    }
    return result
}

func systemKill(_ pid: Int32, _ signal: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.kill(pid, signal)
    #else
        Glibc.kill(pid, signal)
    #endif
}
