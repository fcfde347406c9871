import Foundation
import TestSupport
import Testing

@testable import LogStoreKit

/// Handles that share one store (`Spec/store.md` §12): each sees the others' changes at its next
/// operation, across compaction, and a reader follows them too.
@Suite struct LogStoreSharingTests {
    static func shared(_ path: String, first: Bool, mapped: Bool = true) throws -> LogStore {
        try LogStore(
            path: path,
            options: .init(
                compactionDeadRatio: nil, mapsFileForReads: mapped, sharing: .init(isOnlyProcess: { first })))
    }

    /// Mapped, a handle parses what the others published straight from its file mapping;
    /// unmapped, it reads it with `pread` first: both ways see the same changes.
    @Test(arguments: [true, false])
    func eachHandleSeesTheOthersChangesAtItsNextOperation(mapped: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true, mapped: mapped)
        let b = try Self.shared(path, first: false, mapped: mapped)
        try a.put([1], forKey: "k", metadata: metadata(1))
        #expect(try b.value(forKey: "k") == [1])
        try b.put([2, 2], forKey: "k", metadata: metadata(2))
        try b.put([3], forKey: "other", metadata: metadata(3))
        #expect(try a.value(forKey: "k") == [2, 2])
        #expect(a.count == 2)
        try b.removeValue(forKey: "k")
        #expect(try a.value(forKey: "k") == nil)
        try a.updateMetadata(metadata(9), forKey: "other")
        #expect(b.metadata(forKey: "other") == metadata(9))
        let changes = a.takeChanges()
        #expect(changes.count == 3, "b's two puts and its remove: \(changes)")
        try a.close()
        try b.close()
    }

    /// A shared handle on `path` whose compaction fails once it has named the new log, before
    /// it publishes it (§12.3): the state a process killed at that point leaves.
    static func compactorThatWillDie(_ path: String, mapped: Bool = true) throws -> LogStore {
        var options = LogStore.Options(
            compactionDeadRatio: nil, mapsFileForReads: mapped, sharing: .init(isOnlyProcess: { false }))
        options.compactionFault = .synchronizingDirectory
        return try LogStore(path: path, options: options)
    }

    /// Runs the failing compaction of ``compactorThatWillDie(_:mapped:)`` under the lock of
    /// changes and abandons the handle there, as a process that dies holding the lock.
    static func compactAndDie(_ compactor: LogStore) throws {
        try compactor.withExclusiveAccess { () throws(LogStoreError) in
            #expect(throws: LogStoreError.self) { try compactor.compact(now: 0) }
            compactor.abandon()
        }
    }

    /// A holder that dies after its compaction named the new log, before it published it,
    /// leaves that log at the path and the writing flag set. The next holder takes it up
    /// rather than go on writing to the replaced file (which no later open would read), and so
    /// does a process that joins first; nothing stored after the death is lost (§12.2, §12.3).
    @Test(arguments: ["next holder", "joiner"])
    func aCompactionWhoseHolderDiedBeforePublishingIsTakenUp(first: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let survivor = try Self.shared(path, first: true)
        let compactor = try Self.compactorThatWillDie(path)
        try survivor.put([1], forKey: "a", metadata: metadata(1))
        try compactor.put([2], forKey: "b", metadata: metadata(2))
        try survivor.put([9], forKey: "a", metadata: metadata(3))
        try Self.compactAndDie(compactor)
        if first == "next holder" {
            try survivor.put([3], forKey: "c", metadata: metadata(4))
            try survivor.synchronize()
        }
        let joiner = try Self.shared(path, first: false)
        if first == "joiner" {
            try survivor.put([3], forKey: "c", metadata: metadata(4))
            try survivor.synchronize()
        }
        for handle in [survivor, joiner] {
            #expect(try handle.value(forKey: "a") == [9])
            #expect(try handle.value(forKey: "b") == [2])
            #expect(try handle.value(forKey: "c") == [3])
        }
        try survivor.close()
        try joiner.close()
        let alone = try LogStore(path: path, options: .init(compactionDeadRatio: nil))
        #expect(try alone.value(forKey: "a") == [9])
        #expect(try alone.value(forKey: "b") == [2])
        #expect(try alone.value(forKey: "c") == [3])
        try alone.close()
    }

    /// A compactor that dies while it publishes its new log leaves the generation word 0 (§12.3
    /// step 6). The next holder cannot catch up first (nothing reads as published), takes the
    /// dead compactor's log up and publishes it; it must then append to the area the words name,
    /// even when its own last view of the areas is older than their last switch. (Found by the
    /// kill test in CI: a holder appended to the other area, and every process's catch-up
    /// stopped at its records from then on.)
    @Test func aHolderTakingUpADeadCompactorsLogAppendsToTheCurrentArea() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let survivor = try Self.shared(path, first: true)
        let compactor = try Self.compactorThatWillDie(path)
        try survivor.put([1], forKey: "a", metadata: metadata(1))
        #expect(try survivor.value(forKey: "a") == [1])
        // 200,000-byte values: the third makes the areas switch, which the survivor does not see.
        for index in 0..<3 {
            try compactor.put(
                expectedValue(for: index, length: 200_000), forKey: "big\(index)", metadata: metadata(2))
        }
        #expect(
            LogStoreStagingTests.coordinationWord(path, at: CoordinationFormat.areasOffset)
                & CoordinationFormat.currentAreaBit != 0)
        try Self.compactAndDie(compactor)
        // Died after storing 0 in the generation, before the rest of the publish.
        try LogStoreStagingTests.setCoordinationWord(path, at: CoordinationFormat.generationOffset, to: 0)
        try survivor.put([3], forKey: "c", metadata: metadata(4))
        let joiner = try Self.shared(path, first: false)
        for handle in [survivor, joiner] {
            #expect(try handle.value(forKey: "a") == [1])
            #expect(try handle.value(forKey: "c") == [3])
            #expect(try handle.value(forKey: "big2") == expectedValue(for: 2, length: 200_000))
        }
        try joiner.put([4], forKey: "d", metadata: metadata(5))
        #expect(try survivor.value(forKey: "d") == [4])
        try survivor.close()
        try joiner.close()
    }

    /// A handle two compactions behind: the first compaction is published, the second named
    /// its log and its holder is still in its section (or died there), so the path names a
    /// log newer than the published one. A read must not answer from the handle's old log: a
    /// value stored and published before the read began is in the newer log (§12.4).
    @Test(arguments: [true, false])
    func aHandleTwoCompactionsBehindReadsTheNewestLog(mapped: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try Self.shared(path, first: true, mapped: mapped)
        let reader = try Self.shared(path, first: false, mapped: mapped)
        try writer.put([1], forKey: "k", metadata: metadata(1))
        #expect(try reader.value(forKey: "k") == [1])
        try writer.put([2], forKey: "k", metadata: metadata(2))
        _ = try writer.compact(now: 0)
        let compactor = try Self.compactorThatWillDie(path, mapped: mapped)
        try Self.compactAndDie(compactor)
        #expect(try reader.value(forKey: "k") == [2])
        try reader.put([3], forKey: "k", metadata: metadata(3))
        #expect(try writer.value(forKey: "k") == [3])
        #expect(try reader.value(forKey: "k") == [3])
        try writer.close()
        try reader.close()
    }

    /// A reader takes the published state as one reading (§12.4): nothing while the
    /// generation reads 0 (a publish of another generation under way) or the file is not
    /// valid, the state once it is set.
    @Test func thePublishedStateIsReadOnlyWhenItsGenerationIsSet() throws {
        let directory = TemporaryDirectory()
        let path = directory.file() + ".shared"
        let coordination = try Coordination.openForWriting(path: path)
        try coordination.mapForWriting(extending: true)
        #expect(coordination.published == nil, "a fresh file publishes nothing")
        coordination.startAfresh()
        coordination.publish(generation: 7, length: 100)
        #expect(coordination.published == nil, "not valid before the magic is written")
        coordination.stampFormat()
        #expect(coordination.published?.generation == 7)
        #expect(coordination.published?.length == 100)
        #expect(coordination.published?.base == 100)
        try LogStoreStagingTests.setCoordinationWord(
            String(path.dropLast(".shared".count)), at: CoordinationFormat.generationOffset, to: 0)
        #expect(coordination.published == nil, "generation 0: a publish is under way")
        let epoch = coordination.epoch
        coordination.publish(generation: 8, length: 40)
        #expect(coordination.published?.generation == 8)
        #expect(coordination.published?.length == 40)
        #expect(coordination.epoch != epoch, "a new base comes with a new epoch")
    }

    /// While a living holder publishes another generation (the generation word reads 0, §12.3
    /// step 6), a handle that is behind waits for the publish to end rather than answer from
    /// its old view, which lacks a store that had returned (§12.4). The look before the read
    /// counts the 0 as behind.
    @Test func aReadWaitsWhileALivingHolderPublishesAnotherGeneration() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        try a.put([1], forKey: "k", metadata: metadata(1))
        let generation = LogStoreStagingTests.coordinationWord(path, at: CoordinationFormat.generationOffset)
        let publishing = DispatchSemaphore(value: 0)
        let published = Flag()
        let thread = Thread {
            try? a.withExclusiveAccess { () throws(LogStoreError) in
                try? LogStoreStagingTests.setCoordinationWord(
                    path, at: CoordinationFormat.generationOffset, to: 0)
                publishing.signal()
                usleep(30_000)
                _ = published.setOnce()
                try? LogStoreStagingTests.setCoordinationWord(
                    path, at: CoordinationFormat.generationOffset, to: generation)
            }
        }
        thread.start()
        publishing.wait()
        #expect(try b.value(forKey: "k") == [1])
        #expect(published.isSet, "the read waited for the publish")
        while !thread.isFinished { usleep(1_000) }
        try a.close()
        try b.close()
    }

    /// The conformance case cache/sharing/coordination-file-garbage-started-afresh found the
    /// reserved word left as an invalid file had it: the first process starts all of it
    /// afresh, at the format's size (§12.2 rule 3).
    @Test func theFirstProcessStartsAnInvalidCoordinationFileAfresh() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        try Data(repeating: 0xFF, count: 64).write(to: URL(fileURLWithPath: path + ".shared"))
        let a = try Self.shared(path, first: true)
        try a.put([1], forKey: "k", metadata: metadata(1))
        try a.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + ".shared")))
        #expect(bytes.count == CoordinationFormat.size)
        #expect(bytes[0..<16] == [0x89, 0x49, 0x43, 0x53, 0x48, 0x52, 0x44, 0x0A, 2, 0, 0, 0, 0, 0, 0, 0])
        #expect(bytes[40..<48].allSatisfy { $0 == 0 }, "writing is 0")
        #expect(bytes[256..<264].allSatisfy { $0 == 0 }, "the lock of changes is free")
        #expect(bytes[384..<392].allSatisfy { $0 == 0 }, "the flush lock is free")
        for reserved in [96..<256, 272..<384, 400..<4096] {
            #expect(bytes[reserved].allSatisfy { $0 == 0 }, "the reserved words \(reserved) are 0")
        }
    }

    /// A catch-up reads staged records in place while another process may write the staging
    /// area out and reuse it (§12.7). When that happens, what it read is thrown away and it
    /// reads the published state again; the read that waited for it answers from the records
    /// as they are now. (Found by the four-process test under load: a reader with no staged
    /// records of its own answered from its old index after such a catch-up.)
    @Test func aCatchUpThatFindsTheStagingAreaReusedReadsAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try Self.shared(path, first: true)
        let reused = Flag()
        var options = LogStore.Options(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { false }))
        options.stagedRecordsParsed = {
            guard reused.setOnce() else { return }
            // Longer than half the area: written to the file directly, after the area.
            try? writer.put(
                [UInt8](repeating: 9, count: CoordinationFormat.areaCapacity / 2 + 1), forKey: "large",
                metadata: metadata(3))
        }
        let reader = try LogStore(path: path, options: options)
        try writer.put([1], forKey: "k", metadata: metadata(1))
        _ = try writer.compact(now: 0)
        // The reader loads the compacted log: nothing of it is staged.
        #expect(try reader.value(forKey: "k") == [1])
        try writer.put([2], forKey: "k", metadata: metadata(2))
        #expect(try reader.value(forKey: "k") == [2])
        #expect(reused.isSet, "the staging area was reused under the catch-up")
        #expect(try reader.value(forKey: "large")?.count == CoordinationFormat.areaCapacity / 2 + 1)
        try reader.close()
        try writer.close()
    }

    /// §12.4: in a handle that does not skip damage, a published record in the log file that
    /// fails a check ends a catch-up's scan there. The handle keeps what came before it,
    /// applies nothing after it, and looks again at its next read; it never answers with the
    /// damaged record or anything past it, and its sections report the damage.
    @Test(arguments: [true, false])
    func aCatchUpStopsAtAPublishedRecordThatFailsItsChecks(mapped: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try Self.shared(path, first: true, mapped: mapped)
        let reader = try Self.shared(path, first: false, mapped: mapped)
        try writer.put([1], forKey: "k", metadata: metadata(1))
        #expect(try reader.value(forKey: "k") == [1])
        // Longer than half the area: written to the log file directly, where a catch-up scans it.
        let large = [UInt8](repeating: 0xA5, count: CoordinationFormat.areaCapacity / 2 + 1)
        try writer.put(large, forKey: "large", metadata: metadata(2))
        // A bit of its header's expiry (under the header checksum) flipped, as a stray write would.
        let damagedOffset = try Self.flipExpiryBit(ofRecordWithKey: "large", value: large, in: path)
        try writer.put([3], forKey: "after", metadata: metadata(3))
        for _ in 0..<2 {
            #expect(try reader.value(forKey: "large") == nil)
            #expect(try reader.value(forKey: "after") == nil)
            #expect(try reader.value(forKey: "k") == [1])
        }
        #expect(reader.count == 1)
        // The writer reads its own record through the same checks: damage, not wrong bytes.
        #expect(throws: LogStoreError.self) { try writer.value(forKey: "large") }
        #expect(try writer.value(forKey: "after") == [3])
        // A section needs the whole published log in its view (§12.3 step 2): the reader's
        // writes name the damaged record, and so does its close, which synchronizes in a
        // section, and then closes.
        let damage = LogStoreError.corruptRecord(offset: damagedOffset)
        #expect(throws: damage) { try reader.put([4], forKey: "refused", metadata: metadata(4)) }
        #expect(throws: damage) { try reader.close() }
        #expect(throws: LogStoreError.closed(path: path)) { try reader.value(forKey: "k") }
        try writer.close()
    }

    /// §12.4: with a coordination file of this boot, published bytes in the log file are whole,
    /// so a record there that fails a check is damage. A handle whose owner skips damage (a
    /// cache) skips it as open does (§5.4, the durable length at `base`) and reads on: it
    /// answers what was published after it, and it can still write. The key of the damaged
    /// record reads as missing, not as its earlier value. A handle that joins afterwards skips
    /// it the same way, and one that does not skip damage refuses to open.
    @Test(arguments: [true, false])
    func aHandleThatSkipsDamageSkipsAPublishedRecordThatFailsItsChecks(mapped: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        func skipping(first: Bool) throws -> LogStore {
            var options = LogStore.Options(
                compactionDeadRatio: nil, mapsFileForReads: mapped, sharing: .init(isOnlyProcess: { first }))
            options.skipsDamagedRecords = true
            return try LogStore(path: path, options: options)
        }
        let writer = try skipping(first: true)
        let reader = try skipping(first: false)
        let follower = try LogStore(
            path: path, options: .init(readOnly: true, mapsFileForReads: mapped, skipsDamagedRecords: true))
        try writer.put([1], forKey: "k", metadata: metadata(1))
        try writer.put([2], forKey: "large", metadata: metadata(2))
        #expect(try reader.value(forKey: "large") == [2])
        #expect(try follower.value(forKey: "large") == [2])
        // Longer than half the area: written to the log file directly. A bit of its header's
        // expiry (under the header checksum) flipped, as a stray write would.
        let large = [UInt8](repeating: 0xA5, count: CoordinationFormat.areaCapacity / 2 + 1)
        try writer.put(large, forKey: "large", metadata: metadata(3))
        let damagedOffset = try Self.flipExpiryBit(ofRecordWithKey: "large", value: large, in: path)
        try writer.put([4], forKey: "after", metadata: metadata(4))
        for handle in [reader, follower] {
            #expect(try handle.value(forKey: "large") == nil, "not the earlier value")
            #expect(try handle.value(forKey: "after") == [4])
            #expect(try handle.value(forKey: "k") == [1])
            #expect(handle.count == 2)
        }
        try reader.put([5], forKey: "from the reader", metadata: metadata(5))
        #expect(try writer.value(forKey: "from the reader") == [5])
        #expect(try follower.value(forKey: "from the reader") == [5])
        // The writer's index still names the record: reading it finds the damage.
        #expect(throws: LogStoreError.self) { try writer.value(forKey: "large") }
        #expect(throws: LogStoreError.corruptRecord(offset: damagedOffset)) {
            try LogStore(
                path: path,
                options: .init(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { false })))
        }
        let joiner = try skipping(first: false)
        #expect(joiner.recovery.damagedRecords.map(\.offset) == [damagedOffset])
        #expect(try joiner.value(forKey: "large") == nil)
        #expect(try joiner.value(forKey: "from the reader") == [5])
        try joiner.close()
        try follower.close()
        try reader.close()
        try writer.close()
    }

    /// Flips a bit of the expiry in the header of the record of `key` whose value starts with
    /// `value`'s first bytes, in the log file at `path`, and returns the record's offset.
    static func flipExpiryBit(ofRecordWithKey key: String, value: [UInt8], in path: String) throws -> UInt64 {
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let keyAndValue = Array(key.utf8) + value.prefix(16)
        let keyOffset = try #require(
            (0...(file.count - keyAndValue.count)).first {
                file[$0..<$0 + keyAndValue.count].elementsEqual(keyAndValue)
            })
        let recordOffset = keyOffset - RecordFormat.recordHeaderSize
        let expiry = recordOffset + 40
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(expiry))
        try handle.write(contentsOf: [file[expiry] ^ 0x10])
        try handle.close()
        return UInt64(recordOffset)
    }

    @Test func aCompactionInOneHandleIsFollowedByTheOthers() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        for round in 0..<20 {
            try a.put(expectedValue(for: round, length: 500), forKey: "k", metadata: metadata(1))
        }
        try a.put([7], forKey: "kept", metadata: metadata(1))
        #expect(try b.value(forKey: "k") == expectedValue(for: 19, length: 500))
        let result = try b.compact(now: 0)
        #expect(result.keptEntries == 2)
        // Taking the changes catches up first: a's index is loaded again from the new log.
        #expect(a.takeChanges() == [.reloaded])
        #expect(try a.value(forKey: "kept") == [7])
        try a.put([8], forKey: "after", metadata: metadata(2))
        #expect(try b.value(forKey: "after") == [8])
        try a.close()
        try b.close()
        let reopened = try LogStore(path: path)
        #expect(reopened.count == 3)
        try reopened.close()
    }

    /// A process writing the other area out after its section holds only the flush lock and
    /// reads `base` and `split` once; a compaction elsewhere must not move them meanwhile
    /// (§12.7). Before, it published its new log at once: a writer out that read the new `base`
    /// beside the old `split` wrote a stale `base` into the new generation's words, which made
    /// them disagree, and every other process's next section failed with "catch up with the
    /// shared store" (the four-process test under random pauses, and once in CI).
    @Test func aCompactionPublishesItsLogOnlyOnceNoAreaIsBeingWrittenOut() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        for round in 0..<20 {
            try b.put(expectedValue(for: round, length: 500), forKey: "k", metadata: metadata(1))
        }
        // Nothing staged, so the compaction takes the flush lock only to publish.
        try b.synchronize()
        let generation = LogStoreStagingTests.coordinationWord(path, at: CoordinationFormat.generationOffset)
        let coordination = try #require(a.coordination)
        #expect(a.takeFlushLock(coordination, waiting: true))
        let compacted = Flag()
        let thread = Thread {
            _ = try? b.compact(now: 0)
            _ = compacted.setOnce()
        }
        thread.start()
        usleep(100_000)
        #expect(!compacted.isSet, "the compaction waits for the flush lock")
        #expect(
            LogStoreStagingTests.coordinationWord(path, at: CoordinationFormat.generationOffset)
                == generation,
            "the new log is not published while another process may be writing an area out")
        coordination.release(.flush)
        while !thread.isFinished { usleep(1_000) }
        #expect(compacted.isSet)
        #expect(
            LogStoreStagingTests.coordinationWord(path, at: CoordinationFormat.generationOffset) != generation
        )
        #expect(try a.value(forKey: "k") == expectedValue(for: 19, length: 500))
        try a.close()
        try b.close()
    }

    /// Sharers hold the log shared, a writer that does not share holds it exclusively (§12.1):
    /// each keeps the other out, also after a compaction replaced the file.
    @Test func sharersAndALoneWriterExcludeEachOther() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        try a.put([1], forKey: "k", metadata: metadata(1))
        #expect(throws: LogStoreError.storeLocked(path: path, byThisProcess: true)) {
            try LogStore(path: path)
        }
        _ = try a.compact(now: 0)
        #expect(try b.value(forKey: "k") == [1])
        #expect(throws: LogStoreError.storeLocked(path: path, byThisProcess: true)) {
            try LogStore(path: path)
        }
        try a.close()
        #expect(throws: LogStoreError.storeLocked(path: path, byThisProcess: true)) {
            try LogStore(path: path)
        }
        try b.close()
        let lone = try LogStore(path: path)
        #expect(throws: LogStoreError.storeLocked(path: path, byThisProcess: true)) {
            try Self.shared(path, first: true)
        }
        try lone.close()
    }

    @Test func aReaderFollowsASharedWriterAndALoneOne() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try Self.shared(path, first: true)
        try writer.put([1], forKey: "early", metadata: metadata(1))
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        try writer.put([2], forKey: "late", metadata: metadata(2))
        #expect(try reader.value(forKey: "late") == [2])
        try writer.close()
        try reader.close()

        // A writer that does not share keeps no coordination file: the reader looks at the file.
        let other = directory.file("lone.log")
        let lone = try LogStore(path: other, options: .init(writeBufferSize: 0))
        let follower = try LogStore(path: other, options: .init(readOnly: true))
        try lone.put([3], forKey: "k", metadata: metadata(1))
        usleep(2_000)
        #expect(try follower.value(forKey: "k") == [3])
        try lone.close()
        try follower.close()
    }
}
