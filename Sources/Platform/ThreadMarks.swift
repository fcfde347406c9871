#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Marks the calling thread sets on itself and only it reads: "this thread is inside a section
/// of that store" (a shared store's lock of changes, `Spec/store.md` §12.3), so that the
/// store's own calls made from inside the section skip what the section already did (taking
/// the lock, catching up) without taking a lock to find out.
///
/// A mark is any number that names an object, such as its address
/// (`UInt(bitPattern: ObjectIdentifier(x))`). Each thread keeps its marks in memory of its own
/// (`pthread_key_create`), freed when the thread ends; a thread holds a handful at most.
public enum ThreadMarks {
    /// A thread's marks: a count, then the marks.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { free($0) }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// How many marks a thread's storage holds before it grows.
    private static let initialCapacity = 7

    private static func storage(creating: Bool) -> UnsafeMutablePointer<UInt>? {
        if let existing = pthread_getspecific(key) { return existing.assumingMemoryBound(to: UInt.self) }
        guard creating else { return nil }
        let capacity = initialCapacity
        let raw = malloc(MemoryLayout<UInt>.stride * (capacity + 2))!
        let words = raw.assumingMemoryBound(to: UInt.self)
        words[0] = 0
        words[1] = UInt(capacity)
        pthread_setspecific(key, raw)
        return words
    }

    /// Whether the calling thread holds `mark`.
    @inline(__always)
    public static func contains(_ mark: UInt) -> Bool {
        guard let words = storage(creating: false) else { return false }
        let count = Int(words[0])
        var index = 0
        while index < count {
            if words[index + 2] == mark { return true }
            index += 1
        }
        return false
    }

    /// Gives the calling thread `mark` (once per ``remove(_:)``: marks do not nest).
    public static func insert(_ mark: UInt) {
        var words = storage(creating: true)!
        let count = Int(words[0])
        if count == Int(words[1]) {
            let capacity = count * 2
            let raw = realloc(UnsafeMutableRawPointer(words), MemoryLayout<UInt>.stride * (capacity + 2))!
            words = raw.assumingMemoryBound(to: UInt.self)
            words[1] = UInt(capacity)
            pthread_setspecific(key, raw)
        }
        words[count + 2] = mark
        words[0] = UInt(count + 1)
    }

    /// Takes `mark` from the calling thread.
    public static func remove(_ mark: UInt) {
        guard let words = storage(creating: false) else { return }
        let count = Int(words[0])
        for index in 0..<count where words[index + 2] == mark {
            words[index + 2] = words[count + 1]
            words[0] = UInt(count - 1)
            return
        }
    }
}

/// Which thread holds something (a section of a shared store), for any thread to ask "is it
/// me?" without a lock: one relaxed atomic word that holds the holder's thread, where the
/// system has atomics (`RelaxedAtomicWord`), and a ``ThreadMarks`` mark elsewhere. Only the
/// holding thread writes its own identity there, so a thread finds its own only if it claimed
/// and did not release.
public final class ThreadOwner: @unchecked Sendable {
    /// The holder's thread, or 0, where the system has atomics.
    private let word = RelaxedAtomicWord()

    public init() {}

    /// The calling thread's identity (never 0).
    @inline(__always)
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// The mark that stands for this owner in ``ThreadMarks`` where there are no atomics.
    private var mark: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    /// The calling thread holds it now.
    public func claim() {
        if word.store(Self.currentThread) { return }
        ThreadMarks.insert(mark)
    }

    /// The calling thread, which holds it, lets it go.
    public func release() {
        if word.store(0) { return }
        ThreadMarks.remove(mark)
    }

    /// Whether the calling thread holds it.
    @inline(__always)
    public var isCurrentThread: Bool {
        if let holder = word.load() { return holder == Self.currentThread }
        return ThreadMarks.contains(mark)
    }
}
