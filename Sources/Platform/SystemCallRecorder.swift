// A test hook, compiled only into builds with IMAGECACHE_TEST_HOOKS (debug builds of this
// package): the release build and vendored copies carry none of it.
#if IMAGECACHE_TEST_HOOKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Records every system call that changes a file or a folder under one root folder, with
    /// the bytes written, so a test can rebuild each state a power cut could leave on the disk
    /// (`Tests/PowerLossTests`).
    ///
    /// Every such call of the package goes through ``FileSystem`` or ``Directory``, which report
    /// it here when a recorder is active. Calls on paths outside the root are not recorded, so
    /// tests that run at the same time in other folders do not disturb a recording. Files are
    /// named by a number given when the recording first sees them (the file's identity, not its
    /// name: a file keeps its number across renames and links).
    public final class SystemCallRecorder: @unchecked Sendable {
        /// One recorded call; paths are relative to the root ("" is the root itself).
        public enum Call: Sendable, Equatable {
            /// A new file now has the name `path` (`open` with `O_CREAT` that created it).
            case createFile(path: String, file: Int)
            /// An existing file got the additional name `path` (`link`).
            case link(path: String, file: Int)
            /// `mkdir`.
            case makeDirectory(path: String)
            /// `rename`, replacing whatever `to` named.
            case rename(from: String, to: String)
            /// `unlink` of a name that existed.
            case remove(path: String)
            /// `pwrite` (or `copy_file_range`, recorded with the bytes it copied).
            case write(file: Int, offset: UInt64, bytes: [UInt8])
            /// `ftruncate`, or `open` with `O_TRUNC` of an existing file.
            case truncate(file: Int, length: UInt64)
            /// `fsync` or `fdatasync` of a file: both make its data and its size durable.
            case synchronizeFile(file: Int)
            /// `fsync` of a folder: makes the names created, renamed and removed in it durable.
            case synchronizeDirectory(path: String)
            /// A failed `fsync` or `fdatasync` of a file. Linux marks the pages that failed to
            /// reach the disk clean and reports the error once, so a later fsync succeeds without
            /// writing them: the file's writes since its last fsync may never reach the disk.
            case failedSynchronizeFile(file: Int)
        }

        /// A file or folder that existed under the root when the recording started.
        public struct InitialItem: Sendable, Equatable {
            public var path: String
            /// Nil for a folder.
            public var file: Int?
            public var bytes: [UInt8]
        }

        /// The root folder, as an absolute path without a trailing slash.
        public let root: String
        /// What the root held when the recording started, parents before children.
        public let initialItems: [InitialItem]

        private let lock = MutualExclusion()
        private var recorded: [Call] = []
        private var fileNumbers: [FileSystem.Identity: Int] = [:]
        private var nextFileNumber = 0
        /// Open descriptors under the root: a file's number, or a folder's relative path.
        private var descriptors: [Int32: Descriptor] = [:]

        private enum Descriptor {
            case file(Int)
            case directory(String)
        }

        private static let activeLock = MutualExclusion()
        /// The recordings under way, each under its own root (tests run side by side).
        nonisolated(unsafe) private static var activeRecorders: [SystemCallRecorder] = []

        /// Starts recording the calls under `root` (an existing folder that no other recording
        /// under way contains). Descriptors opened before this call are not tracked: start
        /// before the code under test opens anything.
        public static func start(root: String) -> SystemCallRecorder {
            let recorder = SystemCallRecorder(root: root)
            activeLock.withLock { activeRecorders.append(recorder) }
            return recorder
        }

        /// Stops recording (the calls recorded so far stay readable).
        public func stop() {
            Self.activeLock.withLock { Self.activeRecorders.removeAll { $0 === self } }
        }

        /// Every call recorded so far, in order.
        public var calls: [Call] { lock.withLock { recorded } }

        /// The number of calls recorded so far: a position in ``calls`` for a test's own marks.
        public var callCount: Int { lock.withLock { recorded.count } }

        private init(root: String) {
            var resolved = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let found = resolved.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { realpath(root, $0.baseAddress) != nil }
            }
            let canonical = found ? String(decoding: resolved.prefix { $0 != 0 }, as: UTF8.self) : root
            self.root =
                canonical.count > 1 && canonical.hasSuffix("/") ? String(canonical.dropLast()) : canonical
            var items: [InitialItem] = []
            var numbers: [FileSystem.Identity: Int] = [:]
            Self.walk(self.root, relative: "", into: &items, numbers: &numbers)
            initialItems = items
            fileNumbers = numbers
            nextFileNumber = numbers.count
        }

        private static func walk(
            _ path: String, relative: String, into items: inout [InitialItem],
            numbers: inout [FileSystem.Identity: Int]
        ) {
            guard let folder = try? Directory(path: path, followingLink: true),
                let entries = try? folder.entries()
            else { return }
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                let child = path + "/" + entry.name
                let childRelative = relative.isEmpty ? entry.name : relative + "/" + entry.name
                switch entry.kind {
                case .directory:
                    items.append(InitialItem(path: childRelative, file: nil, bytes: []))
                    walk(child, relative: childRelative, into: &items, numbers: &numbers)
                case .regular:
                    guard let status = try? FileSystem.status(ofPath: child),
                        let bytes = try? FileSystem.readFile(atPath: child)
                    else { continue }
                    let number = numbers[status.identity] ?? numbers.count
                    numbers[status.identity] = number
                    items.append(InitialItem(path: childRelative, file: number, bytes: bytes))
                default:
                    continue
                }
            }
        }

        // MARK: Hooks, called by FileSystem and Directory

        /// The recording whose root holds `path`, if any.
        private static func recorder(for path: String) -> SystemCallRecorder? {
            activeLock.withLock {
                activeRecorders.isEmpty ? nil : activeRecorders.first { $0.relative(path) != nil }
            }
        }

        /// The recording that tracks the descriptor `fd`, if any.
        private static func recorder(tracking fd: Int32) -> SystemCallRecorder? {
            activeLock.withLock {
                activeRecorders.isEmpty
                    ? nil
                    : activeRecorders.first { recorder in
                        recorder.lock.withLock { recorder.descriptors[fd] != nil }
                    }
            }
        }

        /// The path relative to the root, or nil outside it.
        private func relative(_ path: String) -> String? {
            if path == root { return "" }
            guard path.hasPrefix(root + "/") else { return nil }
            return String(path.dropFirst(root.count + 1))
        }

        private func append(_ call: Call) { recorded.append(call) }

        /// Before an open: whether the path exists, for a creating open.
        static func willOpen(_ path: String, flags: Int32) -> Bool? {
            guard flags & O_CREAT != 0, recorder(for: path) != nil else { return nil }
            return FileSystem.exists(path)
        }

        static func didOpen(_ fd: Int32, path: String, flags: Int32, existedBefore: Bool?) {
            // A descriptor number is reused once closed: no other recording may keep it.
            didClose(fd)
            guard let recorder = recorder(for: path), let relative = recorder.relative(path),
                let status = try? FileSystem.status(fd, path: path)
            else { return }
            recorder.lock.withLock {
                if status.kind == .directory {
                    recorder.descriptors[fd] = .directory(relative)
                    return
                }
                guard status.kind == .regular else { return }
                let created = existedBefore == false
                let number: Int
                if let known = recorder.fileNumbers[status.identity], !created {
                    number = known
                } else {
                    number = recorder.nextFileNumber
                    recorder.nextFileNumber += 1
                    recorder.fileNumbers[status.identity] = number
                }
                recorder.descriptors[fd] = .file(number)
                if created {
                    recorder.append(.createFile(path: relative, file: number))
                } else if flags & O_TRUNC != 0, flags & (O_WRONLY | O_RDWR) != 0 {
                    recorder.append(.truncate(file: number, length: 0))
                }
            }
        }

        /// After a `dup`: the copy names what the original names.
        static func didDuplicate(_ fd: Int32, as copy: Int32) {
            didClose(copy)
            guard let recorder = recorder(tracking: fd) else { return }
            recorder.lock.withLock { recorder.descriptors[copy] = recorder.descriptors[fd] }
        }

        static func didClose(_ fd: Int32) {
            while let recorder = recorder(tracking: fd) {
                recorder.lock.withLock { _ = recorder.descriptors.removeValue(forKey: fd) }
            }
        }

        private func file(_ fd: Int32) -> Int? {
            if case .file(let number)? = descriptors[fd] { return number }
            return nil
        }

        static func didWrite(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
            guard let recorder = recorder(tracking: fd) else { return }
            recorder.lock.withLock {
                guard let number = recorder.file(fd) else { return }
                recorder.append(.write(file: number, offset: offset, bytes: Array(bytes)))
            }
        }

        /// After `copy_file_range`: records the bytes now at the destination as a write.
        static func didCopy(to fd: Int32, at offset: UInt64, count: UInt64) {
            guard let recorder = recorder(tracking: fd), recorder.lock.withLock({ recorder.file(fd) }) != nil
            else {
                return
            }
            var bytes = [UInt8](repeating: 0, count: Int(count))
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(count), off_t(offset)) }
            guard got >= 0 else { return }
            bytes.withUnsafeBytes {
                didWrite(fd, UnsafeRawBufferPointer(rebasing: $0[..<got]), at: offset)
            }
        }

        static func didTruncate(_ fd: Int32, to length: UInt64) {
            guard let recorder = recorder(tracking: fd) else { return }
            recorder.lock.withLock {
                guard let number = recorder.file(fd) else { return }
                recorder.append(.truncate(file: number, length: length))
            }
        }

        static func didSynchronize(_ fd: Int32) {
            guard let recorder = recorder(tracking: fd) else { return }
            recorder.lock.withLock {
                switch recorder.descriptors[fd] {
                case .file(let number)?: recorder.append(.synchronizeFile(file: number))
                case .directory(let path)?: recorder.append(.synchronizeDirectory(path: path))
                case nil: break
                }
            }
        }

        static func didFailToSynchronize(_ fd: Int32) {
            guard let recorder = recorder(tracking: fd) else { return }
            recorder.lock.withLock {
                // A folder's failed fsync leaves its name changes pending, as before the call.
                if case .file(let number)? = recorder.descriptors[fd] {
                    recorder.append(.failedSynchronizeFile(file: number))
                }
            }
        }

        static func didRename(_ source: String, to destination: String) {
            guard let recorder = recorder(for: destination), let from = recorder.relative(source),
                let to = recorder.relative(destination)
            else { return }
            recorder.lock.withLock { recorder.append(.rename(from: from, to: to)) }
        }

        static func didRemove(_ path: String) {
            guard let recorder = recorder(for: path), let relative = recorder.relative(path) else { return }
            recorder.lock.withLock { recorder.append(.remove(path: relative)) }
        }

        static func didLink(_ source: String, to destination: String) {
            guard let recorder = recorder(for: destination), let relative = recorder.relative(destination),
                let identity = FileSystem.identity(ofPath: source)
            else { return }
            recorder.lock.withLock {
                guard let number = recorder.fileNumbers[identity] else { return }
                recorder.append(.link(path: relative, file: number))
            }
        }

        static func didMakeDirectory(_ path: String) {
            guard let recorder = recorder(for: path), let relative = recorder.relative(path) else { return }
            recorder.lock.withLock { recorder.append(.makeDirectory(path: relative)) }
        }
    }
#endif
