/// A test hook at the one place where the package calls the operating system: makes chosen
/// system calls fail with a chosen errno, as a full disk or a failing device would.
///
/// Off unless a test arms it; the check on each call is one uncontended lock. Tests reach it
/// with `@testable import Platform`.
enum FaultInjection {
    /// The kinds of call a fault can target.
    enum Operation: Hashable, Sendable, CaseIterable {
        /// `pwrite`, `write`: data going to a file.
        case write
        /// `fsync`, `fdatasync`.
        case synchronize
        /// `open` with `O_CREAT`, `mkdir`, `link`.
        case create
        /// `rename`.
        case rename
        /// `unlink`.
        case remove
        /// `ftruncate`.
        case truncate
    }

    /// What to fail: the `countdown`-th matching call from now (1 = the next one) fails with
    /// `code`; with `persistent`, every matching call after it fails too, as a disk stays full.
    struct Rule: Sendable {
        var operations: Set<Operation>
        var countdown: Int
        var code: Int32
        var persistent: Bool
        /// Only calls whose path contains this text count (nil: every path).
        var pathContaining: String?
    }

    private static let lock = MutualExclusion()
    nonisolated(unsafe) private static var rule: Rule?
    nonisolated(unsafe) private static var injected = 0

    /// Arms a fault; replaces any armed before.
    static func arm(_ rule: Rule) {
        lock.withLock {
            self.rule = rule
            injected = 0
        }
    }

    /// Disarms; returns how many calls failed because of the fault.
    @discardableResult
    static func disarm() -> Int {
        lock.withLock {
            rule = nil
            return injected
        }
    }

    /// The errno a call of `operation` on `path` must fail with, or nil to run it.
    static func failure(for operation: Operation, path: String) -> Int32? {
        lock.withLock { () -> Int32? in
            guard var current = rule, current.operations.contains(operation) else { return nil }
            if let text = current.pathContaining, !path.contains(text) { return nil }
            if current.countdown > 1 {
                current.countdown -= 1
                rule = current
                return nil
            }
            if !current.persistent { rule = nil }
            injected += 1
            return current.code
        }
    }
}
