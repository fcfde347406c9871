/// A test hook: reports a failed writeback the way Linux does (its `errseq_t`), so that a fault
/// which fails one fsync is seen where the kernel would show it.
///
/// Linux reports a failed writeback at the next fsync of every open file description that was
/// open on the file when it failed, once each; a description opened after the error was
/// reported is not told (`Spec/backends.md` §8.10). An fsync that ``FaultInjection`` fails
/// stands for such a writeback: the failing descriptor reports it there, and every other
/// descriptor of the same file opened through ``FileSystem`` in this process reports it at its
/// next fsync. Duplicates share a description, so one report serves them all.
#if IMAGECACHE_TEST_HOOKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    enum WritebackErrorReports {
        private static let lock = MutualExclusion()
        /// Open descriptors, by the number of the open file description each refers to.
        nonisolated(unsafe) private static var descriptions: [Int32: Int] = [:]
        nonisolated(unsafe) private static var nextDescription = 0
        /// Descriptions with a failed writeback still to report.
        nonisolated(unsafe) private static var unreported: Set<Int> = []

        static func didOpen(_ fd: Int32) {
            lock.withLock {
                nextDescription += 1
                descriptions[fd] = nextDescription
            }
        }

        static func didDuplicate(_ fd: Int32, as copy: Int32) {
            lock.withLock {
                if let description = descriptions[fd] {
                    descriptions[copy] = description
                } else {
                    descriptions.removeValue(forKey: copy)
                }
            }
        }

        static func didClose(_ fd: Int32) {
            lock.withLock {
                guard let description = descriptions.removeValue(forKey: fd) else { return }
                if !descriptions.values.contains(description) { unreported.remove(description) }
            }
        }

        /// An fsync of `fd` failed by a fault: every other description then open on its file
        /// has the error to report. (Not for a folder: its fsync commits names to a journal,
        /// which stay pending after a failure, as the power-loss recorder models.)
        static func didFail(_ fd: Int32) {
            lock.withLock {
                guard let file = regularFileIdentity(of: fd) else { return }
                let failing = descriptions[fd]
                for (other, description) in descriptions where description != failing {
                    if regularFileIdentity(of: other) == file { unreported.insert(description) }
                }
            }
        }

        /// EIO when `fd`'s description has a failed writeback still to report (it is reported
        /// now, so not again), else nil.
        static func takeReport(_ fd: Int32) -> Int32? {
            lock.withLock {
                guard let description = descriptions[fd], unreported.remove(description) != nil else {
                    return nil
                }
                return EIO
            }
        }

        private static func regularFileIdentity(of fd: Int32) -> FileSystem.Identity? {
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return FileSystem.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }
#endif
