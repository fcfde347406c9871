#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error number (`errno`) a system call set, named, so that no module above Platform needs
/// the C library to tell one from another (in the manner of swift-system's `Errno`).
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number, as the platform defines it (numbers differ between Linux and Darwin).
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// ENOENT: no file or folder of that name.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// EEXIST: the name is taken.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// ENOTDIR: a path component, or the folder named, is not a folder.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// EISDIR: a folder where a file was expected.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// ELOOP: a symbolic link where `noFollow` refused one.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// ENOSPC: the file system is full.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// EFBIG: the file would pass the process's file-size limit.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// EIO: the device failed.
    public static let ioError = Errno(rawValue: EIO)
    /// EACCES: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// EROFS: a read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// EWOULDBLOCK: a lock held by someone else, asked for without waiting.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// EINVAL: an argument the call does not accept.
    public static let invalidArgument = Errno(rawValue: EINVAL)

    /// The system's text (`strerror`), such as "No space left on device".
    public var description: String {
        guard let text = strerror(rawValue) else { return "unknown error" }
        return String(cString: text)
    }

    /// The current thread's `errno`.
    static var current: Errno { Errno(rawValue: errno) }
}
