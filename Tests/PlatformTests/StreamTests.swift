import Foundation
import Platform
import TestSupport
import Testing

@Suite struct StreamTests {
    @Test func aFileReadInSmallCallsComesBackWhole() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/data"
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileSystem.writeFile(bytes, toPath: path)
        // 7 bytes a call: many calls, and the buffer grows past its first allocation.
        #expect(try FileSystem.readToEnd(atPath: path, bytesPerCall: 7) == bytes)
        #expect(try FileSystem.readToEnd(atPath: path) == bytes)
    }

    @Test func aWriteInBoundedCallsWritesEveryByteInOrder() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/data"
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let fd = try FileSystem.open(path, .writeOnly, options: [.create])
        try FileSystem.writeSequentially(fd, bytes, path: path, bytesPerCall: 3)
        try FileSystem.writeSequentially(fd, [9, 9], path: path)
        try FileSystem.close(fd, path: path)
        #expect(try FileSystem.readToEnd(atPath: path) == bytes + [9, 9])
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
