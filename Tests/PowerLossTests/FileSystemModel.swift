/// What a file system keeps of unsynchronized changes when the power fails: the two models
/// the power-loss simulator rebuilds disk states under (`Spec/backends.md` §8).
///
/// Both lose unsynchronized data page by page (4 KiB), may tear a page at a 512-byte sector,
/// and may leave an extended size filled with zeros. They differ in names (creations,
/// renames, links, removals, new folders):
enum FileSystemModel: String, CaseIterable, Sendable, CustomStringConvertible {
    /// ext4's default, `data=ordered`: name changes reach the disk in the order they were
    /// made (a prefix of them survives), an fsync of any file or folder commits every earlier
    /// one, and a rename that replaces a file carries the renamed file's data with it.
    case ext4Ordered
    /// Strict POSIX: a file's data is durable only after an fsync of that file, a name only
    /// after an fsync of its folder, and the unsynchronized name changes of a folder survive in
    /// any combination. XFS, btrfs and APFS behave closer to this.
    case strictPOSIX

    var description: String { rawValue }

    static let pageSize = 4096
    static let sectorSize = 512
}
