import Foundation

/// The cases an implementation is known to fail (Spec/conformance.md §6.2).
///
/// One case name per line; `#` starts a comment. A name without `@backend` covers the
/// scenario on every backend. The runner reports an entry whose case now passes, and an entry
/// that names no case, as failures: the list cannot go stale.
struct ExpectedFailures: Sendable {
    var entries: [String] = []

    init() {}

    init(contentsOf path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(whereSeparator: \.isNewline) {
            let entry = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            if !entry.isEmpty { entries.append(entry) }
        }
    }

    /// The entry that covers `name`, if any.
    func entry(covering name: String) -> String? {
        entries.first { $0 == name || $0 == Self.baseName(name) }
    }

    /// Entries that name no case in `names`, on any backend.
    func unknownEntries(among names: [String]) -> [String] {
        let known = Set(names.map(Self.baseName))
        return entries.filter { !known.contains(Self.baseName($0)) }
    }

    /// A case name without its `@backend` suffix.
    static func baseName(_ name: String) -> String {
        name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? name
    }
}
