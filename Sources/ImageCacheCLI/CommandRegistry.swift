/// The list of command groups. Add a group's commands here when its file lands.
enum CommandRegistry {
    static var all: [Command] {
        pngCommands + storeCommands + benchCommands
    }
}
