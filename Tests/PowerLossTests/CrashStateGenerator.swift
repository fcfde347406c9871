import Platform

/// A disk state a power cut leaves: folders and files under the root, each with a time that
/// keeps the order of the calls that last changed it (so modification-time checks see what a
/// real disk would show).
struct DiskImage: Hashable, Sendable {
    struct File: Hashable, Sendable {
        var bytes: [UInt8]
        var time: Int
    }

    /// Relative folder path → time. The root itself is not listed.
    var folders: [String: Int] = [:]
    /// Relative file path → content.
    var files: [String: File] = [:]
}

/// Replays a recording call by call and, after any call, builds the disk states that a power
/// cut at that moment could leave under a ``FileSystemModel``.
///
/// Data: every file keeps the content its last fsync made durable and the writes and
/// truncations since. A state keeps, page by page (4 KiB), the content after some prefix of
/// those changes, may tear a page at a sector, and may give the file the size after another
/// prefix (bytes no kept write filled read as zeros). A failed fsync loses the writes and
/// truncations since the last one for good, as Linux does. Names: every creation, link, rename,
/// removal and new folder is durable after an fsync of its folder (and, under ext4, of
/// anything); before that it may be lost (ext4: a prefix of them survives; strict POSIX: any
/// subset per folder).
struct CrashStateGenerator {
    enum Node: Hashable {
        case file(Int)
        case folder
    }

    enum NameChange {
        case set(Node)
        case remove(Node)
        /// A rename inside one folder, atomic: `from` goes, the op's name gets the node.
        case rename(from: String, Node)
    }

    struct NameOp {
        var folder: String
        var name: String
        var change: NameChange
        var time: Int
        /// ext4: a rename over a file carries the renamed file's data up to this change.
        var carries: (file: Int, sequence: Int)?
    }

    enum DataOp {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)
    }

    struct PendingData {
        var op: DataOp
        var sequence: Int
        var time: Int
    }

    struct FileState {
        var durable: [UInt8] = []
        var durableTime = 0
        var pending: [PendingData] = []
    }

    /// Which state to build.
    enum Kind: Sendable {
        /// Every unsynchronized change lost.
        case allLost
        /// Every change kept: what a killed process leaves.
        case allKept
        /// Every name change kept, every unsynchronized byte lost: how ext4 mostly looks after
        /// a power cut (metadata commits every few seconds, data waits for writeback).
        case namesKept
        /// A seeded random choice per page, sector, size and name change.
        case random
    }

    let model: FileSystemModel
    /// Calls applied so far.
    private(set) var time = 0
    private var files: [Int: FileState] = [:]
    private var durableNames: [String: [String: Node]] = ["": [:]]
    private var durableFolderTimes: [String: Int] = [:]
    private var pendingNames: [NameOp] = []
    private var volatileNames: [String: [String: Node]] = ["": [:]]
    private var nextSequence = 0

    init(initialItems: [SystemCallRecorder.InitialItem], model: FileSystemModel) {
        self.model = model
        for item in initialItems {
            let (folder, name) = Self.split(item.path)
            if let file = item.file {
                files[file] = FileState(durable: item.bytes)
                durableNames[folder, default: [:]][name] = .file(file)
            } else {
                durableNames[folder, default: [:]][name] = .folder
                durableNames[item.path, default: [:]] = durableNames[item.path] ?? [:]
            }
        }
        volatileNames = durableNames
    }

    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    private func volatileNode(_ path: String) -> Node? {
        let (folder, name) = Self.split(path)
        return volatileNames[folder]?[name]
    }

    // MARK: Replay

    mutating func apply(_ call: SystemCallRecorder.Call) {
        time += 1
        switch call {
        case .createFile(let path, let file):
            files[file] = FileState(durableTime: time)
            name(path, .set(.file(file)))
        case .link(let path, let file):
            name(path, .set(.file(file)))
        case .makeDirectory(let path):
            durableNames[path] = durableNames[path] ?? [:]
            volatileNames[path] = volatileNames[path] ?? [:]
            name(path, .set(.folder))
        case .rename(let from, let to):
            guard let node = volatileNode(from) else { return }
            var carries: (Int, Int)?
            if model == .ext4Ordered, case .file(let file) = node, volatileNode(to) != nil {
                carries = (file, files[file]?.pending.last?.sequence ?? -1)
            }
            let source = Self.split(from)
            let destination = Self.split(to)
            if source.folder == destination.folder {
                name(to, .rename(from: source.name, node), carries: carries)
            } else {
                name(to, .set(node), carries: carries)
                name(from, .remove(node))
            }
        case .remove(let path):
            guard let node = volatileNode(path) else { return }
            name(path, .remove(node))
        case .write(let file, let offset, let bytes):
            data(file, .write(offset: Int(offset), bytes: bytes))
        case .truncate(let file, let length):
            data(file, .truncate(Int(length)))
        case .synchronizeFile(let file):
            if var state = files[file] {
                state.durable = Self.applying(state.pending[...], to: state.durable)
                state.durableTime = state.pending.last?.time ?? state.durableTime
                state.pending = []
                files[file] = state
            }
            if model == .ext4Ordered { commitNames { _ in true } }
        case .failedSynchronizeFile(let file):
            // Linux marks the pages a failed writeback could not write clean, so no later fsync
            // writes them: the file's unsynchronized changes never reach the disk unless they
            // are made again (the worst case; some of them may have been written before).
            files[file]?.pending = []
        case .synchronizeDirectory(let path):
            if model == .ext4Ordered {
                commitNames { _ in true }
            } else {
                commitNames { $0.folder == path }
            }
        }
    }

    private mutating func name(_ path: String, _ change: NameChange, carries: (Int, Int)? = nil) {
        let (folder, name) = Self.split(path)
        let op = NameOp(
            folder: folder, name: name, change: change, time: time,
            carries: carries.map { (file: $0.0, sequence: $0.1) })
        pendingNames.append(op)
        Self.applyName(op, to: &volatileNames)
    }

    private mutating func data(_ file: Int, _ op: DataOp) {
        files[file, default: FileState()].pending.append(
            PendingData(op: op, sequence: nextSequence, time: time))
        nextSequence += 1
    }

    private mutating func commitNames(where include: (NameOp) -> Bool) {
        var kept: [NameOp] = []
        for op in pendingNames {
            if include(op) {
                Self.applyName(op, to: &durableNames, times: &durableFolderTimes)
            } else {
                kept.append(op)
            }
        }
        pendingNames = kept
    }

    /// Applies a name change; with `times`, also records when its folder last changed.
    private static func applyName(
        _ op: NameOp, to names: inout [String: [String: Node]], times: inout [String: Int]
    ) {
        applyName(op, to: &names)
        times[op.folder] = op.time
    }

    private static func applyName(_ op: NameOp, to names: inout [String: [String: Node]]) {
        switch op.change {
        case .set(let node):
            names[op.folder, default: [:]][op.name] = node
        case .remove(let node):
            if names[op.folder]?[op.name] == node { names[op.folder]?[op.name] = nil }
        case .rename(let from, let node):
            if names[op.folder]?[from] == node { names[op.folder]?[from] = nil }
            names[op.folder, default: [:]][op.name] = node
        }
    }

    static func applying(_ ops: ArraySlice<PendingData>, to base: [UInt8]) -> [UInt8] {
        var bytes = base
        for change in ops {
            switch change.op {
            case .write(let offset, let written):
                if bytes.count < offset + written.count {
                    bytes.append(contentsOf: repeatElement(0, count: offset + written.count - bytes.count))
                }
                bytes.replaceSubrange(offset..<(offset + written.count), with: written)
            case .truncate(let length):
                if length < bytes.count {
                    bytes.removeSubrange(length...)
                } else {
                    bytes.append(contentsOf: repeatElement(0, count: length - bytes.count))
                }
            }
        }
        return bytes
    }

    // MARK: States

    /// Whether anything is still unsynchronized (otherwise every kind gives the same state).
    var hasUnsynchronizedChanges: Bool {
        !pendingNames.isEmpty || files.values.contains { !$0.pending.isEmpty }
    }

    /// A state a power cut right after the last applied call could leave.
    func state(_ kind: Kind, random: inout SplitMix) -> DiskImage {
        var names = durableNames
        var folderTimes = durableFolderTimes
        var forced: [Int: Int] = [:]
        let included: [NameOp]
        switch kind {
        case .allLost: included = []
        case .allKept, .namesKept: included = pendingNames
        case .random:
            switch model {
            case .ext4Ordered:
                included = Array(pendingNames.prefix(Int(random.next() % UInt64(pendingNames.count + 1))))
            case .strictPOSIX:
                included = pendingNames.filter { _ in random.next() & 1 == 0 }
            }
        }
        for op in included {
            Self.applyName(op, to: &names, times: &folderTimes)
            if let carries = op.carries {
                forced[carries.file] = max(forced[carries.file] ?? -1, carries.sequence)
            }
        }
        var image = DiskImage()
        var contents: [Int: DiskImage.File] = [:]
        func visit(_ folder: String) {
            // In name order, so that a seed builds the same state in every run.
            for (name, node) in (names[folder] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let path = folder.isEmpty ? name : folder + "/" + name
                switch node {
                case .folder:
                    image.folders[path] = folderTimes[path] ?? 0
                    visit(path)
                case .file(let file):
                    if contents[file] == nil {
                        contents[file] = content(
                            of: file, kind, forcedThrough: forced[file] ?? -1, random: &random)
                    }
                    image.files[path] = contents[file]
                }
            }
        }
        visit("")
        return image
    }

    private func content(of file: Int, _ kind: Kind, forcedThrough sequence: Int, random: inout SplitMix)
        -> DiskImage.File
    {
        let state = files[file] ?? FileState()
        let ops = state.pending
        let forcedCount = ops.prefix { $0.sequence <= sequence }.count
        func time(afterApplying count: Int) -> Int { count > 0 ? ops[count - 1].time : state.durableTime }
        switch kind {
        case .allLost, .namesKept:
            return DiskImage.File(
                bytes: Self.applying(ops[..<forcedCount], to: state.durable),
                time: time(afterApplying: forcedCount))
        case .allKept:
            return DiskImage.File(
                bytes: Self.applying(ops[...], to: state.durable), time: time(afterApplying: ops.count))
        case .random:
            guard ops.count > forcedCount else {
                return DiskImage.File(
                    bytes: Self.applying(ops[..<forcedCount], to: state.durable),
                    time: time(afterApplying: forcedCount))
            }
            return randomContent(state, forcedCount: forcedCount, random: &random, time: time)
        }
    }

    /// Page by page, the content after a random prefix of the pending changes; some pages torn
    /// at a sector between two such prefixes; the size after yet another prefix.
    private func randomContent(
        _ state: FileState, forcedCount: Int, random: inout SplitMix, time: (Int) -> Int
    ) -> DiskImage.File {
        let ops = state.pending
        let base = Self.applying(ops[..<forcedCount], to: state.durable)
        var lengths = [base.count]
        for change in ops[forcedCount...] {
            var length = lengths.last!
            switch change.op {
            case .write(let offset, let bytes): length = max(length, offset + bytes.count)
            case .truncate(let newLength): length = newLength
            }
            lengths.append(length)
        }
        func pick() -> Int { forcedCount + Int(random.next() % UInt64(ops.count - forcedCount + 1)) }
        let style = random.next() % 5
        let sizeChoice = style == 3 ? ops.count : style == 4 ? forcedCount : pick()
        let size = lengths[sizeChoice - forcedCount]
        let page = FileSystemModel.pageSize
        let pageCount = (size + page - 1) / page
        // For each page, the pending changes that touch it, in order.
        var touching = [[Int]](repeating: [], count: pageCount)
        for index in forcedCount..<ops.count {
            let range: Range<Int>
            switch ops[index].op {
            case .write(let offset, let bytes): range = offset..<(offset + bytes.count)
            case .truncate(let length): range = length..<max(length, size)
            }
            guard !range.isEmpty, range.lowerBound < size else { continue }
            for pageNumber in (range.lowerBound / page)...((min(range.upperBound, size) - 1) / page) {
                touching[pageNumber].append(index)
            }
        }
        // Five ways pages reach the disk: each on its own, in file order up to a point (as
        // writeback of an append mostly goes), few of them, all, or none. The last two, file by
        // file, find a write order that is wrong between two files.
        let cut = style == 3 ? pageCount : style == 4 ? 0 : Int(random.next() % UInt64(pageCount + 1))
        var bytes = [UInt8](repeating: 0, count: size)
        var latest = sizeChoice
        for pageNumber in 0..<pageCount {
            let range = (pageNumber * page)..<min((pageNumber + 1) * page, size)
            let version: Int
            switch style {
            case 0: version = pick()
            case 1, 3, 4: version = pageNumber < cut ? ops.count : forcedCount
            default: version = random.next() % 8 == 0 ? pick() : forcedCount
            }
            latest = max(latest, version)
            var content = pageContent(
                range, base: base, ops: ops, through: version, touching: touching[pageNumber])
            if version > forcedCount && random.next() % 4 == 0 {
                // A torn page: some sectors from this version, the rest from an earlier one.
                let older = forcedCount + Int(random.next() % UInt64(version - forcedCount))
                let other = pageContent(
                    range, base: base, ops: ops, through: older, touching: touching[pageNumber])
                let boundary = (1 + Int(random.next() % 7)) * FileSystemModel.sectorSize
                let newerFirst = random.next() & 1 == 0
                for position in 0..<content.count where (position < boundary) != newerFirst {
                    content[position] = other[position]
                }
            }
            bytes.replaceSubrange(range, with: content)
        }
        return DiskImage.File(bytes: bytes, time: time(latest))
    }

    /// The bytes `range` of the file after the first `count` pending changes.
    private func pageContent(
        _ range: Range<Int>, base: [UInt8], ops: [PendingData], through count: Int, touching: [Int]
    ) -> [UInt8] {
        var content = [UInt8](repeating: 0, count: range.count)
        if base.count > range.lowerBound {
            let end = min(base.count, range.upperBound)
            content.replaceSubrange(0..<(end - range.lowerBound), with: base[range.lowerBound..<end])
        }
        for index in touching where index < count {
            switch ops[index].op {
            case .write(let offset, let written):
                let start = max(offset, range.lowerBound)
                let end = min(offset + written.count, range.upperBound)
                guard start < end else { continue }
                content.replaceSubrange(
                    (start - range.lowerBound)..<(end - range.lowerBound),
                    with: written[(start - offset)..<(end - offset)])
            case .truncate(let length):
                let start = max(length, range.lowerBound)
                guard start < range.upperBound else { continue }
                for position in (start - range.lowerBound)..<range.count { content[position] = 0 }
            }
        }
        return content
    }
}

/// A small deterministic generator (SplitMix64), so every state can be rebuilt from its seed.
struct SplitMix: Sendable {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
