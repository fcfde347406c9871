import Foundation

/// A top-level `imagecache` command. Each command group lives in its own file and adds its
/// commands to ``CommandRegistry/all``.
struct Command: Sendable {
    /// The word typed after `imagecache`, for example `png` or `put`.
    var name: String
    /// One line for the usage text, for example `png decode IN.png OUT.pam`.
    var usage: [String]
    /// Runs the command with the arguments after its name; returns the exit status.
    var run: @Sendable (_ arguments: [String]) throws -> Int32
}

/// A failure the user can act on: printed as one line on stderr, exit status `status`.
struct CommandLineError: Error, CustomStringConvertible {
    var description: String
    var status: Int32 = 2

    static func usage(_ text: String) -> CommandLineError {
        CommandLineError(description: "usage: imagecache \(text)", status: 2)
    }
}

/// Writes to standard error without buffering, for diagnostics and progress lines.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Writes to standard output through one buffered handle.
enum StandardOutput {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func write(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }
}
