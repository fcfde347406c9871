import Foundation

/// The steps the runner answers itself (Spec/conformance.md §5.6): it lists and damages the
/// files of the folder the driver reported, so that no driver can hide its files or choose
/// how they are damaged.
///
/// The runner knows nothing of any format: `runner.files` reports names and bytes, which the
/// case compares with the files its generator computed; `runner.damage` changes bytes at the
/// offsets the case names. Every path is relative to the reported folder and may not leave it.
enum FileSteps {
    /// Whether `op` is one of the runner's own steps rather than a request for the driver.
    static func handles(_ op: String) -> Bool { op.hasPrefix("runner.") }

    /// The response to a `runner.*` step, as JSON; failures are `{"error": "runnerStepFailed: …"}`
    /// so that a case can never pass by a step the runner could not carry out.
    static func respond(to request: JSONValue, folder: String?) -> JSONValue {
        do {
            if request["op"]?.stringValue == "runner.wait" { return try wait(request) }
            guard let folder else {
                throw StepFailure(
                    "no folder is known: the driver's cache.open response carried no \"folder\"")
            }
            switch request["op"]?.stringValue {
            case "runner.files": return try listing(of: folder)
            case "runner.damage": return try damage(request, in: folder)
            default: throw StepFailure("unknown runner step \(request["op"]?.summary ?? "none")")
            }
        } catch {
            return .object(["error": .string("runnerStepFailed: \(error)")])
        }
    }

    /// `runner.wait`: lets `milliseconds` (1…1,000) of real time pass, for a rule that lets an
    /// implementation look at most once in a period (a reader beside a lone writer looks at the
    /// file at most once a millisecond, Spec/store.md §12.5).
    static func wait(_ request: JSONValue) throws -> JSONValue {
        guard let milliseconds = request["milliseconds"]?.integerValue, (1...1_000).contains(milliseconds)
        else {
            throw StepFailure("runner.wait needs \"milliseconds\" from 1 to 1000")
        }
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1_000)
        return .object([:])
    }

    struct StepFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - runner.files

    /// `{"names": [...], "files": {path: base64}, "links": {path: target}}`: every item under the
    /// folder, sorted by UTF-8 bytes, folders with a trailing `/`; links are never followed.
    static func listing(of folder: String) throws -> JSONValue {
        var names: [String] = []
        var files: [String: JSONValue] = [:]
        var links: [String: JSONValue] = [:]
        try walk(folder, relative: "", names: &names, files: &files, links: &links)
        names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return .object([
            "names": .array(names.map(JSONValue.string)), "files": .object(files), "links": .object(links),
        ])
    }

    private static func walk(
        _ folder: String, relative: String, names: inout [String], files: inout [String: JSONValue],
        links: inout [String: JSONValue]
    ) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: folder + "/" + relative) {
            let path = relative.isEmpty ? name : relative + "/" + name
            let full = folder + "/" + path
            // attributesOfItem uses lstat: a link is reported as a link.
            let type = try manager.attributesOfItem(atPath: full)[.type] as? FileAttributeType
            switch type {
            case .typeSymbolicLink?:
                names.append(path)
                links[path] = .string(try manager.destinationOfSymbolicLink(atPath: full))
            case .typeDirectory?:
                names.append(path + "/")
                try walk(folder, relative: path, names: &names, files: &files, links: &links)
            case .typeRegular?:
                names.append(path)
                guard let data = manager.contents(atPath: full) else {
                    throw StepFailure("cannot read \(path)")
                }
                files[path] = .string(data.base64EncodedString())
            default:
                names.append(path)
            }
        }
    }

    // MARK: - runner.damage

    /// Changes one item under the folder as a failing disk, a crash or another program would.
    /// The request names `path` and one action: `flip` `[offset, mask]` (XOR one byte; a
    /// negative offset counts from the end), `truncate` N (keep N bytes; negative: drop −N),
    /// `write` B64 (create or replace a file), `append` B64, `remove` true (a file, link or
    /// empty folder), `symlink` TARGET (replace the item by a link to TARGET, taken as is) or
    /// `mkdir` true.
    static func damage(_ request: JSONValue, in folder: String) throws -> JSONValue {
        guard let relative = request["path"]?.stringValue else {
            throw StepFailure("runner.damage needs a \"path\"")
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"),
            !components.contains(where: { $0 == ".." || $0.isEmpty })
        else { throw StepFailure("the path \(relative) must stay inside the folder") }
        let path = folder + "/" + relative
        let manager = FileManager.default
        // No step reaches outside the folder through a link the implementation (or an earlier
        // step) left in the path.
        var prefix = folder
        for component in components.dropLast() {
            prefix += "/" + component
            guard type(of: prefix) == .typeDirectory else {
                throw StepFailure("\(prefix) is not a folder (a link is never followed)")
            }
        }
        if request["write"] != nil, type(of: path) == .typeSymbolicLink {
            try manager.removeItem(atPath: path)
        }
        if let flip = request["flip"]?.arrayValue, flip.count == 2, let offset = flip[0].integerValue,
            let mask = flip[1].integerValue, (1...255).contains(mask)
        {
            var data = try contents(path)
            let position = offset < 0 ? Int64(data.count) + offset : offset
            guard position >= 0, position < data.count else {
                throw StepFailure("offset \(offset) is outside \(relative) (\(data.count) bytes)")
            }
            data[Int(position)] ^= UInt8(mask)
            try data.write(to: URL(fileURLWithPath: path))
        } else if let length = request["truncate"]?.integerValue {
            let data = try contents(path)
            let keep = length < 0 ? Int64(data.count) + length : length
            guard keep >= 0, keep <= data.count else {
                throw StepFailure("cannot truncate \(relative) (\(data.count) bytes) to \(keep)")
            }
            try data.prefix(Int(keep)).write(to: URL(fileURLWithPath: path))
        } else if let text = request["write"]?.stringValue ?? request["append"]?.stringValue {
            guard let bytes = Data(base64Encoded: text) else { throw StepFailure("the data is not base64") }
            var data = request["append"] != nil ? try contents(path) : Data()
            data.append(bytes)
            try data.write(to: URL(fileURLWithPath: path))
        } else if request["remove"] == .bool(true) {
            try manager.removeItem(atPath: path)
        } else if let target = request["symlink"]?.stringValue {
            if (try? manager.attributesOfItem(atPath: path)) != nil { try manager.removeItem(atPath: path) }
            try manager.createSymbolicLink(atPath: path, withDestinationPath: target)
        } else if request["mkdir"] == .bool(true) {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
        } else {
            throw StepFailure(
                "runner.damage needs one of flip, truncate, write, append, remove, symlink, mkdir")
        }
        return .object([:])
    }

    /// The item's type without following a link; nil when there is none.
    private static func type(of path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    private static func contents(_ path: String) throws -> Data {
        guard type(of: path) == .typeRegular else { throw StepFailure("\(path) is not a regular file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StepFailure("cannot read \(path)")
        }
        return data
    }
}
