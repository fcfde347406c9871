/// A test hook at the one place where the package calls the operating system: makes chosen
/// system calls under one folder fail with a chosen errno, as a full disk or a failing device
/// would.
///
/// Each armed fault applies only to paths under its own folder, so tests that run side by side
/// in other folders are never disturbed, and several faults may be armed at once. The check
/// runs only in builds with IMAGECACHE_TEST_HOOKS (`SystemCallHooks`); tests reach it with
/// `@testable import Platform`.
#if IMAGECACHE_TEST_HOOKS
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    enum FaultInjection {
        typealias Operation = SystemCallKind

        /// What to fail: the `countdown`-th matching call from now (1 = the next one) fails with
        /// `code`, and so do the `times` − 1 matching calls after it; with `persistent`, every
        /// matching call from the first fails, as a disk stays full.
        struct Rule: Sendable {
            var operations: Set<Operation>
            var countdown: Int
            var code: Int32
            var persistent: Bool
            /// Only calls on paths under this folder count.
            var folder: String
            /// And, when set, only paths that contain this text too.
            var pathContaining: String?
            /// And, when set, only paths that end with this text (a folder's own fsync).
            var pathEnding: String?
            /// How many calls fail when not `persistent`.
            var times = 1
        }

        /// An armed fault; ``disarm()`` ends it.
        final class Armed: Sendable {
            fileprivate let identifier: Int
            fileprivate init(identifier: Int) { self.identifier = identifier }

            /// Disarms; returns how many calls failed because of the fault. Calling it again
            /// returns the same count.
            @discardableResult
            func disarm() -> Int {
                FaultInjection.lock.withLock {
                    if let armed = FaultInjection.rules.removeValue(forKey: identifier) {
                        FaultInjection.finished[identifier] = armed.injected
                    }
                    return FaultInjection.finished[identifier] ?? 0
                }
            }
        }

        fileprivate struct State {
            var rule: Rule
            var injected = 0
            var exhausted = false
        }

        fileprivate static let lock = MutualExclusion()
        nonisolated(unsafe) fileprivate static var rules: [Int: State] = [:]
        nonisolated(unsafe) fileprivate static var finished: [Int: Int] = [:]
        nonisolated(unsafe) private static var nextIdentifier = 0

        /// Arms a fault beside any others already armed.
        static func arm(_ rule: Rule) -> Armed {
            lock.withLock {
                nextIdentifier += 1
                rules[nextIdentifier] = State(rule: rule)
                return Armed(identifier: nextIdentifier)
            }
        }

        /// Arms EIO for the next `count` fsyncs and fdatasyncs of paths under `folder` that
        /// contain `text` (any, when nil): a failing device (`Spec/backends.md` §8.10).
        static func failSynchronizations(_ count: Int, under folder: String, pathContaining text: String?)
            -> Armed
        {
            arm(
                Rule(
                    operations: [.synchronize], countdown: 1, code: EIO, persistent: false, folder: folder,
                    pathContaining: text, times: count))
        }

        /// Arms EIO for the next `count` fsyncs of the folder under `folder` whose path ends
        /// with `suffix` ("/entries"): a journal commit that fails (`Spec/backends.md` §8.10).
        static func failFolderSynchronizations(_ count: Int, under folder: String, endingWith suffix: String)
            -> Armed
        {
            arm(
                Rule(
                    operations: [.synchronize], countdown: 1, code: EIO, persistent: false, folder: folder,
                    pathEnding: suffix, times: count))
        }

        /// The errno a call of `operation` on `path` must fail with, or nil to run it.
        static func failure(for operation: Operation, path: String) -> Int32? {
            lock.withLock { () -> Int32? in
                for (identifier, var state) in rules where !state.exhausted {
                    let rule = state.rule
                    guard rule.operations.contains(operation),
                        path.hasPrefix(rule.folder + "/") || path == rule.folder
                    else { continue }
                    if let text = rule.pathContaining, !path.contains(text) { continue }
                    if let suffix = rule.pathEnding, !path.hasSuffix(suffix) { continue }
                    if state.rule.countdown > 1 {
                        state.rule.countdown -= 1
                        rules[identifier] = state
                        continue
                    }
                    state.injected += 1
                    if !rule.persistent && state.injected >= rule.times { state.exhausted = true }
                    rules[identifier] = state
                    return rule.code
                }
                return nil
            }
        }
    }
#endif
