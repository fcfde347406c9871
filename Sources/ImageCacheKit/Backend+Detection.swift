import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Platform
#endif

extension Backend {
    /// The names whose presence in a cache folder marks each backend (`Spec/backends.md` §7).
    public var markerNames: [String] {
        switch self {
        case .dictionary: [DictionaryStorage.fileName]
        case .directory: [DirectoryStorage.indexName, DirectoryStorage.entriesName]
        case .log: [LogStorage.fileName]
        case .hybrid: [HybridStorage.logName]
        }
    }

    /// The backends whose files `directory` holds, in `Backend.allCases` order
    /// (`Spec/backends.md` §7).
    ///
    /// A backend is present when any of its ``markerNames`` exists in the folder (as a file, a
    /// folder or a link). The result is empty for a folder that does not exist or holds none
    /// of them, and has more than one element when several caches share the folder; the
    /// caller then has to choose. Only the marker names are looked up (no listing, nothing is
    /// opened or created), so a folder the caller may search but not read or write works.
    /// - Throws: ``CacheError/ioFailure(operation:path:errno:)`` when a name cannot be looked
    ///   up for a reason other than its absence (for example a folder that may not be
    ///   searched, or a `directory` that is a regular file).
    public static func detect(inDirectory directory: URL) throws(CacheError) -> [Backend] {
        var present: [Backend] = []
        for backend in allCases {
            for name in backend.markerNames {
                let path = directory.appendingPathComponent(name).path
                // Absent, or the folder itself is: both mean "not this one".
                let found: Bool
                do {
                    found = try FileSystem.status(ofPath: path, missingFolderIsAbsence: false) != nil
                } catch {
                    throw .ioFailure(operation: "look up", path: path, errno: error.errno.rawValue)
                }
                if found {
                    present.append(backend)
                    break
                }
            }
        }
        return present
    }
}
