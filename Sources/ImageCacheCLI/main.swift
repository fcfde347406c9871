import Foundation

/// Every command the tool knows, in the order `imagecache help` lists them.
/// Each group is defined in its own file (`PNGCommands.swift`, `StoreCommands.swift`, …).
let commands: [Command] = CommandRegistry.all

func printUsage(to write: (String) -> Void) {
    write("usage: imagecache <command> [arguments]\n\ncommands:\n")
    for command in commands {
        for line in command.usage { write("  imagecache \(line)\n") }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, name != "help", name != "--help", name != "-h" else {
    printUsage(to: arguments.isEmpty ? StandardError.write : StandardOutput.write)
    exit(arguments.isEmpty ? 2 : 0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    StandardError.write("imagecache: unknown command '\(name)'; run 'imagecache help'\n")
    exit(2)
}
do {
    exit(try command.run(Array(arguments.dropFirst())))
} catch let error as CommandLineError {
    StandardError.write("imagecache: \(error.description)\n")
    exit(error.status)
} catch {
    // Library errors describe themselves in one sentence; keep it on one line.
    let line = String(describing: error).replacingOccurrences(of: "\n", with: " ")
    StandardError.write("imagecache: \(line)\n")
    exit(1)
}
