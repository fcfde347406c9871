import Foundation

/// Marks a writable cache's folder as excluded from backups, where the platform has such a
/// flag (`Spec/cache.md` §5.1).
///
/// A cache holds data that can be fetched again, so it has no place in a backup; a folder under
/// `Library/Caches` is left out anyway, but one in an app-group container or the user's
/// documents is not. Apple platforms have `URLResourceValues.isExcludedFromBackup`, which
/// device backups (iCloud, or a computer) and Time Machine honour; marking the folder covers
/// everything in it. It is set on every writable open (it is one attribute write), so a folder copied or
/// restored without it gets it back.
///
/// Linux has no such flag: Foundation there accepts `isExcludedFromBackup` and drops it, and no
/// backup tool reads it, so nothing is done. (The default folder, under `$XDG_CACHE_HOME`, is
/// one backup tools commonly leave out.)
enum BackupExclusion {
    /// What marking a folder did.
    enum Outcome: Equatable, Sendable {
        /// The folder now carries the platform's exclusion flag.
        case excluded
        /// The platform has no such flag; nothing was done.
        case unavailable
        /// The platform refused (for example a file system without extended attributes); the
        /// cache works as usual, only backups may include it.
        case failed(reason: String)
    }

    /// Marks the folder at `path`. Best effort: a failure leaves the folder as it was and is
    /// not an error of the open, since the cache works the same either way.
    @discardableResult
    static func exclude(folderAt path: String) -> Outcome {
        #if canImport(Darwin)
            var url = URL(fileURLWithPath: path, isDirectory: true)
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            do {
                try url.setResourceValues(values)
                return .excluded
            } catch {
                return .failed(reason: "\(error)")
            }
        #else
            return .unavailable
        #endif
    }
}
