/// Every command the tool knows, in the order `imagecache help` lists them. Each group is
/// declared in its own file (`StoreCommands.swift`, `PNGCommands.swift`, `BenchCommands.swift`).
enum CommandRegistry {
    static var all: [Command] {
        StoreCommands.all + [PNGCommands.group, BenchCommands.command, helpCommand]
    }

    static var helpCommand: Command {
        Command(
            name: "help", summary: "show every command with every option, or one command's help",
            operands: [
                OperandSpec(name: "COMMAND", arity: .optional, help: "the command to explain"),
                OperandSpec(name: "SUBCOMMAND", arity: .optional, help: "for png: the subcommand to explain"),
            ],
            action: .parsed(help))
    }

    @Sendable static func help(_ arguments: ParsedArguments) throws {
        guard !arguments.operands.isEmpty else {
            try StandardOutput.write(Help.tool(all))
            return
        }
        let (command, path) = try find(Array(arguments.operands))
        try StandardOutput.write(Help.command(command, path: path))
    }

    /// The command named by `words` (`get`, or `png decode`) and its path for messages.
    static func find(_ words: [String]) throws(CommandLineError) -> (Command, String) {
        guard let command = all.first(where: { $0.name == words[0] }) else {
            throw .usage("unknown command '\(KeyEscaping.escaped(words[0]))'; run 'imagecache help'")
        }
        guard words.count > 1 else { return (command, command.name) }
        guard let subcommand = command.subcommands.first(where: { $0.name == words[1] }) else {
            throw .usage(
                "\(command.name) has no subcommand '\(KeyEscaping.escaped(words[1]))'; run 'imagecache help \(command.name)'"
            )
        }
        return (subcommand, "\(command.name) \(subcommand.name)")
    }
}
