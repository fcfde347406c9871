import Foundation
import TestSupport
import Testing

@testable import Platform

/// `FileSystem.writeFileAtomically` when the temporary file's fsync fails (`Spec/backends.md`
/// §8.10.1): what that fsync covered may never reach the disk, so the bytes go to a new
/// temporary file once more before the error is given up on.
@Suite(.serialized) struct AtomicReplacementTests {
    private func temporaryFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasPrefix(FileSystem.temporaryPrefix)
        }
    }

    @Test(arguments: [FileSystem.Replacement.durable, .contentFirst])
    func aFailedFsyncOfTheTemporaryFileIsAnsweredWithANewOne(replacement: FileSystem.Replacement) throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/file"
        try FileSystem.writeFile([1, 2, 3], toPath: path)
        let fault = FaultInjection.failSynchronizations(
            1, under: folder.path, pathContaining: FileSystem.temporaryPrefix)
        try [UInt8](repeating: 9, count: 5_000).withUnsafeBytes {
            try FileSystem.writeFileAtomically($0, to: path, replacement)
        }
        #expect(fault.disarm() == 1)
        #expect(fileBytes(path) == [UInt8](repeating: 9, count: 5_000))
        #expect(try temporaryFiles(in: folder.path).isEmpty)
    }

    @Test func whenTheSecondFsyncFailsTooTheOldFileStaysAndTheErrorIsTheFirst() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/file"
        try FileSystem.writeFile([1, 2, 3], toPath: path)
        let fault = FaultInjection.failSynchronizations(
            2, under: folder.path, pathContaining: FileSystem.temporaryPrefix)
        #expect {
            try [UInt8](repeating: 9, count: 5_000).withUnsafeBytes {
                try FileSystem.writeFileAtomically($0, to: path, .durable)
            }
        } throws: { error in
            guard let failure = error as? SystemCallError else { return false }
            return failure.operation == "fsync" && failure.errno == .ioError
                && failure.path.contains(FileSystem.temporaryPrefix)
        }
        #expect(fault.disarm() == 2)
        #expect(fileBytes(path) == [1, 2, 3])
        #expect(try temporaryFiles(in: folder.path).isEmpty)
    }

    @Test func anUnsynchronizedReplacementMakesNoFsync() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/file"
        let fault = FaultInjection.failSynchronizations(
            1, under: folder.path, pathContaining: FileSystem.temporaryPrefix)
        try [UInt8]([4, 5]).withUnsafeBytes {
            try FileSystem.writeFileAtomically($0, to: path, .unsynchronized)
        }
        #expect(fault.disarm() == 0)
        #expect(fileBytes(path) == [4, 5])
    }

    private func fileBytes(_ path: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }
}
