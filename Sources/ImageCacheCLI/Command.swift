/// One `imagecache` command, declared once: the parser, `COMMAND --help` and `imagecache help`
/// are all generated from this declaration, so the help cannot drift from what is accepted.
///
/// A command either runs with parsed arguments, or is a group (`png`) whose subcommands are
/// commands in their own right (`png decode`). Every command is listed: the tool has no hidden
/// ones (the crash tests' children and the bench's probe are executables of their own).
struct Command: Sendable {
    enum Action: Sendable {
        /// Runs with the options and operands the parser accepted; returns normally on success
        /// and throws ``CommandLineError`` (or a library error) on failure.
        case parsed(@Sendable (ParsedArguments) throws -> Void)
        /// A group: the next word names one of these subcommands.
        case group([Command])
    }

    /// The word typed after `imagecache` (or after the group's name), for example `get`.
    var name: String
    /// One line for the command list: what it does.
    var summary: String
    var options: [OptionSpec] = []
    var operands: [OperandSpec] = []
    /// Further paragraphs for `COMMAND --help` (output format, what `-` means, …); a note that
    /// starts with two spaces is a preformatted line, such as a table row.
    var notes: [String] = []
    var action: Action

    /// The subcommands of a group, or none.
    var subcommands: [Command] {
        if case .group(let commands) = action { return commands }
        return []
    }
}

/// A failure the user can act on: printed as one line on standard error, exit status `status`.
struct CommandLineError: Error, CustomStringConvertible {
    var description: String
    var status: ExitStatus

    init(_ description: String, status: ExitStatus) {
        self.description = description
        self.status = status
    }

    /// A usage error (exit 2): the words on the command line cannot work.
    static func usage(_ text: String) -> CommandLineError {
        CommandLineError(text, status: .usage)
    }

    /// A key that is absent or expired (exit 1).
    static func notFound(_ key: String) -> CommandLineError {
        CommandLineError(
            "no entry for key '\(KeyEscaping.escaped(key))' (absent or expired)", status: .notFound)
    }
}
