/// The help texts, generated from the command declarations so they cannot drift from what the
/// parser accepts (`Spec/cache.md` §12.2).
enum Help {
    static let width = 100
    static let helpOption = OptionSpec(name: "-h, --help", value: nil, help: "show this help")

    /// `get [OPTIONS] [--] KEY [OUT]`.
    static func synopsis(_ command: Command, path: String) -> String {
        if !command.subcommands.isEmpty { return "\(path) SUBCOMMAND [OPTIONS] [--] [OPERANDS]" }
        var words = [path]
        if !command.options.isEmpty { words.append("[OPTIONS]") }
        if !command.operands.isEmpty { words.append("[--]") }
        words += command.operands.map(\.synopsis)
        return words.joined(separator: " ")
    }

    /// `imagecache help COMMAND` and `COMMAND --help`.
    static func command(_ command: Command, path: String) -> String {
        var text = "usage: imagecache \(synopsis(command, path: path))\n\n\(capitalized(command.summary)).\n"
        if !command.subcommands.isEmpty {
            text += "\nSubcommands:\n"
            text += table(command.subcommands.map { (synopsis($0, path: $0.name), $0.summary) })
            text += "\nRun 'imagecache help \(path) SUBCOMMAND' for a subcommand's operands and options.\n"
            return text
        }
        if !command.operands.isEmpty {
            text += "\nOperands:\n" + table(command.operands.map { ($0.name, $0.help) })
        }
        text += "\nOptions:\n" + table((command.options + [helpOption]).map { ($0.synopsis, $0.help) })
        for note in command.notes {
            // A note indented by two spaces is a preformatted line (a table row), kept as is.
            text += note.hasPrefix("  ") ? note + "\n" : "\n" + wrapped(note, indent: "")
        }
        if command.options.contains(where: { ["DURATION", "SIZE", "TIME"].contains($0.value ?? "") }) {
            text += "\nOption values: run 'imagecache help' for DURATION, SIZE and TIME.\n"
        }
        return text
    }

    /// `imagecache help`: every command with every option, the store, the value syntaxes and
    /// the exit statuses.
    static func tool(_ commands: [Command]) -> String {
        var text = """
            usage: imagecache COMMAND [OPTIONS] [--] [OPERANDS]
                   imagecache help [COMMAND [SUBCOMMAND]]
                   imagecache COMMAND --help

            A persistent image and blob cache, its log store, a PNG codec, and benchmarks.

            Commands:

            """
        var options: [OptionSpec] = []
        for command in commands {
            let members =
                command.subcommands.isEmpty
                ? [(command, command.name)] : command.subcommands.map { ($0, "\(command.name) \($0.name)") }
            for (member, path) in members {
                text += "  \(synopsis(member, path: path))\n" + wrapped(member.summary, indent: "      ")
                if !member.options.isEmpty {
                    text += wrapped(
                        "options: " + member.options.map(\.synopsis).joined(separator: ", "), indent: "      "
                    )
                }
                for option in member.options where !options.contains(where: { $0.name == option.name }) {
                    options.append(option)
                }
            }
        }
        text += "\nOptions:\n" + table(options.map { ($0.synopsis, $0.help) })
        text += "\n"
        text +=
            "Every command takes -h or --help. Options may come before or after operands; -- ends them.\n\n"
        text += "The store (--store PATH):\n"
        text += wrapped(
            "A folder, or a path that does not exist yet, is a cache folder; a regular file is a log store file. "
                + "Every command uses the same default cache folder: $XDG_CACHE_HOME/imagecache when "
                + "XDG_CACHE_HOME is an absolute path, else ~/.cache/imagecache. A cache folder's backend is "
                + "detected from its files (cache.log: log, hybrid.log: hybrid, cache.dictionary: dictionary, "
                + "index or entries/: directory); --backend chooses it for a new folder. Only put creates a store.",
            indent: "  ")
        text += "\nOption values:\n" + ArgumentValues.syntaxHelp.map { "  \($0)\n" }.joined()
        text += "\nOutput:\n"
        text += wrapped(
            "Keys are printed escaped: \\\\, \\t, \\n, \\r, \\xHH for other control bytes and DEL, \\u{HEX} for "
                + "characters beyond ASCII; --json prints them exactly. Errors are one line on standard error.",
            indent: "  ")
        text += "\nExit status:\n"
        text += ExitStatus.allCases.map { "  \($0.rawValue)  \($0.meaning)\n" }.joined()
        return text
    }

    /// `imagecache` alone: the command list, on standard error.
    static func brief(_ commands: [Command]) -> String {
        var text = "usage: imagecache COMMAND [OPTIONS] [--] [OPERANDS]\n\nCommands:\n"
        text += table(commands.map { ($0.name, $0.summary) })
        return text + "\nRun 'imagecache help' for every command's options, or 'imagecache help COMMAND'.\n"
    }

    private static func table(_ rows: [(String, String)], indent: String = "  ") -> String {
        let column = min(34, rows.map(\.0.count).max() ?? 0)
        var text = ""
        for (left, right) in rows {
            let lead = indent + left
            if left.count > column {
                text +=
                    lead + "\n" + wrapped(right, indent: indent + String(repeating: " ", count: column + 2))
            } else {
                let padding = String(repeating: " ", count: column - left.count + 2)
                let body = wrapped(right, indent: indent + String(repeating: " ", count: column + 2))
                text += lead + padding + body.drop { $0 == " " }
            }
        }
        return text
    }

    /// `text` broken into lines of at most ``width`` columns, each starting with `indent`.
    static func wrapped(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
