import Foundation
import Platform
import TestSupport
import Testing

@testable import LogStoreKit

/// The staging area, the lock word and the liveness files of a shared store (`Spec/store.md`
/// §12.7–§12.10), with handles of one process standing in for processes: each handle has its
/// own token, liveness file and view of the coordination file.
@Suite struct LogStoreStagingTests {
    static func shared(_ path: String, first: Bool) throws -> LogStore {
        try LogStore(
            path: path, options: .init(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { first })))
    }

    static func fileSize(_ path: String) -> UInt64 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
    }

    static func coordinationWord(_ path: String, at offset: Int) -> UInt64 {
        let bytes = fileBytes(path + ".shared")
        return (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    static func setCoordinationWord(_ path: String, at offset: Int, to value: UInt64) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path + ".shared"))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        handle.write(withUnsafeBytes(of: value.littleEndian) { Data($0) })
    }

    /// Records stay in the current area until it fills (§12.7 rule 1): the log file does not
    /// grow, and another handle reads them from the area. When the area fills the areas switch
    /// (rule 2), and the full one goes to the log file once the section is over (rule 3): `base`
    /// moves to where the new current area starts. A record longer than half an area goes to the
    /// file directly (rule 5). Every handle reads every value, wherever it is.
    @Test func recordsWaitInTheStagingAreasUntilOneIsWrittenOut() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        let empty = Self.fileSize(path)
        try a.put(expectedValue(for: 0, length: 1_000), forKey: "k0", metadata: metadata(1))
        #expect(Self.fileSize(path) == empty, "staged, not in the file")
        #expect(try b.value(forKey: "k0") == expectedValue(for: 0, length: 1_000))
        #expect(Self.coordinationWord(path, at: CoordinationFormat.baseOffset) == empty)
        let epoch = Self.coordinationWord(path, at: CoordinationFormat.epochOffset)
        // 200,000-byte values: two fit in an area; the third makes the areas switch.
        let values = (0...3).map { expectedValue(for: $0, length: 200_000) }
        for index in 1...3 {
            try a.put(values[index], forKey: "k\(index)", metadata: metadata(1))
        }
        let areas = Self.coordinationWord(path, at: CoordinationFormat.areasOffset)
        #expect(areas & CoordinationFormat.currentAreaBit != 0, "area 1 is current")
        let split = areas & ~CoordinationFormat.currentAreaBit
        #expect(
            Self.coordinationWord(path, at: CoordinationFormat.baseOffset) == split,
            "the other area written out")
        #expect(Self.fileSize(path) == split)
        #expect(Self.coordinationWord(path, at: CoordinationFormat.epochOffset) != epoch)
        let large = expectedValue(for: 9, length: CoordinationFormat.areaCapacity / 2 + 1)
        try b.put(large, forKey: "large", metadata: metadata(2))
        #expect(
            Self.coordinationWord(path, at: CoordinationFormat.baseOffset) == Self.fileSize(path),
            "a long record goes to the file, and base past it")
        for handle in [a, b] {
            for index in 1...3 {
                #expect(try handle.value(forKey: "k\(index)") == values[index])
            }
            #expect(try handle.value(forKey: "large") == large)
        }
        try a.close()
        try b.close()
        let alone = try LogStore(path: path)
        #expect(alone.count == 5)
        #expect(try alone.value(forKey: "k3") == values[3])
        try alone.close()
    }

    /// A holder killed inside its section leaves its token in the lock word and its liveness
    /// file unlocked (§12.6, §12.8): the next handle that wants the lock takes it over after a
    /// millisecond of waiting, cuts what the dead one wrote past `base`, and deletes its file.
    @Test func aDeadHoldersLockIsTakenOver() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let survivor = try Self.shared(path, first: true)
        let victim = try Self.shared(path, first: false)
        try victim.put([1], forKey: "before", metadata: metadata(1))
        let token = victim.token
        #expect(FileManager.default.fileExists(atPath: path + ".shared.\(token)"))
        try victim.withExclusiveAccess { () throws(LogStoreError) in
            victim.abandon()
        }
        #expect(Self.coordinationWord(path, at: CoordinationFormat.lockOffset) == token, "still held")
        #expect(Self.coordinationWord(path, at: CoordinationFormat.writingOffset) == 1)
        // Bytes the dead holder wrote past `base` without publishing them.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        handle.write(Data(repeating: 0xAB, count: 300))
        try handle.close()
        let started = Date()
        try survivor.put([2], forKey: "after", metadata: metadata(2))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!FileManager.default.fileExists(atPath: path + ".shared.\(token)"), "the dead file is gone")
        #expect(Self.coordinationWord(path, at: CoordinationFormat.lockOffset) == 0)
        #expect(try survivor.value(forKey: "before") == [1])
        try survivor.close()
        let alone = try LogStore(path: path)
        #expect(alone.recovery.discardedBytes == 0, "the dead holder's bytes were cut by the section")
        #expect(try alone.value(forKey: "after") == [2])
        try alone.close()
    }

    /// A holder killed while it moved the areas leaves words that disagree: emptying them
    /// (§12.7 rule 4), it had stored `base` at the length and not the new epoch and `split`;
    /// moving them past a record too long for an area (rule 5), it had stored `base` and
    /// `split` past that record and not the length. A process that joins then finishes the
    /// move and joins (it was refused, for a folder it could have used), and so does the next
    /// section; every value stays readable, the long record too (§12.2 rule 4, §12.3 step 3).
    @Test(arguments: [
        ("joiner", "emptying"), ("next holder", "emptying"), ("joiner", "longer record"),
        ("next holder", "longer record"),
    ])
    func aMoveOfTheAreasADeadHolderLeftHalfDoneIsFinished(by finisher: String, interrupting move: String)
        throws
    {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let survivor = try Self.shared(path, first: true)
        let victim = try Self.shared(path, first: false)
        try survivor.put([1], forKey: "a", metadata: metadata(1))
        try victim.put([2, 2], forKey: "b", metadata: metadata(2))
        let long = expectedValue(for: 5, length: CoordinationFormat.areaCapacity / 2 + 1)
        let published = Self.coordinationWord(path, at: CoordinationFormat.lengthOffset)
        try victim.withExclusiveAccess { () throws(LogStoreError) in
            if move == "longer record" { try victim.put(long, forKey: "long", metadata: metadata(3)) }
            victim.abandon()
        }
        let areas = Self.coordinationWord(path, at: CoordinationFormat.areasOffset)
        let split = areas & ~CoordinationFormat.currentAreaBit
        let length = Self.coordinationWord(path, at: CoordinationFormat.lengthOffset)
        if move == "emptying" {
            // The current area written to the log file at `split`, and `base` moved to the
            // length.
            let current = areas & CoordinationFormat.currentAreaBit == 0 ? 0 : 1
            let areaStart = CoordinationFormat.headerSize + current * CoordinationFormat.areaCapacity
            let staged = fileBytes(path + ".shared")[areaStart..<areaStart + Int(length - split)]
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try log.seek(toOffset: split)
            log.write(Data(staged))
            try log.close()
            try Self.setCoordinationWord(path, at: CoordinationFormat.baseOffset, to: length)
            #expect(split < length, "base past split: the words disagree")
        } else {
            // The record in the file, `base` and `split` past it, the length not yet.
            try Self.setCoordinationWord(path, at: CoordinationFormat.lengthOffset, to: published)
            #expect(split > published, "split past the length: the words disagree")
        }
        let epoch = Self.coordinationWord(path, at: CoordinationFormat.epochOffset)
        // Until a section finishes the move, the words read as what they mean: every published
        // record is in the log file (§12.4). A handle that took them for "not yet" answered
        // from its old view, which lacked 'b'.
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        for handle in [survivor, reader] {
            #expect(try handle.value(forKey: "b") == [2, 2])
            #expect(try handle.value(forKey: "long") == nil, "not published")
        }
        try reader.close()

        if finisher == "joiner" {
            let joiner = try Self.shared(path, first: false)
            #expect(try joiner.value(forKey: "b") == [2, 2])
            try joiner.close()
        } else {
            try survivor.put([3], forKey: "c", metadata: metadata(3))
        }
        #expect(Self.coordinationWord(path, at: CoordinationFormat.epochOffset) != epoch)
        #expect(Self.coordinationWord(path, at: CoordinationFormat.lengthOffset) >= length)
        let later = try Self.shared(path, first: false)
        for handle in [survivor, later] {
            #expect(try handle.value(forKey: "a") == [1])
            #expect(try handle.value(forKey: "b") == [2, 2])
            #expect(try handle.value(forKey: "long") == (move == "longer record" ? long : nil))
        }
        try later.close()
        try survivor.close()
        let alone = try LogStore(path: path)
        #expect(alone.recovery.discardedBytes == 0)
        #expect(try alone.value(forKey: "long") == (move == "longer record" ? long : nil))
        try alone.close()
    }

    /// A holder changes several words one after another (§12.3 step 6, §12.7 rules 2 and 4),
    /// so a process that reads them meanwhile finds a move of the areas under way. A joiner
    /// judges the words only once it holds the lock of changes, and a catch-up reads a move as
    /// what it means: here handles join and read while another switches and empties its areas
    /// over and over, and none is refused or misses a value whose store had returned. (A stress
    /// test: the window is a few instructions wide, and the states themselves are checked one
    /// by one above.)
    @Test func wordsReadWhileAHolderChangesThemAreReadAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let writer = try Self.shared(path, first: true)
        let stored = SharedNumber()
        let done = Flag()
        let thread = Thread {
            var round = 0
            while !done.isSet {
                round += 1
                // 100 KB values: an area holds five, so the areas switch every few puts, and every
                // third put empties them.
                var value = [UInt8](repeating: 7, count: 100_000)
                withUnsafeBytes(of: UInt64(round).littleEndian) { value.replaceSubrange(0..<8, with: $0) }
                try? writer.put(value, forKey: "k\(round % 8)", metadata: metadata(1))
                if round % 3 == 0 { try? writer.synchronize() }
                stored.value = round
            }
        }
        thread.start()
        defer {
            _ = done.setOnce()
            while !thread.isFinished { usleep(1_000) }
        }
        let deadline = Date().addingTimeInterval(1.5)
        var joins = 0
        while Date() < deadline {
            let round = stored.value
            let joiner = try Self.shared(path, first: false)
            if round > 0 {
                let value = try #require(try joiner.value(forKey: "k\(round % 8)"))
                let read = value.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                // The store of `round` had returned: its value, or a later round's of that key.
                #expect(value.count == 100_000 && read >= round && read % 8 == round % 8)
            }
            try joiner.close()
            joins += 1
        }
        #expect(joins > 10)
    }

    /// A handle that catches up while another switches the areas (§12.7 rule 2), between its
    /// two stores, keeps a view its next section accepts, also when the switcher dies before
    /// it publishes anything more. The switch stored the new epoch before the areas word once:
    /// a reader between them paired the new epoch with the old areas, kept a view that the
    /// epoch called current and whose `split` was the old one, and, the switcher dead, every
    /// section it began failed with `ioError` ("catch up with the shared store") until another
    /// process changed the epoch or the length.
    @Test func aHandleThatCatchesUpHalfwayThroughASwitchCanStillWrite() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let reader = LockedBox<LogStore?>(nil)
        let caughtUp = Flag()
        var options = LogStore.Options(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { true }))
        options.areasSwitchingHalfway = {
            guard let reader = reader.value, caughtUp.setOnce() else { return }
            _ = try? reader.value(forKey: "k0")
        }
        let switcher = try LogStore(path: path, options: options)
        let b = try Self.shared(path, first: false)
        reader.value = b
        // 200,000-byte values: two fit in an area; the third makes the areas switch.
        let values = (0...3).map { expectedValue(for: $0, length: 200_000) }
        for index in 0...1 {
            try switcher.put(values[index], forKey: "k\(index)", metadata: metadata(1))
        }
        #expect(try b.value(forKey: "k1") == values[1])
        // The switcher dies inside the section of its switch, before it publishes its record.
        try switcher.withExclusiveAccess { () throws(LogStoreError) in
            try switcher.put(values[2], forKey: "k2", metadata: metadata(1))
            switcher.abandon()
        }
        #expect(caughtUp.isSet, "the reader caught up halfway through the switch")
        try b.put(values[3], forKey: "k3", metadata: metadata(2))
        for index in [0, 1, 3] {
            #expect(try b.value(forKey: "k\(index)") == values[index])
        }
        #expect(try b.value(forKey: "k2") == nil, "the dead switcher's unpublished record is cut")
        try b.close()
    }

    /// A lock held by a live handle is waited for, not taken over, however long it is held:
    /// the holder's liveness file is locked (§12.8).
    @Test func aLiveHoldersLockIsWaitedFor() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let holder = try Self.shared(path, first: true)
        let waiter = try Self.shared(path, first: false)
        let entered = DispatchSemaphore(value: 0)
        let released = Flag()
        let thread = Thread {
            try? holder.withExclusiveAccess { () throws(LogStoreError) in
                entered.signal()
                usleep(30_000)
                _ = released.setOnce()
            }
        }
        thread.start()
        entered.wait()
        try waiter.put([1], forKey: "k", metadata: metadata(1))
        #expect(released.isSet, "the waiter waited for the section to end")
        try holder.close()
        try waiter.close()
    }

    /// A close gives up the liveness file; the first process deletes files whose holders are
    /// gone (§12.2 rule 3, §12.8).
    @Test func livenessFilesComeAndGo() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        #expect(a.token != b.token)
        let bFile = path + ".shared.\(b.token)"
        #expect(FileManager.default.fileExists(atPath: bFile))
        try b.close()
        #expect(!FileManager.default.fileExists(atPath: bFile))
        let aFile = path + ".shared.\(a.token)"
        a.abandon()
        #expect(FileManager.default.fileExists(atPath: aFile), "a crash leaves it")
        let next = try Self.shared(path, first: true)
        #expect(!FileManager.default.fileExists(atPath: aFile), "the first process deleted it")
        try next.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.hasPrefix("store.log.shared.") }, "\(names)")
    }

    /// When every process is gone, a writer that opens alone takes up what they staged, if the
    /// system has not restarted since (§12.10): here the handles are abandoned as killed
    /// processes would leave them. With another boot's identity in the file it does not, and
    /// neither when the coordination file names another generation.
    @Test(arguments: ["same boot", "other boot", "other generation"])
    func stagedRecordsAreTakenUpInTheSameBootOnly(_ condition: String) throws {
        guard SystemInformation.bootIdentity != nil else { return }
        let directory = TemporaryDirectory()
        let path = directory.file()
        let a = try Self.shared(path, first: true)
        let b = try Self.shared(path, first: false)
        try a.put([1], forKey: "synchronized", metadata: metadata(1))
        try a.synchronize()
        try b.put([2], forKey: "staged", metadata: metadata(2))
        a.abandon()
        b.abandon()
        switch condition {
        case "other boot":
            let boot = Self.coordinationWord(path, at: CoordinationFormat.bootOffset)
            try Self.setCoordinationWord(path, at: CoordinationFormat.bootOffset, to: boot &+ 1)
        case "other generation":
            let generation = Self.coordinationWord(path, at: CoordinationFormat.generationOffset)
            try Self.setCoordinationWord(path, at: CoordinationFormat.generationOffset, to: generation &+ 1)
        default:
            break
        }
        let next = try Self.shared(path, first: true)
        #expect(try next.value(forKey: "synchronized") == [1])
        #expect(try next.value(forKey: "staged") == (condition == "same boot" ? [2] : nil))
        try next.close()
    }

    /// A writer that does not share takes up the staged records too, then makes the
    /// coordination file not valid (§12.9); a reader that followed it goes back to following
    /// the file, and follows the sharers again once a first sharer starts the file afresh.
    @Test func aLoneWriterPutsTheCoordinationFileOutOfUse() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let sharer = try Self.shared(path, first: true)
        try sharer.put([1], forKey: "staged", metadata: metadata(1))
        let reader = try LogStore(path: path, options: .init(readOnly: true))
        #expect(try reader.value(forKey: "staged") == [1])
        sharer.abandon()
        let lone = try LogStore(path: path, options: .init(writeBufferSize: 0))
        #expect(try lone.value(forKey: "staged") == [1])
        #expect(Self.coordinationWord(path, at: CoordinationFormat.magicOffset) == 0)
        try lone.put([2], forKey: "lone", metadata: metadata(2))
        usleep(2_000)
        #expect(try reader.value(forKey: "lone") == [2], "the reader follows the file again")
        try lone.close()
        let again = try Self.shared(path, first: true)
        try again.put([3], forKey: "shared again", metadata: metadata(3))
        usleep(2_000)
        #expect(try reader.value(forKey: "shared again") == [3], "and the sharers once the file is valid")
        try again.close()
        try reader.close()
    }

    /// A synchronize outside a section makes the log durable with no lock held, then writes the
    /// mark in a second section (§12.3). Another process may synchronize more in between: the
    /// mark is never lowered to what the first one made durable.
    @Test func synchronizingNeverLowersTheMark() throws {
        let directory = TemporaryDirectory()
        let path = directory.file()
        let b = try Self.shared(path, first: true)
        let overtaken = Flag()
        var options = LogStore.Options(compactionDeadRatio: nil, sharing: .init(isOnlyProcess: { false }))
        options.synchronizedBeforeMark = {
            guard overtaken.setOnce() else { return }
            try? b.put([2], forKey: "b", metadata: metadata(2))
            try? b.synchronize()
        }
        let a = try LogStore(path: path, options: options)
        try a.put([1], forKey: "a", metadata: metadata(1))
        try a.synchronize()
        #expect(overtaken.isSet)
        let generation = Self.coordinationWord(path, at: CoordinationFormat.generationOffset)
        #expect(a.loadSyncMark(generation: generation) == Self.fileSize(path), "b's mark, covering both")
        try a.close()
        try b.close()
    }
}
