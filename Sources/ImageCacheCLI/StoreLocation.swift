import Foundation
import ImageCacheKit
import Platform

/// The store a command works on, from `--store PATH` (`Spec/cache.md` §12.1).
///
/// A folder, or a path that does not exist yet, is a cache folder; a regular file is a bare
/// log store (`Spec/store.md`). Without `--store`, every command uses the same default cache
/// folder. The backend of an existing cache folder is read from its files
/// (``Backend/detect(inDirectory:)``); `--backend` chooses one for a new folder and must
/// match an existing one.
enum StoreLocation {
    /// A bare log store file.
    case logFile(path: String)
    /// A cache folder; `exists` is false when it holds no file of `backend` yet (it may not
    /// exist at all), so it is an empty cache that only `put` creates.
    case cacheFolder(directory: URL, backend: Backend, exists: Bool)

    /// `$XDG_CACHE_HOME/imagecache` when XDG_CACHE_HOME is an absolute path, else
    /// `$HOME/.cache/imagecache`, on every platform.
    static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/imagecache" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/imagecache"
    }

    /// The help text for `--store`.
    static let storeHelp =
        "the store: a cache folder (a folder, or a path that does not exist yet) or a log store "
        + "file (a regular file); default $XDG_CACHE_HOME/imagecache or ~/.cache/imagecache"

    /// Resolves `--store` (nil: the default folder) and `--backend` (nil: not given).
    static func resolve(_ arguments: ParsedArguments) throws(CommandLineError) -> StoreLocation {
        try resolve(store: arguments.value("--store"), backend: arguments.value("--backend"))
    }

    static func resolve(store: String?, backend requested: String?) throws(CommandLineError) -> StoreLocation
    {
        let requestedBackend: Backend?
        if let requested {
            guard let backend = Backend(rawValue: requested) else {
                throw .usage(
                    "--backend takes one of \(Backend.allCases.map(\.rawValue).joined(separator: ", ")); "
                        + "got '\(KeyEscaping.escaped(requested))'")
            }
            requestedBackend = backend
        } else {
            requestedBackend = nil
        }
        if store == "" || store == "-" {
            throw .usage("--store takes a folder or a log store file, not '\(store!)'")
        }
        let path = store ?? defaultFolder()
        // A link is followed: the person chose where their store lives.
        let status: FileSystem.Status?
        do {
            status = try FileSystem.status(followingLinksAt: path, missingFolderIsAbsence: false)
        } catch {
            throw FileAccess.failure("open store", path, error)
        }
        guard let status else {
            return .cacheFolder(
                directory: URL(fileURLWithPath: path, isDirectory: true), backend: requestedBackend ?? .log,
                exists: false)
        }
        switch status.kind {
        case .regular:
            if let requestedBackend {
                throw .usage(
                    "--backend \(requestedBackend) applies to a cache folder, and \(path) is a log store file"
                )
            }
            return .logFile(path: path)
        case .directory:
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            let present: [Backend]
            do {
                present = try Backend.detect(inDirectory: directory)
            } catch {
                throw CommandLineError(String(describing: error), status: .failure)
            }
            return try choose(requestedBackend, among: present, in: directory)
        default:
            throw .usage("--store \(path) is neither a folder nor a regular file")
        }
    }

    private static func choose(_ requested: Backend?, among present: [Backend], in directory: URL)
        throws(CommandLineError) -> StoreLocation
    {
        let holds = present.map(\.rawValue).joined(separator: " and ")
        switch (requested, present.count) {
        case (nil, 0): return .cacheFolder(directory: directory, backend: .log, exists: false)
        case (nil, 1): return .cacheFolder(directory: directory, backend: present[0], exists: true)
        case (nil, _):
            throw .usage(
                "\(directory.path) holds the caches of several backends (\(holds)); choose one with --backend"
            )
        case (let backend?, 0): return .cacheFolder(directory: directory, backend: backend, exists: false)
        case (let backend?, _):
            guard present.contains(backend) else {
                throw .usage(
                    "--backend \(backend) does not match \(directory.path), which holds a \(holds) cache; "
                        + "leave out --backend or name another folder")
            }
            return .cacheFolder(directory: directory, backend: backend, exists: true)
        }
    }

    /// For messages and `stat`: `cache folder /x (log backend)` or `log store file /x`.
    var description: String {
        switch self {
        case .logFile(let path): "log store file \(path)"
        case .cacheFolder(let directory, let backend, _):
            "cache folder \(directory.path) (\(backend) backend)"
        }
    }

    var path: String {
        switch self {
        case .logFile(let path): path
        case .cacheFolder(let directory, _, _): directory.path
        }
    }
}
