import Platform

/// Finds the command, parses its words with its declaration, runs it, and turns every failure
/// into one line on standard error and an exit status (`ExitStatus`).
func run(_ words: [String]) -> ExitStatus {
    guard let first = words.first else {
        StandardError.write(Help.brief(CommandRegistry.all))
        return .usage
    }
    if first == "--help" || first == "-h" { return run(["help"]) }
    var command: Command
    var path = ""
    var rest = Array(words.dropFirst())
    do {
        guard let found = CommandRegistry.all.first(where: { $0.name == first }) else {
            let hint = first.hasPrefix("-") ? " (options come after the command name)" : ""
            throw CommandLineError.usage(
                "unknown command '\(KeyEscaping.escaped(first))'\(hint); run 'imagecache help'")
        }
        command = found
        path = first
        if !command.subcommands.isEmpty {
            guard let next = rest.first else {
                StandardError.write(Help.command(command, path: path))
                return .usage
            }
            guard let subcommand = command.subcommands.first(where: { $0.name == next }) else {
                if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
                    try StandardOutput.write(Help.command(command, path: path))
                    return .success
                }
                throw CommandLineError.usage(
                    "no subcommand '\(KeyEscaping.escaped(next))'; subcommands: "
                        + command.subcommands.map(\.name).joined(separator: ", "))
            }
            command = subcommand
            path += " " + next
            rest.removeFirst()
        }
        switch command.action {
        case .group:
            preconditionFailure("groups are resolved above")
        case .parsed(let body):
            switch try OptionParser.parse(rest, for: command, path: path) {
            case .help:
                try StandardOutput.write(Help.command(command, path: path))
            case .arguments(let arguments):
                try body(arguments)
            }
            return .success
        }
    } catch {
        // Library errors describe themselves in a sentence; keep it on one line.
        let line = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
        StandardError.write("imagecache\(path.isEmpty ? "" : " " + path): \(line)\n")
        return ExitStatus(for: error)
    }
}

SystemProcess.exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
