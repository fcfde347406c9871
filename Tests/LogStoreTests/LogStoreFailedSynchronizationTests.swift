import Foundation
import TestSupport
import Testing

@testable import LogStoreKit
@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed fdatasync of the log (`Spec/store.md` §8.3, `Spec/backends.md` §8.10.3): a later
/// fdatasync would succeed without writing what the failed one covered, so the handle rewrites
/// the log by a compaction that drops nothing, at once or, when that fails too, at the next
/// synchronize or close. Each test runs on a lone store and on a shared one, whose synchronize
/// runs its fdatasync outside sections (§12.3).
@Suite struct LogStoreFailedSynchronizationTests {
    private static func options(shared: Bool) -> LogStore.Options {
        LogStore.Options(
            compactionDeadRatio: nil, sharing: shared ? .init(isOnlyProcess: { true }) : nil)
    }

    private func expectEveryValue(in path: String, count: Int) throws {
        let reopened = try LogStore(path: path)
        defer { try? reopened.close() }
        #expect(reopened.count == count)
        for index in 0..<count {
            #expect(try reopened.value(forKey: "key-\(index)") == expectedValue(for: index, length: 700))
        }
    }

    @Test(arguments: [false, true])
    func aFailedFdatasyncIsAnsweredByRewritingTheLogAtOnce(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: Self.options(shared: shared))
        for index in 0..<4 {
            try store.put(
                expectedValue(for: index, length: 700), forKey: "key-\(index)", metadata: metadata(1))
        }
        try store.synchronize()
        let before = logGeneration(path)
        for index in 4..<8 {
            try store.put(
                expectedValue(for: index, length: 700), forKey: "key-\(index)", metadata: metadata(1))
        }
        let fault = FaultInjection.failSynchronizations(1, under: directory.path, pathContaining: "store.log")
        try store.synchronize()
        #expect(fault.disarm() == 1)
        // A new log, durable as a whole, with a mark of its own for all of it.
        #expect(logGeneration(path) != before)
        #expect(syncMark(path)?.generation == logGeneration(path))
        #expect(syncMark(path)?.length == UInt64(fileBytes(path).count))
        #expect(try store.value(forKey: "key-7") == expectedValue(for: 7, length: 700))
        try store.close()
        try expectEveryValue(in: path, count: 8)
    }

    @Test(arguments: [false, true])
    func whenTheRewriteFailsTooTheNextSynchronizeRewrites(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: Self.options(shared: shared))
        try store.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        try store.synchronize()
        let before = logGeneration(path)
        let markBefore = syncMark(path)
        try store.put(expectedValue(for: 1, length: 700), forKey: "key-1", metadata: metadata(1))
        // The log's fdatasync, then the new log's fsync.
        let fault = FaultInjection.failSynchronizations(2, under: directory.path, pathContaining: "store.log")
        #expect {
            try store.synchronize()
        } throws: { error in
            guard case .ioError(let operation, let errno, let failedPath) = error as? LogStoreError else {
                return false
            }
            return operation == "fdatasync" && errno == EIO && failedPath == path
        }
        #expect(fault.disarm() == 2)
        #expect(logGeneration(path) == before, "the failed rewrite left the log as it was")
        #expect(syncMark(path) == markBefore, "no mark vouches for what the failed fdatasync covered")
        #expect(!FileManager.default.fileExists(atPath: path + ".compacting"))
        try store.put(expectedValue(for: 2, length: 700), forKey: "key-2", metadata: metadata(1))
        // Nothing fails now, and an fdatasync would say the log is durable: it must not be
        // believed, so the log is rewritten.
        try store.synchronize()
        #expect(logGeneration(path) != before)
        #expect(syncMark(path)?.generation == logGeneration(path))
        #expect(syncMark(path)?.length == UInt64(fileBytes(path).count))
        // The doubt is over: the next synchronize is an fdatasync again.
        let rewritten = logGeneration(path)
        try store.put(expectedValue(for: 3, length: 700), forKey: "key-3", metadata: metadata(1))
        try store.synchronize()
        #expect(logGeneration(path) == rewritten)
        try store.close()
        try expectEveryValue(in: path, count: 4)
    }

    @Test(arguments: [false, true])
    func closeRewritesALogInDoubt(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: Self.options(shared: shared))
        try store.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        let fault = FaultInjection.failSynchronizations(2, under: directory.path, pathContaining: "store.log")
        #expect(throws: LogStoreError.self) { try store.synchronize() }
        #expect(fault.disarm() == 2)
        let before = logGeneration(path)
        try store.put(expectedValue(for: 1, length: 700), forKey: "key-1", metadata: metadata(1))
        try store.close()
        #expect(logGeneration(path) != before)
        #expect(syncMark(path)?.generation == logGeneration(path))
        try expectEveryValue(in: path, count: 2)
    }
    @Test(arguments: [false, true])
    func aCompactionWhoseFolderFsyncFailsIsMadeAgainByTheNextSynchronize(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let store = try LogStore(path: path, options: Self.options(shared: shared))
        try store.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        try store.synchronize()
        // The new log's fsync passes; the folder's own, after the rename, fails.
        let fault = FaultInjection.failFolderSynchronizations(
            1, under: directory.path, endingWith: directory.path)
        #expect {
            _ = try store.compact(now: 0)
        } throws: { error in
            guard case .ioError("fsync", EIO, let failedPath) = error as? LogStoreError else { return false }
            return failedPath == directory.path
        }
        #expect(fault.disarm() == 1)
        let compacted = logGeneration(path)
        try store.put(expectedValue(for: 1, length: 700), forKey: "key-1", metadata: metadata(1))
        // The rename may not be durable: a plain fdatasync of the new log would not do.
        try store.synchronize()
        #expect(logGeneration(path) != compacted)
        #expect(syncMark(path)?.generation == logGeneration(path))
        try store.close()
        try expectEveryValue(in: path, count: 2)
    }

    /// Linux reports a failed writeback to every description open on the file when it failed,
    /// not only to the one whose fdatasync saw it first. Another handle of a shared store, whose
    /// records the failure may have lost, syncs through the description it has held since it
    /// took up the log, so it is told too and rewrites rather than vouch for the log
    /// (`Spec/store.md` §12.3, `Spec/backends.md` §8.10).
    @Test func anotherHandleOfASharedStoreIsToldOfTheFailureAndRewritesToo() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let first = try LogStore(
            path: path, options: .init(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { true })))
        let second = try LogStore(
            path: path, options: .init(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { false })))
        try second.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        // The first handle writes the second's record out, and both its fdatasync and its
        // rewrite fail: it stays in doubt.
        let fault = FaultInjection.failSynchronizations(2, under: directory.path, pathContaining: "store.log")
        #expect(throws: LogStoreError.self) { try first.synchronize() }
        #expect(fault.disarm() == 2)
        let before = logGeneration(path)
        let markBefore = syncMark(path)
        // A descriptor opened now would sync "successfully" without writing the record.
        try second.synchronize()
        #expect(logGeneration(path) != before, "the second handle rewrote the log instead of vouching for it")
        #expect(syncMark(path)?.generation == logGeneration(path))
        #expect(syncMark(path) != markBefore)
        try second.close()
        try first.close()
        try expectEveryValue(in: path, count: 1)
    }

    @Test func anOpenWhoseFdatasyncFailsWritesNoMarkAndItsFirstSynchronizeRewrites() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let first = try LogStore(path: path, options: .init(writeBufferSize: 0))
        try first.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        try first.synchronize()
        // Written, never synchronized: the writer crashed.
        try first.put(expectedValue(for: 1, length: 700), forKey: "key-1", metadata: metadata(1))
        first.abandon()
        let markBefore = syncMark(path)
        let before = logGeneration(path)
        // The open keeps the crashed writer's record and fails to make it durable.
        let fault = FaultInjection.failSynchronizations(1, under: directory.path, pathContaining: "store.log")
        let store = try LogStore(path: path)
        #expect(fault.disarm() == 1)
        #expect(syncMark(path) == markBefore, "no mark vouches for what the failed fdatasync covered")
        #expect(try store.value(forKey: "key-1") == expectedValue(for: 1, length: 700))
        try store.synchronize()
        #expect(logGeneration(path) != before, "an fdatasync now would not have written the kept record")
        #expect(syncMark(path)?.generation == logGeneration(path))
        try store.close()
        try expectEveryValue(in: path, count: 2)
    }
    @Test func aCreationWhoseFolderFsyncFailsOpensInDoubt() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        // The new header's fdatasync passes; the folder's own fsync, after the link, fails.
        let fault = FaultInjection.failFolderSynchronizations(
            1, under: directory.path, endingWith: directory.path)
        let store = try LogStore(path: path)
        #expect(fault.disarm() == 1)
        let created = logGeneration(path)
        try store.put(expectedValue(for: 0, length: 700), forKey: "key-0", metadata: metadata(1))
        // An fdatasync would leave the log's name as durable as it was: the log is rewritten,
        // and the folder synchronized after the rename.
        try store.synchronize()
        #expect(logGeneration(path) != created)
        try store.close()
        try expectEveryValue(in: path, count: 1)
    }
}
