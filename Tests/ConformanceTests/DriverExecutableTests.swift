import Foundation
import Testing

@testable import ConformanceRunner

/// Finding the driver program before starting it (Spec/conformance.md §6.1).
@Suite final class DriverExecutableTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "driver-lookup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("plain"), withIntermediateDirectories: true)
        for (path, mode) in [("bin/tool", 0o755), ("plain/tool", 0o644), ("plain/script", 0o644)] {
            let file = folder.appendingPathComponent(path).path
            _ = FileManager.default.createFile(atPath: file, contents: Data("#!/bin/sh\n".utf8))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func resolve(_ command: String, path: String? = nil, in directory: String? = nil)
        throws(DriverLaunchError) -> String
    {
        var environment: [String: String] = [:]
        environment["PATH"] = path
        return try DriverExecutable.resolve(
            command, environment: environment, currentDirectory: directory ?? folder.path
        ).path
    }

    @Test func aPathIsTakenRelativeToTheCurrentDirectory() throws {
        #expect(try resolve("bin/tool") == folder.appendingPathComponent("bin/tool").path)
        #expect(try resolve("./bin/../bin/tool") == folder.appendingPathComponent("bin/tool").path)
    }

    @Test func aMissingPathIsNamedWithTheAdviceToBuild() {
        #expect(throws: DriverLaunchError.notFound(path: ".build/debug/conformance-driver")) {
            try resolve(".build/debug/conformance-driver")
        }
        #expect(
            DriverLaunchError.notFound(path: ".build/debug/conformance-driver").description
                == "the driver .build/debug/conformance-driver does not exist; build it first (swift build) or check the path"
        )
    }

    @Test func aDirectoryOrAFileWithoutExecutePermissionIsRefused() throws {
        #expect(throws: DriverLaunchError.isDirectory(path: "./bin")) { try resolve("./bin") }
        // Root may read anything, but executes only files with an execute bit.
        #expect(throws: DriverLaunchError.notExecutable(path: "plain/script")) { try resolve("plain/script") }
    }

    @Test func aNameIsLookedUpOnPathSkippingFilesThatCannotRun() throws {
        let plain = folder.appendingPathComponent("plain").path
        let bin = folder.appendingPathComponent("bin").path
        #expect(try resolve("tool", path: "\(plain):\(bin)") == bin + "/tool")
        #expect(throws: DriverLaunchError.notOnPath(name: "tool")) { try resolve("tool", path: plain) }
        // An empty PATH entry is the current directory.
        #expect(try resolve("tool", path: "/nonexistent::", in: bin) == bin + "/tool")
        #expect(throws: DriverLaunchError.notOnPath(name: "tool")) {
            try resolve("tool", path: "/nonexistent:")
        }
    }
}
