import Foundation

/// One case: a short script of requests, each with the response it must produce
/// (Spec/conformance.md §3).
struct ConformanceCase: Sendable {
    struct Step: Sendable {
        var request: JSONValue
        var expect: JSONValue
    }

    /// `area/name`, plus `@backend` for cache scenarios, which run once per backend.
    var name: String
    var area: String
    var backend: String?
    /// What the case checks and why (optional); shown when the case fails and by `--show`.
    var note: String?
    /// The `hello` features the case needs (`requires`, Spec/conformance.md §3), such as
    /// `sharing`; without them it is skipped, not passed.
    var requires: [String] = []
    var steps: [Step]
}

/// Why a case file could not be used; the run stops, since a broken suite proves nothing.
struct CaseFileError: Error, CustomStringConvertible {
    var description: String
}

enum CaseLoader {
    /// The areas, in the order the runner runs them.
    static let areas = ["png", "store", "cache"]

    /// Every `*.json` case file under `directory/<area>/`, sorted by path so runs are repeatable.
    ///
    /// Cache cases are expanded once per backend in `backends`; every `cache.open`,
    /// `cache.reopen` and `cache.join` request of the copy for backend B gets `"backend": B`.
    static func load(from directory: URL, backends: [String]) throws -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        var seen: Set<String> = []
        for area in areas {
            let folder = directory.appendingPathComponent(area)
            guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { continue }
            let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
            for file in files {
                let url = folder.appendingPathComponent(file)
                for (item, only) in try parse(url, area: area) {
                    let chosen = backends.filter { only?.contains($0) ?? true }
                    let expanded = area == "cache" ? chosen.map { expand(item, backend: $0) } : [item]
                    for entry in expanded {
                        guard seen.insert(entry.name).inserted else {
                            throw CaseFileError(
                                description: "\(url.path): case name \(entry.name) is used twice")
                        }
                        cases.append(entry)
                    }
                }
            }
        }
        return cases
    }

    /// The cases of one file, each with the backends it is limited to (`backends`, §3), if any.
    private static func parse(_ url: URL, area: String) throws -> [(ConformanceCase, [String]?)] {
        let document: JSONValue
        do {
            document = try JSONValue.parse(try Data(contentsOf: url))
        } catch {
            throw CaseFileError(description: "\(url.path): not a readable JSON case file (\(error))")
        }
        guard let items = document["cases"]?.arrayValue else {
            throw CaseFileError(description: "\(url.path): has no \"cases\" array")
        }
        return try items.enumerated().map { index, item in
            guard let name = item["name"]?.stringValue, let steps = item["steps"]?.arrayValue, !steps.isEmpty
            else {
                throw CaseFileError(
                    description: "\(url.path): case \(index) needs a \"name\" and a non-empty \"steps\" array"
                )
            }
            let parsed = try steps.enumerated().map { number, step in
                guard let request = step["request"], request["op"]?.stringValue != nil,
                    let expect = step["expect"]
                else {
                    throw CaseFileError(
                        description:
                            "\(url.path): \(name) step \(number) needs a request with an \"op\" and an \"expect\""
                    )
                }
                return ConformanceCase.Step(request: request, expect: expect)
            }
            if let note = item["note"], note.stringValue == nil {
                throw CaseFileError(description: "\(url.path): \(name) has a \"note\" that is not a string")
            }
            let only = item["backends"]?.arrayValue?.compactMap(\.stringValue)
            let requires = item["requires"]?.arrayValue?.compactMap(\.stringValue) ?? []
            // Sessions are other processes (§5.8): a driver without them must skip the case,
            // so a case cannot use them without saying so.
            if !requires.contains("sharing"), parsed.contains(where: { Self.usesSessions($0.request) }) {
                throw CaseFileError(
                    description:
                        "\(url.path): \(name) uses sessions but does not list \"sharing\" in \"requires\"")
            }
            return (
                ConformanceCase(
                    name: "\(area)/\(name)", area: area, backend: nil, note: item["note"]?.stringValue,
                    requires: requires, steps: parsed),
                only
            )
        }
    }

    /// Whether a request joins or names a session other than `A` (Spec/conformance.md §5.8).
    static func usesSessions(_ request: JSONValue) -> Bool {
        request["op"]?.stringValue == "cache.join" || (request["session"]?.stringValue ?? "A") != "A"
    }

    private static func expand(_ item: ConformanceCase, backend: String) -> ConformanceCase {
        var copy = item
        copy.name += "@" + backend
        copy.backend = backend
        copy.steps = item.steps.map { step in
            let request = choose(step.request, backend: backend)
            let expect = choose(step.expect, backend: backend)
            guard case .object(var fields) = request,
                let op = fields["op"]?.stringValue, ["cache.open", "cache.reopen", "cache.join"].contains(op)
            else { return ConformanceCase.Step(request: request, expect: expect) }
            fields["backend"] = .string(backend)
            return ConformanceCase.Step(request: .object(fields), expect: expect)
        }
        return copy
    }

    /// Replaces every `{"$backend": {NAME: X, …}}` in `value` by the X for `backend`, or by
    /// the one named `$other` (Spec/conformance.md §3): what differs per backend is their files.
    static func choose(_ value: JSONValue, backend: String) -> JSONValue {
        switch value {
        case .object(let fields):
            if fields.count == 1, let choices = fields["$backend"]?.objectValue {
                return choose(choices[backend] ?? choices["$other"] ?? .null, backend: backend)
            }
            return .object(fields.mapValues { choose($0, backend: backend) })
        case .array(let items):
            return .array(items.map { choose($0, backend: backend) })
        default:
            return value
        }
    }
}
