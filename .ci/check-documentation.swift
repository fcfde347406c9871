// Lists every public symbol of the named modules that has no documentation comment, from the
// symbol graphs `swift build -Xswiftc -emit-symbol-graph` writes, and fails when there is one.
// Run by .ci/docs.sh:
//
//   swift .ci/check-documentation.swift GRAPHS-FOLDER MODULE...
//
// A symbol counts when it is public (or open), is declared in the module's own sources
// (`Sources/<MODULE>/`; a module's graph also holds what it re-exports), and is written in the
// source: members the compiler synthesizes (`!=`, `hashValue`, `init(rawValue:)`) have no
// source to document. It is documented when its comment has a summary line: a first line that
// is not empty and is not a `- Parameter`-style field.
import Foundation

struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Identifier: Decodable { var precise: String }
        struct Kind: Decodable { var displayName: String }
        struct Comment: Decodable {
            struct Line: Decodable { var text: String }
            var lines: [Line]
        }
        struct Location: Decodable {
            struct Position: Decodable { var line: Int }
            var uri: String
            var position: Position
        }
        var identifier: Identifier
        var kind: Kind
        var pathComponents: [String]
        var accessLevel: String
        var docComment: Comment?
        var location: Location?
    }
    var symbols: [Symbol]
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let folder = arguments.first else {
    FileHandle.standardError.write(Data("usage: check-documentation.swift GRAPHS-FOLDER MODULE...\n".utf8))
    exit(2)
}
let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
var undocumented: [(file: String, line: Int, text: String)] = []
for module in arguments.dropFirst() {
    // The module's own graph and its extensions of other modules' types (`Module@Other`).
    let files = names.filter { $0 == "\(module).symbols.json" || $0.hasPrefix("\(module)@") }.sorted()
    guard files.contains("\(module).symbols.json") else {
        print("check-documentation: no symbol graph for \(module) in \(folder)")
        exit(1)
    }
    var checked = 0
    var missing = 0
    for file in files {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
        let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
        for symbol in graph.symbols where ["public", "open"].contains(symbol.accessLevel) {
            guard !symbol.identifier.precise.contains("::SYNTHESIZED::"), let location = symbol.location,
                location.uri.contains("/Sources/\(module)/")
            else { continue }
            checked += 1
            let lines = symbol.docComment?.lines.map { $0.text.trimmingCharacters(in: .whitespaces) } ?? []
            if let summary = lines.first, !summary.isEmpty, !summary.hasPrefix("- ") { continue }
            missing += 1
            let path = location.uri.replacingOccurrences(of: "file://", with: "")
            let relative = path.range(of: "/Sources/").map { "Sources/" + path[$0.upperBound...] } ?? path
            let line = location.position.line + 1
            undocumented.append(
                (
                    relative, line,
                    "\(relative):\(line): \(symbol.kind.displayName.lowercased()) "
                        + "`\(symbol.pathComponents.joined(separator: "."))` has no documentation comment"
                        + (symbol.docComment == nil ? "" : " with a summary line")
                ))
        }
    }
    print("check-documentation: \(module): \(checked) public symbols, \(missing) undocumented")
}
for entry in undocumented.sorted(by: { ($0.file, $0.line, $0.text) < ($1.file, $1.line, $1.text) }) {
    print(entry.text)
}
if !undocumented.isEmpty {
    print("check-documentation: \(undocumented.count) public symbols need a documentation comment")
    exit(1)
}
