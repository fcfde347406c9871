#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Whether an open file is read, written, or both.
    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// How `open` treats the path (`O_*` flags; close-on-exec is always set).
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `O_CREAT`: create the file when missing.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_CREAT | O_EXCL`: create the file, failing with `fileExists` when it is there.
        public static let exclusiveCreate = OpenOptions(rawValue: O_CREAT | O_EXCL)
        /// `O_TRUNC`: empty an existing file.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_NOFOLLOW`: a symbolic link as the last component fails with
        /// `tooManySymbolicLinks` instead of being followed.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_DIRECTORY`: fail with `notDirectory` unless the path is a folder.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// The permission bits of a new file or folder.
    public struct Permissions: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `rw-r--r--`: what every file of a cache is created with.
        public static let fileDefault = Permissions(rawValue: 0o644)
        /// `rw-rw-rw-`, narrowed by the process's umask: what a command-line tool's output gets.
        public static let userFile = Permissions(rawValue: 0o666)
        /// `rwxr-xr-x`: every folder.
        public static let folderDefault = Permissions(rawValue: 0o755)
        /// `rwxrwxrwx`, narrowed by the process's umask: what a command-line tool's output
        /// folder gets.
        public static let userFolder = Permissions(rawValue: 0o777)
    }
}
