import Foundation
import TestSupport
import Testing

@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fault hooks report a failed fsync as Linux reports a failed writeback
/// (`Spec/backends.md` §8.10): once to every open file description that was open on the file
/// when it failed, and never to one opened afterwards. The shared log store relies on this to
/// learn of a failure another handle saw first.
@Suite struct WritebackErrorReportTests {
    private func synchronizes(_ fd: Int32, _ path: String) -> Bool {
        (try? FileSystem.synchronizeData(fd, path: path)) != nil
    }

    @Test func aFailedFsyncIsReportedOnceToEachDescriptionOpenAtTheTime() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/log"
        let otherPath = folder.path + "/other"
        try FileSystem.writeFile([1, 2, 3], toPath: path)
        try FileSystem.writeFile([4], toPath: otherPath)
        let failing = try FileSystem.open(path, .readWrite)
        let second = try FileSystem.open(path, .readOnly)
        let duplicate = try FileSystem.duplicate(second, path: path)
        let other = try FileSystem.open(otherPath, .readOnly)
        defer { for fd in [failing, second, duplicate, other] { FileSystem.close(fd) } }

        let fault = FaultInjection.failSynchronizations(1, under: folder.path, pathContaining: "/log")
        #expect(!synchronizes(failing, path))
        #expect(fault.disarm() == 1)
        let later = try FileSystem.open(path, .readOnly)
        defer { FileSystem.close(later) }

        #expect {
            try FileSystem.synchronizeData(duplicate, path: path)
        } throws: { error in
            (error as? SystemCallError)?.errno == .ioError
        }
        #expect(synchronizes(second, path), "a duplicate shares its description's one report")
        #expect(synchronizes(duplicate, path), "reported once")
        #expect(synchronizes(failing, path), "the failing fsync was the report")
        #expect(synchronizes(later, path), "opened after the error was reported")
        #expect(synchronizes(other, otherPath), "another file")
    }

    @Test func aClosedAndReusedDescriptorNumberHasNothingToReport() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/log"
        try FileSystem.writeFile([1], toPath: path)
        let failing = try FileSystem.open(path, .readWrite)
        defer { FileSystem.close(failing) }
        let closed = try FileSystem.open(path, .readOnly)
        let fault = FaultInjection.failSynchronizations(1, under: folder.path, pathContaining: "/log")
        #expect(!synchronizes(failing, path))
        #expect(fault.disarm() == 1)
        FileSystem.close(closed)
        let reopened = try FileSystem.open(path, .readOnly)
        defer { FileSystem.close(reopened) }
        #expect(synchronizes(reopened, path))
    }
}
