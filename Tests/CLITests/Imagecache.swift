import Foundation
import Testing

/// The `imagecache` binary built next to the test bundle (`.build/<configuration>/`).
func imagecacheBinary() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("imagecache")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    let fallback = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("imagecache")
    try #require(
        FileManager.default.isExecutableFile(atPath: fallback.path), "build the imagecache product first")
    return fallback
}

/// What one run of the tool did.
struct CommandOutcome {
    var status: Int32
    var output: [UInt8]
    var error: String

    var text: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `imagecache ARGUMENTS`, feeding `input` on standard input.
func imagecache(_ arguments: [String], input: [UInt8] = []) throws -> CommandOutcome {
    let process = Process()
    process.executableURL = try imagecacheBinary()
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input))
    try standardInput.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandOutcome(
        status: process.terminationStatus, output: [UInt8](outputData),
        error: String(decoding: errorData, as: UTF8.self))
}

/// A fresh folder for one test, removed when the test lets go of it.
final class Scratch {
    let path: String

    init(_ name: String = #function) {
        path =
            FileManager.default.temporaryDirectory.path
            + "/imagecache-cli-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
