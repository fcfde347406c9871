import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit
@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written before `synchronize()` whose fsync fails there (`Spec/backends.md` §8.10.2):
/// a `directory` entry file or a `hybrid` external file. A later fsync would succeed without
/// writing what the failed one covered, so the file is written again, into a new file that
/// takes its name: at once, or, when that fails too, at the next synchronize.
@Suite(.serialized) struct FailedSynchronizationTests {
    /// The folder of the files a synchronize makes durable before anything else.
    private static func folder(_ backend: Backend) -> String {
        backend == .directory ? DirectoryStorage.entriesName : HybridStorage.externalName
    }

    /// The one file in `folder` that is not temporary, and its identity.
    private func onlyFile(in folder: String) throws -> (path: String, identity: FileSystem.Identity) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            !$0.hasPrefix(FileSystem.temporaryPrefix)
        }
        try #require(names.count == 1, "\(names)")
        let path = folder + "/" + names[0]
        let status = try #require(try FileSystem.status(ofPath: path))
        return (path, FileSystem.Identity(device: status.device, inode: status.inode))
    }

    /// A cache on `backend` holding one 5,000-byte value under "k", in a file of its own not
    /// yet synchronized, and that file; the folder lives as long as `directory`.
    private func storedInAFile(_ backend: Backend, seed: UInt64) throws -> (
        directory: TemporaryDirectory, settings: CacheConfiguration, cache: ImageCache, value: [UInt8],
        folder: String,
        written: (path: String, identity: FileSystem.Identity)
    ) {
        let directory = TemporaryDirectory()
        let settings = configuration(
            backend, directory, clock: ManualClock(), externalStorageThreshold: 1_000)
        let cache = try ImageCache(configuration: settings)
        let value = bytes(seed: seed, count: 5_000)
        try cache.store(value, forKey: "k")
        let folder = directory.cacheURL.path + "/" + Self.folder(backend)
        return (directory, settings, cache, value, folder, try onlyFile(in: folder))
    }

    @Test(arguments: [Backend.directory, .hybrid])
    func aFileWhoseFsyncFailedIsWrittenAgainAtOnce(backend: Backend) throws {
        let (directory, settings, cache, value, folder, written) = try storedInAFile(backend, seed: 1)
        let fault = FaultInjection.failSynchronizations(
            1, under: directory.cacheURL.path, pathContaining: Self.folder(backend) + "/")
        try cache.synchronize()
        #expect(fault.disarm() == 1)
        let rewritten = try onlyFile(in: folder)
        #expect(rewritten.path == written.path)
        #expect(rewritten.identity != written.identity, "the file was written again, not synced again")
        #expect(try cache.bytes(forKey: "k") == value)
        try cache.close()
        #expect(try ImageCache(configuration: settings).bytes(forKey: "k") == value)
    }

    @Test(arguments: [Backend.directory, .hybrid])
    func whenTheRewriteFailsTooTheNextSynchronizeWritesTheFileAgain(backend: Backend) throws {
        let (directory, settings, cache, value, folder, written) = try storedInAFile(backend, seed: 2)
        // The file's fsync, then both temporary files of its rewrite.
        let fault = FaultInjection.failSynchronizations(
            3, under: directory.cacheURL.path, pathContaining: Self.folder(backend) + "/")
        #expect {
            try cache.synchronize()
        } throws: { error in
            guard case .ioFailure(let operation, _, let code)? = error as? CacheError else { return false }
            return operation == "fsync" && code == EIO
        }
        #expect(fault.disarm() == 3)
        #expect(try onlyFile(in: folder).identity == written.identity, "no rewrite took the name")
        // An fsync would succeed now without making the old content durable: the file is
        // written again instead.
        try cache.synchronize()
        #expect(try onlyFile(in: folder).identity != written.identity)
        try cache.close()
        #expect(try ImageCache(configuration: settings).bytes(forKey: "k") == value)
    }
}
