import Foundation
import TestSupport
import Testing

@testable import Platform

@Suite struct FolderTests {
    @Test func makeDirectoriesMakesEveryMissingParentAndAcceptsWhatExists() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/a/b/c"
        try FileSystem.makeDirectories(path)
        try FileSystem.makeDirectories(path)
        #expect(try FileSystem.status(ofPath: path)?.kind == .directory)
        // rwxr-xr-x, or less where the umask takes more away.
        let permissions = try #require(try FileSystem.permissions(ofPath: folder.path + "/a/b"))
        #expect(permissions.rawValue & ~FileSystem.Permissions.folderDefault.rawValue == 0)
        #expect(permissions.rawValue & 0o700 == 0o700)
    }

    @Test func makeDirectoriesNamesTheFolderItCouldNotMake() throws {
        let folder = TemporaryDirectory()
        try FileSystem.writeFile([0], toPath: folder.path + "/file")
        // mkdir of file/x fails with ENOTDIR: a file stands where a folder must.
        #expect(
            throws: SystemCallError(
                operation: "create directory", path: folder.path + "/file/x", errno: .notDirectory)
        ) {
            try FileSystem.makeDirectories(folder.path + "/file/x/y")
        }
    }

    @Test func removeTreeRemovesEverythingButFollowsNoLink() throws {
        let folder = TemporaryDirectory()
        let outside = folder.path + "/outside"
        try FileSystem.makeDirectories(outside)
        try FileSystem.writeFile([7], toPath: outside + "/kept")
        let tree = folder.path + "/tree"
        try FileSystem.makeDirectories(tree + "/inner/deeper")
        try FileSystem.writeFile([1], toPath: tree + "/one")
        try FileSystem.writeFile([2], toPath: tree + "/inner/deeper/two")
        try FileManager.default.createSymbolicLink(atPath: tree + "/inner/link", withDestinationPath: outside)

        try FileSystem.removeTree(tree)

        #expect(try FileSystem.status(ofPath: tree) == nil)
        #expect(try FileSystem.readToEnd(atPath: outside + "/kept") == [7])
        try FileSystem.removeTree(tree)
    }

    @Test func removeTreeOfALinkRemovesTheLinkOnly() throws {
        let folder = TemporaryDirectory()
        try FileSystem.makeDirectories(folder.path + "/target")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: "target")
        try FileSystem.removeTree(folder.path + "/link")
        #expect(try FileSystem.status(ofPath: folder.path + "/link") == nil)
        #expect(try FileSystem.status(ofPath: folder.path + "/target")?.kind == .directory)
    }

    /// Enough entries to fill the listing's buffer several times, with names of every length
    /// up to the longest a file system allows: the entry that ends a buffer is read too. (Run
    /// under the address sanitizer, the listing read past a buffer's end here when it copied
    /// the whole `d_name` array.)
    @Test func aListingNamesEveryEntryWhateverTheLengthOfItsName() throws {
        let folder = TemporaryDirectory()
        var expected: [String: FileSystem.Status.Kind] = [:]
        for index in 0..<1_200 {
            let length = 1 + index % 255
            let stem = "\(index)-"
            var name = stem + String(repeating: "n", count: max(0, length - stem.count))
            if index % 7 == 0 { name = String(name.dropLast(2)) + "é" }
            try FileSystem.writeFile([], toPath: folder.path + "/" + name)
            expected[name] = .regular
        }
        try FileSystem.makeDirectories(folder.path + "/inner")
        expected["inner"] = .directory
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: "inner")
        expected["link"] = .symbolicLink

        let entries = try Directory(path: folder.path).entries()
        #expect(entries.count == expected.count)
        #expect(
            Dictionary(entries.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
                == expected)
    }
    @Test func aFolderWhoseParentsFsyncFailedIsMadeAgainByTheNextCall() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/cache"
        // The fsync of `folder` after the mkdir fails: the name may not be durable.
        let fault = FaultInjection.failSynchronizations(1, under: folder.path, pathContaining: nil)
        #expect(throws: SystemCallError.self) { try FileSystem.createDirectory(path) }
        #expect(fault.disarm() == 1)
        #expect(try FileSystem.status(ofPath: path) == nil, "removed, so that a retry makes it again")
        // The next call synchronizes the parent again: a failure shows it tried.
        let again = FaultInjection.failSynchronizations(1, under: folder.path, pathContaining: nil)
        #expect(throws: SystemCallError.self) { try FileSystem.createDirectory(path) }
        #expect(again.disarm() == 1)
        try FileSystem.createDirectory(path)
        #expect(try FileSystem.status(ofPath: path)?.kind == .directory)
    }
}
