import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Runs `conformance ARGUMENTS` with standard output on a pipe and returns the exit status
    /// and what it wrote on standard error.
    ///
    /// - Parameters:
    ///   - closedFirst: true to close the pipe's reading end before the runner starts, so that
    ///     its very first write finds nobody reading.
    ///   - whileRunning: called with the reading end once the runner runs (unless
    ///     `closedFirst`); closing it makes the runner's later writes fail.
    static func runIntoPipe(
        _ arguments: [String], closedFirst: Bool = false, whileRunning: (FileHandle) throws -> Void = { _ in }
    ) throws -> (status: Int32, errors: String) {
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-errors-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        // The runner must get only the writing end, as its standard output (dup2 clears the flag).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        let writing = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        if closedFirst { try reading.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runner)
        process.arguments = arguments
        process.standardOutput = writing
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Only the runner may hold the writing end, or a closed reading end would not show.
        try writing.close()
        if !closedFirst {
            try whileRunning(reading)
            try? reading.close()
        }
        process.waitUntilExit()
        try errors.close()
        return (process.terminationStatus, try String(contentsOf: errorFile, encoding: .utf8))
    }
}

extension FileHandle {
    /// Reads until a newline and returns the line without it; nil at the end of the data.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// A temporary folder with a fake driver script and a small case folder, for testing the
/// runner's handling of broken drivers without depending on the real one.
struct FakeDriverFolder {
    let url: URL

    /// A POSIX shell driver. It appends every request line to `requests.log`; answers an op
    /// that has a file in `replies/` with that file's fields (see `reply(to:with:)`, which can
    /// replace even `hello`); answers `hello`, answers `ok` with `{"value": 1}`, kills itself on
    /// `crash`, never answers `hang`, writes a non-JSON line on `garbage` (with control
    /// characters on `control`), closes its input before answering `deaf` (and then sleeps),
    /// answers `gate` only once the file `gate` exists, answers `stall` and then reads nothing
    /// more (its input stays open), and answers `signals` with its mask of ignored signals
    /// (Linux).
    static let script = #"""
        #!/bin/sh
        dir=$(dirname "$0")
        while IFS= read -r line; do
          printf '%s\n' "$line" >> "$dir/requests.log"
          id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
          op=$(printf '%s' "$line" | sed -n 's/.*"op":"\([^"]*\)".*/\1/p')
          if [ -f "$dir/replies/$op" ]; then
            printf '{"id":%s,%s}\n' "$id" "$(cat "$dir/replies/$op")"
            continue
          fi
          case "$op" in
            hello) printf '{"id":%s,"protocol":1,"implementation":"fake","areas":["png","store","cache"],"backends":["log"]}\n' "$id" ;;
            crash) echo "fake driver: crashing on purpose" >&2; kill -KILL $$ ;;
            hang) exec sleep 300 ;;
            garbage) echo "this is not JSON" ;;
            control) printf 'not JSON \001\033[0m <&>\n' ;;
            signals) printf '{"id":%s,"value":1,"ignored":"%s"}\n' "$id" "$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)" ;;
            deaf) exec 0<&-; printf '{"id":%s,"value":1}\n' "$id"; exec sleep 300 ;;
            stall) printf '{"id":%s,"value":1}\n' "$id"; exec sleep 300 ;;
            gate) while [ ! -e "$dir/gate" ]; do sleep 0.05; done; printf '{"id":%s,"value":1}\n' "$id" ;;
            *) printf '{"id":%s,"value":1}\n' "$id" ;;
          esac
        done
        """#

    /// A folder whose `png/fake.json` has one single-step case per entry, sending `op` and
    /// expecting `{"value": 1}`.
    init(cases: [(name: String, op: String)]) throws {
        let items = cases.map {
            """
            {"name": "\($0.name)", "steps": [{"request": {"op": "\($0.op)"}, "expect": {"value": 1}}]}
            """
        }
        try self.init(png: "{\"area\": \"png\", \"cases\": [\(items.joined(separator: ",\n"))]}\n")
    }

    /// A folder with the given case files: `png` becomes `png/fake.json`, `cache` (if any)
    /// `cache/fake.json`.
    init(png: String, cache: String? = nil) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-fake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("replies"), withIntermediateDirectories: true)
        try FakeDriverFolder.script.write(
            to: url.appendingPathComponent("driver.sh"), atomically: true, encoding: .utf8)
        for (area, document) in [("png", png), ("cache", cache)] {
            guard let document else { continue }
            let folder = url.appendingPathComponent("cases/\(area)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try document.write(
                to: folder.appendingPathComponent("fake.json"), atomically: true, encoding: .utf8)
        }
    }

    /// Makes the driver answer `op` with `{"id": …, FIELDS}`; `fields` is the JSON text of the
    /// members, for example `"value": 2`.
    func reply(to op: String, with fields: String) throws {
        try fields.write(
            to: url.appendingPathComponent("replies/\(op)"), atomically: true, encoding: .utf8)
    }

    /// Every request line the driver received, in order.
    var requests: [String] {
        let text =
            (try? String(contentsOf: url.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Lets a waiting `gate` request be answered.
    func openGate() throws {
        try Data().write(to: url.appendingPathComponent("gate"))
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
