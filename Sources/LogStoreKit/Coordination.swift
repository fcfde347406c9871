#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

/// The coordination file of a shared store (`<log>.shared`, `Spec/store.md` §12.2): a header
/// of words every process reads and writes in place, and the staging area that holds the log's
/// newest records, in two areas (§12.7).
enum CoordinationFormat {
    /// `89 49 43 53 48 52 44 0A`: a high-bit byte, "ICSHRD", LF.
    static let magic: UInt64 = 0x0A44_5248_5343_4989
    static let version: UInt64 = 2
    static let headerSize = 4_096
    /// The size of each of the two areas.
    static let areaCapacity = 1 << 19
    static let stagingCapacity = 2 * areaCapacity
    static let size = headerSize + stagingCapacity
    static let magicOffset = 0
    static let versionOffset = 8
    static let generationOffset = 16
    static let lengthOffset = 24
    static let counterOffset = 32
    static let writingOffset = 40
    static let baseOffset = 48
    static let epochOffset = 56
    static let nextTokenOffset = 64
    static let bootOffset = 72
    /// The current area (bit 63) and `split`, the log offset of its first byte (§12.7).
    static let areasOffset = 80
    /// Changes when the file is started afresh or made not valid (§12.4).
    static let incarnationOffset = 88
    /// The lock of changes, alone in its 128 bytes: a process that waits for it reads it over
    /// and over, and would otherwise pull away the line of every word the holder writes.
    static let lockOffset = 256
    /// Sections begun: each holder adds one when it takes the lock (§12.8).
    static let sectionsOffset = 264
    /// The flush lock and its count, in the next 128 bytes (§12.7, §12.8).
    static let flushLockOffset = 384
    static let flushesOffset = 392
    /// The first reserved word; the reserved words run to the end of the header, but for the
    /// locks.
    static let reservedOffset = 96
    /// The bit of the areas word that names the current area.
    static let currentAreaBit: UInt64 = 1 << 63
}

/// One of the two locks in the coordination file (`Spec/store.md` §12.8): its word, and the
/// count its holders keep of the times they took it.
struct SharedLock: Sendable {
    let wordOffset: Int
    let countOffset: Int

    /// The lock of changes (§12.3).
    static let changes = SharedLock(
        wordOffset: CoordinationFormat.lockOffset, countOffset: CoordinationFormat.sectionsOffset)
    /// The flush lock: whoever writes the other area to the log file holds it (§12.7).
    static let flush = SharedLock(
        wordOffset: CoordinationFormat.flushLockOffset, countOffset: CoordinationFormat.flushesOffset)
}

/// What a process reads of the others' work (`Spec/store.md` §12.4), as one consistent reading.
struct PublishedState: Equatable {
    /// The published log's generation (never 0 here).
    var generation: UInt64
    /// Changes whenever an area's bytes stop meaning what they meant (§12.7).
    var epoch: UInt64
    /// Changes when the file is started afresh or made not valid.
    var incarnation: UInt64
    /// The file holds every published byte below it; the other area holds those from it to
    /// `split`.
    var base: UInt64
    /// The log offset of the current area's first byte.
    var split: UInt64
    /// Which area is current (0 or 1).
    var current: Int
    /// The published length: whole records up to here.
    var length: UInt64

    /// Whether a holder is moving the areas (§12.7 rules 4 and 5): it stored `base` past
    /// `split`, or `base` and `split` past the length, and not yet the rest. Every published
    /// byte is in the log file then, and `base` ≥ the length.
    var isMoving: Bool { (base > split || (base == split && split > length)) && base >= length }

    /// Whether the words agree with each other (§12.2): base ≤ split ≤ length, each area's
    /// part no longer than an area.
    var isConsistent: Bool {
        base <= split && split <= length && split - base <= UInt64(CoordinationFormat.areaCapacity)
            && length - split <= UInt64(CoordinationFormat.areaCapacity)
    }
}

/// The coordination file, open and, once its size is right, mapped (`Spec/store.md` §12.2).
final class Coordination: @unchecked Sendable {
    let path: String
    let descriptor: Int32
    /// The mapping, kept for as long as the file is in use; it is read and written through
    /// `words`, which takes no reference per access.
    private var mapping: SharedMapping?
    /// The mapped words; meaningless until the file is mapped (`mapping` set).
    private var words: SharedWords!
    /// Whether the file had the format's size before this process mapped it: a short file is
    /// not valid (§12.2), even once a first process has lengthened it, until that process
    /// writes the format afresh.
    private var hadFullSize = false

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { FileSystem.close(descriptor) }

    /// A writer's: opens the file, creating it (empty) when missing. Map it with
    /// ``mapForWriting(extending:)`` under the open lock.
    static func openForWriting(path: String) throws(SystemCallError) -> Coordination {
        let fd = try FileSystem.open(path, .readWrite, options: [.create, .noFollow])
        return Coordination(path: path, descriptor: fd)
    }

    /// A reader's: opens and maps the file read-only; nil when it is missing or shorter than
    /// the format's size (not valid, §12.2). Whether its words are valid is ``isValid``.
    static func openForReading(path: String) -> Coordination? {
        guard let fd = try? FileSystem.open(path, .readOnly, options: [.noFollow]) else { return nil }
        let coordination = Coordination(path: path, descriptor: fd)
        guard let size = try? FileSystem.size(fd, path: path), size >= UInt64(CoordinationFormat.size),
            let mapping = try? SharedMapping.map(
                fd, length: CoordinationFormat.size, writable: false, path: path)
        else { return nil }
        coordination.mapping = mapping
        coordination.words = mapping.words
        coordination.hadFullSize = true
        return coordination
    }

    /// Whether the file is at least the format's size.
    func hasFullSize() throws(SystemCallError) -> Bool {
        try FileSystem.size(descriptor, path: path) >= UInt64(CoordinationFormat.size)
    }

    /// Maps the file for reading and writing; a first process (`extending`) first lengthens a
    /// short file. A file is never shortened: other processes may have it mapped (§12.2).
    func mapForWriting(extending: Bool) throws(SystemCallError) {
        hadFullSize = try hasFullSize()
        if extending && !hadFullSize {
            try FileSystem.truncate(descriptor, to: UInt64(CoordinationFormat.size), path: path)
        }
        let mapped = try SharedMapping.map(
            descriptor, length: CoordinationFormat.size, writable: true, path: path)
        mapping = mapped
        words = mapped.words
    }

    /// Well-formed (§12.2): the format's size, magic and version. A process follows a
    /// well-formed file; whether its words agree it can tell only from a reading no holder is
    /// changing (``isValid``, ``published``).
    var isWellFormed: Bool {
        guard let words, hadFullSize else { return false }
        return words.load(at: CoordinationFormat.magicOffset) == CoordinationFormat.magic
            && words.load(at: CoordinationFormat.versionOffset) == CoordinationFormat.version
    }

    /// Valid (§12.2): well-formed, and words that agree with each other
    /// (``PublishedState/isConsistent``). Only meaningful while no process changes the words:
    /// with the lock of changes held, or with no other process alive. (A holder between two of
    /// its stores leaves them disagreeing for a moment; a process that joined on such a reading
    /// was refused for nothing.)
    var isValid: Bool { isWellFormed && plainState.isConsistent }

    /// The state as plain loads, for a holder of the lock of changes (no one changes it
    /// meanwhile but a flusher moving `base` forward).
    var plainState: PublishedState {
        let areas = words.load(at: CoordinationFormat.areasOffset)
        return PublishedState(
            generation: generation, epoch: epoch,
            incarnation: words.load(at: CoordinationFormat.incarnationOffset), base: base,
            split: areas & ~CoordinationFormat.currentAreaBit,
            current: areas & CoordinationFormat.currentAreaBit == 0 ? 0 : 1, length: length)
    }

    // Plain loads, for a holder of the lock of changes (no one publishes meanwhile); a process
    // outside it reads `published`.
    var generation: UInt64 { words.load(at: CoordinationFormat.generationOffset) }
    var length: UInt64 { words.load(at: CoordinationFormat.lengthOffset) }
    var counter: UInt64 { words.load(at: CoordinationFormat.counterOffset) }
    var isWriting: Bool { words.load(at: CoordinationFormat.writingOffset) != 0 }
    var base: UInt64 { words.load(at: CoordinationFormat.baseOffset) }
    var epoch: UInt64 { words.load(at: CoordinationFormat.epochOffset) }

    /// `split`: the log offset of the current area's first byte (§12.7).
    var split: UInt64 { words.load(at: CoordinationFormat.areasOffset) & ~CoordinationFormat.currentAreaBit }

    /// Whether the other area holds records not yet in the log file (`base` < `split`).
    var otherAreaHoldsRecords: Bool { base < split }

    /// The token that holds `lock` (0: free).
    func holder(of lock: SharedLock) -> UInt64 { words.loadAcquiring(at: lock.wordOffset) }

    /// Waits, spinning on `lock`'s word, while it still holds `holder`, for at most `looks`
    /// looks; the word as the last look found it. A spinning look is one load (no reference is
    /// taken per look), so a waiter sees the lock free the moment its holder lets it go.
    func spin(on lock: SharedLock, whileHeldBy holder: UInt64, looks: Int) -> UInt64 {
        let words: SharedWords = words
        var current = holder
        var look = 0
        while current == holder && look < looks {
            current = words.loadAcquiring(at: lock.wordOffset)
            look += 1
        }
        return current
    }

    /// The published state as one reading (§12.4): the generation, the epoch, the incarnation,
    /// `base`, the areas, the length, then the generation again, each load ordered before what
    /// follows; nil when none is published, a publish of another generation is under way (the
    /// generation reads 0, or not the same twice), the words disagree, or the file is not
    /// well-formed.
    var published: PublishedState? {
        guard isWellFormed else { return nil }
        // A publish of another generation stores 0 in the generation first: for the few
        // instructions until it stores the new one, read again. (Whoever gets nil waits while
        // the holder lives, ``LogStore/catchUp(holdingLockOfChanges:)``.)
        for _ in 0..<Self.publishedReadings {
            if let state = readPublished() { return state }
        }
        return nil
    }

    /// How many times ``published`` reads the words before it gives up.
    static let publishedReadings = 100

    /// One reading of the published state (§12.4): nil when a publish of another generation is
    /// under way or the words disagree. A move of the areas under way (`base` past `split`, or
    /// `base` = `split` past the length, §12.7 rules 4 and 5) reads as what it means: every
    /// published byte is in the log file, the areas hold none.
    private func readPublished() -> PublishedState? {
        let words: SharedWords = words
        let generation = words.loadAcquiring(at: CoordinationFormat.generationOffset)
        guard generation != 0 else { return nil }
        let epoch = words.loadAcquiring(at: CoordinationFormat.epochOffset)
        let incarnation = words.loadAcquiring(at: CoordinationFormat.incarnationOffset)
        let base = words.loadAcquiring(at: CoordinationFormat.baseOffset)
        let areas = words.loadAcquiring(at: CoordinationFormat.areasOffset)
        let length = words.loadAcquiring(at: CoordinationFormat.lengthOffset)
        guard words.loadAcquiring(at: CoordinationFormat.generationOffset) == generation else { return nil }
        var state = PublishedState(
            generation: generation, epoch: epoch, incarnation: incarnation, base: base,
            split: areas & ~CoordinationFormat.currentAreaBit,
            current: areas & CoordinationFormat.currentAreaBit == 0 ? 0 : 1, length: length)
        if state.isMoving {
            state.base = length
            state.split = length
        }
        return state.isConsistent ? state : nil
    }

    /// Whether the published state may differ from a handle's view (§12.4): another generation
    /// or epoch, or a length past `applied`. The cheap look before every read: the generation,
    /// the epoch, the length, then the generation again. While a publish of another generation
    /// is under way (the generation reads 0, or not the same twice) it may: the catch-up reads
    /// the state as one (``published``). A file made not valid changes its epoch too (§12.9),
    /// so the look finds that as well.
    func isAhead(ofGeneration generation: UInt64, epoch: UInt64, applied: UInt64) -> Bool {
        let words: SharedWords = words
        let published = words.loadAcquiring(at: CoordinationFormat.generationOffset)
        let publishedEpoch = words.loadAcquiring(at: CoordinationFormat.epochOffset)
        let length = words.loadAcquiring(at: CoordinationFormat.lengthOffset)
        guard published != 0, words.load(at: CoordinationFormat.generationOffset) == published else {
            return true
        }
        return published != generation || publishedEpoch != epoch || length > applied
    }

    /// Whether the staging area still means what it meant when `state` was read: the epoch and
    /// the generation are the same, loaded after every access before this call (§12.7). A copy
    /// from the area made before it is good when this holds.
    func stagingIsUnchanged(since state: (generation: UInt64, epoch: UInt64)) -> Bool {
        MemoryFence.acquire()
        return words.load(at: CoordinationFormat.epochOffset) == state.epoch
            && words.load(at: CoordinationFormat.generationOffset) == state.generation
    }

    /// The first byte of area `index` (0 or 1, §12.7).
    func area(_ index: Int) -> UnsafeMutableRawPointer {
        words.bytes(
            at: CoordinationFormat.headerSize + index * CoordinationFormat.areaCapacity,
            count: CoordinationFormat.areaCapacity)
    }

    // MARK: Changes (writers)

    /// Publishes a log whose records are all in its file, each word after everything before it
    /// (the log's bytes first): generation 0 first when it changes, so a reader never pairs one
    /// log's length with another log's generation (§12.3 step 6); then the length, `base` and
    /// `split` at its end with a new epoch (areas empty, the current one kept), the generation.
    func publish(generation: UInt64, length: UInt64) {
        let changing = self.generation != generation
        if changing { words.storeReleasing(0, at: CoordinationFormat.generationOffset) }
        words.storeReleasing(length, at: CoordinationFormat.lengthOffset)
        emptyAreas(at: length)
        if changing { words.storeReleasing(generation, at: CoordinationFormat.generationOffset) }
    }

    /// Publishes only the length (a section's end, or before its staging area is written out).
    func publish(length: UInt64) {
        words.storeReleasing(length, at: CoordinationFormat.lengthOffset)
    }

    /// The other area was written to the log file (§12.7 rule 3): `base` moves up to `split`,
    /// after the write. No area's bytes change, so the epoch stays.
    func moveBase(to base: UInt64) {
        words.storeReleasing(base, at: CoordinationFormat.baseOffset)
    }

    /// Every staged byte is in the log file, which ends at `length` (§12.7 rules 4 and 5): `base`
    /// moves there, then a new epoch, then `split` (the current area used again from its
    /// start), each after everything before it; then a fence, so that nothing written to an
    /// area after this call is seen before the new epoch.
    func emptyAreas(at length: UInt64) {
        let current = words.load(at: CoordinationFormat.areasOffset) & CoordinationFormat.currentAreaBit
        words.storeReleasing(length, at: CoordinationFormat.baseOffset)
        words.storeReleasing(epoch &+ 1, at: CoordinationFormat.epochOffset)
        words.storeReleasing(current | length, at: CoordinationFormat.areasOffset)
        MemoryFence.release()
    }

    /// Finishes what a holder that died while moving the areas left undone (§12.3 step 3):
    /// `base` past `split` (it was emptying them, §12.7 rule 4, or moving them past a record it
    /// wrote to the log file, rule 5, and had stored only `base`), or `split` past the length
    /// (rule 5, the length not yet stored). Every byte below `base` was in the log file by then:
    /// a new epoch, `split` at `base`, then the length. Holds the lock of changes and the flush
    /// lock.
    func finishInterruptedMove() {
        let areas = words.load(at: CoordinationFormat.areasOffset)
        let base = self.base
        guard plainState.isMoving else { return }
        words.storeReleasing(epoch &+ 1, at: CoordinationFormat.epochOffset)
        words.storeReleasing(
            (areas & CoordinationFormat.currentAreaBit) | base, at: CoordinationFormat.areasOffset)
        words.storeReleasing(base, at: CoordinationFormat.lengthOffset)
        MemoryFence.release()
    }

    /// Makes the other area current, starting at `split` (§12.7 rule 2; the other area is
    /// empty: `base` = the old split): the areas word in one store, then a new epoch, then a
    /// fence before the area is written. In that order a reader that sees the new epoch sees
    /// the new areas; one that paired the new epoch with the old areas would keep a view that
    /// the epoch calls current and whose `split` is not the words'. `halfway` (a test's hook)
    /// runs between the two stores.
    func switchAreas(at split: UInt64, halfway: (() -> Void)? = nil) {
        let current = words.load(at: CoordinationFormat.areasOffset) & CoordinationFormat.currentAreaBit
        words.storeReleasing(
            (current ^ CoordinationFormat.currentAreaBit) | split, at: CoordinationFormat.areasOffset)
        halfway?()
        words.storeReleasing(epoch &+ 1, at: CoordinationFormat.epochOffset)
        MemoryFence.release()
    }

    /// The first process's fresh start (§12.2 rule 3): counter, writing and lock 0, a new
    /// epoch, `next token` kept from a valid file (1 otherwise), this boot's identity, the
    /// reserved words 0; then `publish` sets the rest, and ``stampFormat()`` makes the file
    /// valid.
    func startAfresh() {
        let wasValid = isValid
        let epoch = wasValid ? self.epoch &+ 1 : 1
        let incarnation = wasValid ? words.load(at: CoordinationFormat.incarnationOffset) &+ 1 : 1
        let nextToken = wasValid ? max(words.load(at: CoordinationFormat.nextTokenOffset), 1) : 1
        words.store(0, at: CoordinationFormat.magicOffset)
        words.store(0, at: CoordinationFormat.generationOffset)
        setCounter(0)
        setWriting(false)
        words.store(0, at: CoordinationFormat.lengthOffset)
        words.store(0, at: CoordinationFormat.baseOffset)
        words.store(0, at: CoordinationFormat.areasOffset)
        words.store(epoch, at: CoordinationFormat.epochOffset)
        words.store(incarnation, at: CoordinationFormat.incarnationOffset)
        words.store(nextToken, at: CoordinationFormat.nextTokenOffset)
        words.store(SystemInformation.bootIdentity ?? 0, at: CoordinationFormat.bootOffset)
        var offset = CoordinationFormat.reservedOffset
        while offset < CoordinationFormat.headerSize {
            words.store(0, at: offset)
            offset += 8
        }
    }

    /// Writes the version, then the magic, after everything before (§12.2 rule 3).
    func stampFormat() {
        words.storeReleasing(CoordinationFormat.version, at: CoordinationFormat.versionOffset)
        words.storeReleasing(CoordinationFormat.magic, at: CoordinationFormat.magicOffset)
        hadFullSize = true
    }

    /// Whether the records staged here may be taken up by a writer that has the store alone
    /// (§12.10 rules 1 and 2; the caller checks the log's length, rule 3): valid, started
    /// afresh in this boot of the system, and naming the log's generation.
    func holdsStagedRecords(ofGeneration generation: UInt64) -> Bool {
        isValid && wasStartedThisBoot && self.generation == generation
    }

    /// Whether the file was started afresh in this boot of the system (its boot word, §12.2):
    /// then no power cut came since, and what its processes published is in the page cache
    /// whole. False when the boot's identity is unknown.
    var wasStartedThisBoot: Bool {
        guard isWellFormed, let boot = SystemInformation.bootIdentity else { return false }
        return words.load(at: CoordinationFormat.bootOffset) == boot
    }

    /// Makes the file not valid: a writer that does not share has the store (§12.9). The
    /// incarnation and the epoch change too, so that a reader's look before its next read finds
    /// out.
    func invalidate() {
        words.storeReleasing(0, at: CoordinationFormat.magicOffset)
        words.storeReleasing(
            words.load(at: CoordinationFormat.incarnationOffset) &+ 1,
            at: CoordinationFormat.incarnationOffset)
        words.storeReleasing(epoch &+ 1, at: CoordinationFormat.epochOffset)
    }

    func setCounter(_ value: UInt64) { words.store(value, at: CoordinationFormat.counterOffset) }
    func setWriting(_ writing: Bool) { words.store(writing ? 1 : 0, at: CoordinationFormat.writingOffset) }

    /// A new token for a writer (§12.8): the old value of `next token`, which grows by one.
    func takeToken() -> UInt64 {
        words.add(1, at: CoordinationFormat.nextTokenOffset)
    }

    /// Takes `lock` from `holder` (0: free) for `token`; whether it did.
    func exchange(_ lock: SharedLock, from holder: UInt64, to token: UInt64) -> Bool {
        words.compareExchange(expecting: holder, replacingWith: token, at: lock.wordOffset)
    }

    /// How many times `lock` was taken (§12.8), as its holders counted.
    func count(of lock: SharedLock) -> UInt64 { words.load(at: lock.countOffset) }

    /// Counts a taking of `lock` by its holder (a plain store: only the holder writes it).
    func countTaking(of lock: SharedLock) {
        words.store(count(of: lock) &+ 1, at: lock.countOffset)
    }

    /// Releases `lock`, after everything before (§12.3 step 7).
    func release(_ lock: SharedLock) {
        words.storeReleasing(0, at: lock.wordOffset)
    }
}
