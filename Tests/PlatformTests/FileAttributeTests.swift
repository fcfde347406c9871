import Foundation
import Platform
import TestSupport
import Testing

@Suite struct FileAttributeTests {
    @Test func permissionsAreReadAndSetAndMissingIsNil() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/file"
        try FileSystem.writeFile([1], toPath: path)
        let fd = try FileSystem.open(path, .readOnly)
        defer { FileSystem.close(fd) }
        try FileSystem.setPermissions(FileSystem.Permissions(rawValue: 0o600), of: fd, path: path)
        #expect(try FileSystem.permissions(ofPath: path) == FileSystem.Permissions(rawValue: 0o600))
        #expect(try FileSystem.permissions(ofPath: folder.path + "/none") == nil)
    }

    @Test func statusFollowingLinksSeesTheTargetWhereStatusSeesTheLink() throws {
        let folder = TemporaryDirectory()
        try FileSystem.makeDirectories(folder.path + "/target")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: "target")
        #expect(try FileSystem.status(followingLinksAt: folder.path + "/link")?.kind == .directory)
        #expect(try FileSystem.status(ofPath: folder.path + "/link")?.kind == .symbolicLink)
        #expect(try FileSystem.status(followingLinksAt: folder.path + "/none") == nil)
    }

    @Test func aPathThroughAFileIsAbsentOrAnErrorAsAsked() throws {
        let folder = TemporaryDirectory()
        try FileSystem.writeFile([1], toPath: folder.path + "/file")
        let through = folder.path + "/file/x"
        #expect(try FileSystem.status(followingLinksAt: through) == nil)
        #expect(throws: SystemCallError(operation: "stat", path: through, errno: .notDirectory)) {
            try FileSystem.status(followingLinksAt: through, missingFolderIsAbsence: false)
        }
    }

    @Test func checkAccessPassesAWritableFolderAndNamesAMissingOne() throws {
        let folder = TemporaryDirectory()
        try FileSystem.checkAccess(folder.path, for: [.read, .write, .search])
        #expect(throws: SystemCallError(operation: "access", path: folder.path + "/none", errno: .noSuchFile))
        {
            try FileSystem.checkAccess(folder.path + "/none", for: .write)
        }
    }

    @Test func aCheckedCloseReportsAFailure() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/file"
        try FileSystem.writeFile([1, 2], toPath: path)
        let fd = try FileSystem.open(path, .readOnly)
        try FileSystem.close(fd, path: path)
        // The descriptor is gone now: closing it again fails (EBADF), and says so.
        #expect(throws: SystemCallError.self) { try FileSystem.close(fd, path: path) }
    }
}
