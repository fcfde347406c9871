import Foundation
import LogStoreKit
import TestSupport
import Testing

@testable import ImageCacheKit
@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The traps of issues 10 and 14, each held against every backend: one writer per folder,
/// read-only caches, closing on release, errors that name their errno, links inside the folder,
/// and a full disk (`Spec/cache.md` §5.5, §5.6, §9; `Spec/backends.md` §1.5, §1.6).
@Suite(.serialized) struct SafetyTests {
    // MARK: One writer (§1.5)

    @Test(arguments: Backend.allCases)
    func aSecondWriterInThisProcessIsLockedOut(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let first = try ImageCache(configuration: settings)
        try first.store([1], forKey: "a")
        #expect(throws: CacheError.locked(path: directory.cacheURL.path, byThisProcess: true)) {
            try ImageCache(configuration: settings)
        }
        let message = CacheError.locked(path: "/x", byThisProcess: true).description
        #expect(message.contains("another ImageCache in this process") && !message.contains(".."))
        // Any backend on the same folder is the same writer.
        var other = settings
        other.backend = Backend.allCases.first { $0 != backend }!
        #expect(throws: CacheError.locked(path: directory.cacheURL.path, byThisProcess: true)) {
            try ImageCache(configuration: other)
        }
        try first.close()
        let second = try ImageCache(configuration: settings)
        #expect(try second.bytes(forKey: "a") == [1])
    }

    @Test func aReasonThatIsASentenceReadsInsideParenthesesWithoutItsFullStop() {
        // The log store's reasons end with a full stop; the cache quotes them mid-sentence.
        let reason = "the record at offset 32 is damaged: its checksum is 0x1, the record declares 0x2."
        let messages = [
            CacheError.corruptEntry(key: "a", reason: reason).description,
            CacheError.corruptFile(path: "/x", reason: reason).description,
            CacheError.imageDecodingFailed(key: "a", reason: reason).description,
        ]
        for message in messages {
            #expect(message.contains("declares 0x2); ") && !message.contains(".)"), "\(message)")
        }
        #expect(CacheError.logStoreFailure(path: "/x", reason: reason).description.hasSuffix("0x2."))
    }

    // MARK: Read-only caches (§5.6)

    @Test(arguments: Backend.allCases)
    func aReadOnlyCacheReadsBesideTheWriterAndChangesNothing(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let clock = ManualClock()
        let settings = configuration(backend, directory, clock: clock, timeToLive: 1_000)
        let writer = try ImageCache(configuration: settings)
        try writer.store([1, 2, 3], forKey: "a")
        try writer.store(bytes(seed: 9, count: 300_000), forKey: "large")
        try writer.synchronize()
        let before = try filesAndBytes(under: directory.cacheURL)
        var reading = settings
        reading.readOnly = true
        let reader = try ImageCache(configuration: reading)
        #expect(reader.keys == ["a", "large"])
        #expect(try reader.bytes(forKey: "a") == [1, 2, 3])
        #expect(try reader.bytes(forKey: "large") == bytes(seed: 9, count: 300_000))
        // A hit changes nothing: no sliding, no new sequence.
        #expect(try reader.metadata(forKey: "a")?.expiresAt == 1_000)
        for mutation in [
            { try reader.store([9], forKey: "b") }, { _ = try reader.removeValue(forKey: "a") },
            { try reader.removeAll() }, { _ = try reader.purgeExpired() }, { try reader.compact() },
        ] as [() throws -> Void] {
            #expect(throws: CacheError.readOnly(path: directory.cacheURL.path)) { try mutation() }
        }
        try reader.synchronize()
        clock.advance(by: 2_000)
        #expect(try reader.bytes(forKey: "a") == nil)  // expired: a miss, but not removed
        try reader.close()
        #expect(try filesAndBytes(under: directory.cacheURL) == before)
        try writer.close()
    }

    @Test(arguments: Backend.allCases)
    func aReadOnlyCacheOfAMissingFolderIsEmptyAndCreatesNothing(backend: Backend) throws {
        let directory = TemporaryDirectory()
        var settings = configuration(backend, directory, clock: ManualClock())
        settings.readOnly = true
        let reader = try ImageCache(configuration: settings)
        #expect(reader.count == 0)
        #expect(try reader.bytes(forKey: "a") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.cacheURL.path))
    }

    @Test(
        .enabled(if: getuid() != 0, "root writes anywhere, so a folder it cannot write does not exist"),
        arguments: Backend.allCases)
    func aFolderTheUserCannotWriteCanStillBeRead(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let writer = try ImageCache(configuration: settings)
        try writer.store([7], forKey: "k")
        try writer.close()
        chmod(directory.cacheURL.path, 0o555)
        defer { chmod(directory.cacheURL.path, 0o755) }
        var reading = settings
        reading.readOnly = true
        #expect(try ImageCache(configuration: reading).bytes(forKey: "k") == [7])
    }

    // MARK: Lifecycle (§5.5)

    @Test(arguments: Backend.allCases)
    func releasingTheLastReferenceFlushesLikeClose(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        do {
            let cache = try ImageCache(configuration: settings)
            for index in 0..<50 {
                try cache.store(bytes(seed: UInt64(index), count: 100), forKey: "k\(index)")
            }
        }
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.count == 50)
        #expect(try reopened.bytes(forKey: "k49") == bytes(seed: 49, count: 100))
    }

    // MARK: Errors name their errno (§9)

    @Test(arguments: Backend.allCases)
    func aFileWhereTheFolderBelongsReportsENOTDIR(backend: Backend) throws {
        let directory = TemporaryDirectory()
        try Data([1]).write(to: directory.cacheURL)
        do {
            _ = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
            Issue.record("opened a cache in a regular file")
        } catch {
            guard case .ioFailure(_, let path, let code) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == directory.cacheURL.path)
            #expect(code == ENOTDIR)
            #expect(error.description.contains("Not a directory (errno \(ENOTDIR))"))
        }
    }

    // MARK: Links inside the folder (§1.6)

    @Test(arguments: [(Backend.directory, "entries"), (.hybrid, "external")])
    func aLinkedSubfolderIsRefusedAndItsTargetSurvives(backend: Backend, subfolder: String) throws {
        let directory = TemporaryDirectory()
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let victims = (0..<3).map { elsewhere.appendingPathComponent(String(repeating: "\($0)", count: 64)) }
        for victim in victims { try Data([1]).write(to: victim) }
        try FileManager.default.createDirectory(at: directory.cacheURL, withIntermediateDirectories: true)
        let link = directory.cacheURL.appendingPathComponent(subfolder)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        #expect(throws: CacheError.symbolicLink(path: link.path)) {
            try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        }
        var reading = configuration(backend, directory, clock: ManualClock())
        reading.readOnly = true
        #expect(throws: CacheError.symbolicLink(path: link.path)) { try ImageCache(configuration: reading) }
        for victim in victims { #expect(FileManager.default.fileExists(atPath: victim.path)) }
    }

    @Test(arguments: [(Backend.directory, "entries"), (.hybrid, "external")])
    func aStrayLinkIsDeletedByAWriterWithoutItsTarget(backend: Backend, subfolder: String) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock(), externalStorageThreshold: 10)
        try ImageCache(configuration: settings).close()
        let target = directory.url.appendingPathComponent("precious")
        try Data("keep me".utf8).write(to: target)
        let link = directory.cacheURL.appendingPathComponent(
            subfolder + "/" + String(repeating: "b", count: 64))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        var reading = settings
        reading.readOnly = true
        _ = try ImageCache(configuration: reading).count
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil, "a reader deleted"
        )
        let writer = try ImageCache(configuration: settings)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        #expect(writer.count == 0)
    }

    @Test(arguments: Backend.allCases)
    func aLinkWhereTheLayoutPutsAFileIsRefused(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let name =
            switch backend {
            case .dictionary: DictionaryStorage.fileName
            case .directory: DirectoryStorage.indexName
            case .log: LogStorage.fileName
            case .hybrid: HybridStorage.logName
            }
        try FileManager.default.createDirectory(at: directory.cacheURL, withIntermediateDirectories: true)
        let target = directory.url.appendingPathComponent("target")
        try Data("outside".utf8).write(to: target)
        let link = directory.cacheURL.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: CacheError.symbolicLink(path: link.path)) {
            try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
        }
        #expect(try Data(contentsOf: target) == Data("outside".utf8))
    }

    // MARK: A full disk (§8.1)

    @Test(arguments: Backend.allCases)
    func aFullDiskFailsWritesWithENOSPCButReadsGoOn(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(
            backend, directory, clock: ManualClock(), externalStorageThreshold: 1_000)
        let cache = try ImageCache(configuration: settings)
        try cache.store(bytes(seed: 1, count: 500), forKey: "before")
        try cache.synchronize()
        let fault = FaultInjection.arm(
            .init(
                operations: [.write, .create], countdown: 1, code: ENOSPC, persistent: true,
                folder: directory.cacheURL.path))
        var failure: CacheError?
        do {
            // The log buffers small records; a large one, and synchronize, must reach the disk.
            try cache.store(bytes(seed: 2, count: 2_000_000), forKey: "during")
            try cache.synchronize()
        } catch {
            failure = error
        }
        let injected = fault.disarm()
        #expect(injected > 0)
        if case .ioFailure(_, _, let code)? = failure {
            #expect(code == ENOSPC)
        } else {
            Issue.record("expected ioFailure(ENOSPC), got \(String(describing: failure))")
        }
        #expect(try cache.bytes(forKey: "before") == bytes(seed: 1, count: 500))
        // With room again, the cache carries on.
        try cache.store(bytes(seed: 3, count: 100), forKey: "after")
        try cache.synchronize()
        try cache.close()
        let reopened = try ImageCache(configuration: settings)
        #expect(try reopened.bytes(forKey: "before") == bytes(seed: 1, count: 500))
        #expect(try reopened.bytes(forKey: "after") == bytes(seed: 3, count: 100))
    }

    @Test(arguments: [Backend.log, .hybrid])
    func failingToWriteTheSnapshotDoesNotFailClose(backend: Backend) throws {
        let directory = TemporaryDirectory()
        let settings = configuration(backend, directory, clock: ManualClock())
        let cache = try ImageCache(configuration: settings)
        try cache.store([1, 2, 3], forKey: "k")
        let fault = FaultInjection.arm(
            .init(
                operations: [.create, .write], countdown: 1, code: ENOSPC, persistent: true,
                folder: directory.cacheURL.path, pathContaining: ".hint"))
        defer { fault.disarm() }
        try cache.close()
        #expect(fault.disarm() > 0)
        #expect(try ImageCache(configuration: settings).bytes(forKey: "k") == [1, 2, 3])
    }

    // MARK: Sizes after a crash (issue 14, finding 5)

    /// A directory entry replaced after the last index write and then "crashed" is counted
    /// with the size of the value on disk, not the size the index recorded.
    @Test func aDirectoryEntryReplacedBeforeACrashKeepsItsRealSize() throws {
        let directory = TemporaryDirectory()
        let settings = configuration(.directory, directory, clock: ManualClock())
        let writer = try ImageCache(configuration: settings)
        try writer.store(bytes(seed: 1, count: 10), forKey: "photo")
        try writer.synchronize()
        try writer.store(bytes(seed: 2, count: 200_000), forKey: "photo")
        writer.abandon()
        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.totalByteCount == 200_000)
        #expect(try reopened.bytes(forKey: "photo") == bytes(seed: 2, count: 200_000))
    }

    /// Hybrid references that claim sizes near 2^64 (well-formed, with valid checksums: a
    /// hostile file, found by the backends fuzzer) once trapped the open on an overflowing
    /// total. Each counts with the size of the file it names (`Spec/backends.md` §5.6).
    @Test func hybridReferencesCountWithTheSizeOfTheirFiles() throws {
        let directory = TemporaryDirectory()
        let settings = configuration(.hybrid, directory, clock: ManualClock(milliseconds: 1_000))
        let writer = try ImageCache(configuration: settings)
        try writer.store(bytes(seed: 3, count: 200_000), forKey: "real")
        try writer.close()
        let log = try LogStore(path: directory.cacheURL.path + "/hybrid.log")
        for (index, key) in ["huge", "larger"].enumerated() {
            let name = HybridStorage.externalFileName(forKey: Array(key.utf8), accessSequence: 9)
            let reference = HybridStorage.Reference(length: .max - UInt64(index), checksum: 0, name: name)
            try log.put(
                reference.encoded, forKey: key, metadata: EntryMetadata(createdAt: 0, accessSequence: 9))
        }
        try log.close()

        let reopened = try ImageCache(configuration: settings)
        #expect(reopened.count == 3)
        #expect(reopened.totalByteCount == 200_000)
        #expect(throws: CacheError.self) { try reopened.bytes(forKey: "huge") }
        #expect(try reopened.bytes(forKey: "real") == bytes(seed: 3, count: 200_000))
        try reopened.store(bytes(seed: 4, count: 10), forKey: "small")
        #expect(reopened.totalByteCount == 200_010)
    }

    // MARK: Decoding limits (issue 14, finding 7)

    @Test func aBitmapOverTheDecodingLimitIsATypedErrorThatNamesTheLimit() throws {
        let directory = TemporaryDirectory()
        var settings = configuration(.log, directory, clock: ManualClock())
        settings.decodingLimits = PNGLimits(maximumPixelCount: 100, maximumDecompressedBytes: 1 << 20)
        let cache = try ImageCache(configuration: settings)
        let image = try Bitmap(
            width: 11, height: 10, format: .gray8, pixels: [UInt8](repeating: 7, count: 110))
        try cache.store(image, forKey: "big")
        #expect(
            throws: CacheError.imageTooLarge(
                key: "big", limit: "maximumPixelCount", requested: 110, maximum: 100)
        ) { try cache.bitmap(forKey: "big") }
        // The entry is kept, and its bytes are still there.
        #expect(try cache.bytes(forKey: "big")?.isEmpty == false)
        #expect(CacheConfiguration.defaultDecodingLimits.maximumPixelCount == 89_478_485)
    }

    // MARK: Helpers

    /// Every file under `url` (links as their targets' paths) with its bytes.
    private func filesAndBytes(under url: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in allFiles(under: url) { result[path] = try Data(contentsOf: URL(fileURLWithPath: path)) }
        return result
    }
}
