import Foundation

/// Why the driver could not be started. The run stops with exit status 2 and this one-line
/// description (Spec/conformance.md §6.1).
enum DriverLaunchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A path was given (the command contains `/`) and nothing is there, typically an
    /// executable of this package that was not built yet.
    case notFound(path: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The file exists but may not be executed.
    case notExecutable(path: String)
    /// A bare command name that no `PATH` folder holds as an executable file.
    case notOnPath(name: String)
    /// The operating system refused to start an executable that looked runnable.
    case launchFailed(path: String, reason: String)

    var description: String {
        switch self {
        case .notFound(let path):
            return "the driver \(path) does not exist; build it first (swift build) or check the path"
        case .isDirectory(let path):
            return "the driver \(path) is a directory, not a program"
        case .notExecutable(let path):
            return
                "the driver \(path) is not executable; make it executable (chmod +x) or name its interpreter first (-- python3 \(path))"
        case .notOnPath(let name):
            return "the driver command \(name) is not on PATH; give its path instead (for example ./\(name))"
        case .launchFailed(let path, let reason):
            return "cannot start the driver \(path): \(reason)"
        }
    }
}

/// Finds the program the driver command names, before anything is started, so that a
/// missing driver is one clear error rather than a child that exits with status 127.
enum DriverExecutable {
    /// The executable file for `command`.
    ///
    /// A command that contains `/` is a path (relative to `currentDirectory`); any other is
    /// looked up in the folders of `PATH` in order (an empty entry is the current directory;
    /// without `PATH`, `/usr/bin:/bin`), as a shell would.
    ///
    /// - Throws: `DriverLaunchError.notFound`, `.isDirectory` or `.notExecutable` for a path,
    ///   `.notOnPath` for a name.
    static func resolve(
        _ command: String, environment: [String: String], currentDirectory: String
    ) throws(DriverLaunchError) -> URL {
        let files = FileManager.default
        if command.contains("/") {
            let url = URL(fileURLWithPath: command, relativeTo: URL(fileURLWithPath: currentDirectory))
                .standardizedFileURL
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw .notFound(path: command)
            }
            guard !isDirectory.boolValue else { throw .isDirectory(path: command) }
            guard files.isExecutableFile(atPath: url.path) else { throw .notExecutable(path: command) }
            return url
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(
            separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let base = folder.isEmpty ? currentDirectory : String(folder)
            let candidate = URL(fileURLWithPath: base, relativeTo: URL(fileURLWithPath: currentDirectory))
                .appendingPathComponent(command).standardizedFileURL
            var isDirectory: ObjCBool = false
            if files.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                files.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw .notOnPath(name: command)
    }
}
