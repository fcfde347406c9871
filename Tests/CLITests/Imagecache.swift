import Foundation
import Testing

/// The `imagecache` binary built next to the test bundle (`.build/<configuration>/`), or the
/// one `IMAGECACHE_BINARY` names (to run these tests against a release or an older build).
func imagecacheBinary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["IMAGECACHE_BINARY"], !path.isEmpty {
        return URL(fileURLWithPath: path)
    }
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
    /// The lines of standard error (a failure prints exactly one).
    var errorLines: [Substring] { error.split(separator: "\n") }
}

/// Runs `imagecache ARGUMENTS`, feeding `input` on standard input.
///
/// - Parameters:
///   - environment: variables to set on top of this process's; `XDG_CACHE_HOME` is always set
///     (to a folder no test uses unless it passes its own), so a test that leaves out
///     `--store` never touches the real default store.
///   - directory: the working directory (default: this process's).
///   - launcher: words to run the tool through, such as `setpriv … --`.
func imagecache(
    _ arguments: [String], input: [UInt8] = [], environment: [String: String] = [:], directory: String? = nil,
    launcher: [String] = []
) throws -> CommandOutcome {
    let process = Process()
    let binary = try imagecacheBinary()
    if launcher.isEmpty {
        process.executableURL = binary
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments = Array(launcher.dropFirst()) + [binary.path] + arguments
    }
    var variables = ProcessInfo.processInfo.environment
    variables["XDG_CACHE_HOME"] =
        FileManager.default.temporaryDirectory.path + "/imagecache-cli-tests-default"
    variables.merge(environment) { $1 }
    process.environment = variables
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    // Feed and drain on other threads, so a large input or output cannot deadlock the pipes.
    let group = DispatchGroup()
    let writer = standardInput.fileHandleForWriting
    // A command that fails before reading its input closes the pipe: that must not kill the tests.
    _ = ignoreBrokenPipes
    DispatchQueue.global().async(group: group) {
        try? writer.write(contentsOf: Data(input))
        try? writer.close()
    }
    let errorBox = DataBox()
    let errorReader = error.fileHandleForReading
    DispatchQueue.global().async(group: group) { errorBox.data = errorReader.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    group.wait()
    return CommandOutcome(
        status: process.terminationStatus, output: [UInt8](outputData),
        error: String(decoding: errorBox.data, as: UTF8.self))
}

/// SIGPIPE ignored in this process, once: a write to a closed pipe then fails with EPIPE.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Hands the standard-error bytes from the draining thread to the caller.
private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    var data: Data {
        get { lock.withLock { stored ?? Data() } }
        set { lock.withLock { stored = newValue } }
    }
}
