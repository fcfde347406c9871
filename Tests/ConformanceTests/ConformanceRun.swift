import Foundation

/// Runs the built `conformance` runner as a child process and captures what it prints.
///
/// The executables sit next to the test bundle (`.build/<configuration>/`), because this test
/// target depends on both executable targets.
struct ConformanceRun {
    var status: Int32
    var output: String

    /// The counts from the last line, `N passed, N failed`.
    var counts: (passed: Int, failed: Int)? {
        guard let last = output.split(separator: "\n").last else { return nil }
        let words = last.split(separator: " ")
        guard words.count == 4, words[1] == "passed,", words[3] == "failed",
            let passed = Int(words[0]), let failed = Int(words[2])
        else { return nil }
        return (passed, failed)
    }

    /// Names of the cases reported as failing.
    var failedCases: [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }.map { String($0.dropFirst(5)) }
    }

    static let buildFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let runner = buildFolder.appendingPathComponent("conformance").path
    static let driver = buildFolder.appendingPathComponent("conformance-driver").path
    /// The package's Conformance/ folder, found from this source file.
    static let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Conformance").path
    /// The cases our own driver is known to fail, each with the reason.
    static let expectedFailures = URL(fileURLWithPath: cases).appendingPathComponent(
        "expected-failures-imagecache.txt"
    ).path

    /// Runs `conformance ARGUMENTS`, with the output in a temporary file so no pipe can fill up.
    static func run(_ arguments: [String]) throws -> ConformanceRun {
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-run-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let handle = try FileHandle(forWritingTo: outputFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runner)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = try String(contentsOf: outputFile, encoding: .utf8)
        return ConformanceRun(status: process.terminationStatus, output: output)
    }
}

/// A temporary folder with a fake driver script and a small case folder, for testing the
/// runner's handling of broken drivers without depending on the real one.
struct FakeDriverFolder {
    let url: URL

    /// A POSIX shell driver: answers `hello`, answers `ok` with `{"value": 1}`, kills itself on
    /// `crash`, never answers `hang`, and writes a non-JSON line on `garbage`.
    static let script = #"""
        #!/bin/sh
        while IFS= read -r line; do
          id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
          case "$line" in
            *'"op":"hello"'*) printf '{"id":%s,"protocol":1,"implementation":"fake","areas":["png","store","cache"],"backends":["log"]}\n' "$id" ;;
            *'"op":"crash"'*) echo "fake driver: crashing on purpose" >&2; kill -KILL $$ ;;
            *'"op":"hang"'*) exec sleep 300 ;;
            *'"op":"garbage"'*) echo "this is not JSON" ;;
            *) printf '{"id":%s,"value":1}\n' "$id" ;;
          esac
        done
        """#

    init(cases: [(name: String, op: String)]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-fake-\(UUID().uuidString)")
        let png = url.appendingPathComponent("cases/png")
        try FileManager.default.createDirectory(at: png, withIntermediateDirectories: true)
        try FakeDriverFolder.script.write(
            to: url.appendingPathComponent("driver.sh"), atomically: true, encoding: .utf8)
        let items = cases.map {
            """
            {"name": "\($0.name)", "steps": [{"request": {"op": "\($0.op)"}, "expect": {"value": 1}}]}
            """
        }
        let document = "{\"area\": \"png\", \"cases\": [\(items.joined(separator: ",\n"))]}\n"
        try document.write(to: png.appendingPathComponent("fake.json"), atomically: true, encoding: .utf8)
    }

    var casesPath: String { url.appendingPathComponent("cases").path }
    var driverCommand: [String] { ["sh", url.appendingPathComponent("driver.sh").path] }

    func write(expectedFailures: String) throws -> String {
        let path = url.appendingPathComponent("expected-failures.txt").path
        try expectedFailures.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
