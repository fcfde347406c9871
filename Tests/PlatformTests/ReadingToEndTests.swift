import Foundation
import Platform
import TestSupport
import Testing

@Suite struct ReadingToEndTests {
    @Test func aFileReadInSmallCallsComesBackWhole() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/data"
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileSystem.writeFile(bytes, toPath: path)
        // 7 bytes a call: many calls, and the buffer grows past its first allocation.
        #expect(try FileSystem.readToEnd(atPath: path, bytesPerCall: 7) == bytes)
        #expect(try FileSystem.readToEnd(atPath: path) == bytes)
    }

    @Test func aFileWhoseSizeSaysNothingIsReadToItsEnd() throws {
        #if os(Linux)
            // /proc files report a size of 0 and hold text all the same.
            let text = String(decoding: try FileSystem.readToEnd(atPath: "/proc/self/status"), as: UTF8.self)
            #expect(text.contains("VmHWM:"))
        #endif
    }

    @Test func aFolderIsRefusedAndAMissingFileNamed() throws {
        let folder = TemporaryDirectory()
        #expect(throws: SystemCallError(operation: "read", path: folder.path, errno: .isDirectory)) {
            try FileSystem.readToEnd(atPath: folder.path)
        }
        #expect(throws: SystemCallError(operation: "open", path: folder.path + "/none", errno: .noSuchFile)) {
            try FileSystem.readToEnd(atPath: folder.path + "/none")
        }
    }

    @Test func aLinkAPersonNamedIsFollowed() throws {
        let folder = TemporaryDirectory()
        try FileSystem.writeFile([1, 2, 3], toPath: folder.path + "/target")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: "target")
        #expect(try FileSystem.readToEnd(atPath: folder.path + "/link") == [1, 2, 3])
    }
}
