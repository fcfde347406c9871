/// What a synchronization (`fsync`, `fdatasync`) promises when it returns
/// (`Spec/backends.md` §8.8).
///
/// Linux's calls make the data durable, so both modes are the same there. Darwin's `fsync`
/// only hands the data to the drive, which may keep it in a volatile cache and write it in
/// another order, so there the mode chooses the `fcntl` that runs instead.
public enum FlushMode: Sendable, Hashable {
    /// On stable storage when the call returns: `F_FULLFSYNC` on Darwin. A power cut loses
    /// nothing synchronized. The default.
    case durable
    /// Ordered without waiting: `F_BARRIERFSYNC` on Darwin, so everything written before the
    /// call reaches the disk before anything written after it. A power cut may lose the last
    /// synchronizations, whole, but never leaves a later write without an earlier one: the
    /// cache opens, with an earlier state. Much cheaper on Apple's drives.
    case ordered
}
