#if canImport(Synchronization)
    import Synchronization
#endif

/// One word that threads load, store and add to without a lock, where the system has atomics:
/// the storage under ``AtomicCount`` and ``ThreadOwner``.
///
/// Atomics come from the toolchain's Synchronization module, which Apple systems have from
/// iOS 18, macOS 15, tvOS 18, watchOS 11 and visionOS 2. On older ones every operation answers
/// nil or false, and the owner takes its slower path. Every access is relaxed: the word orders
/// nothing else in memory.
struct RelaxedAtomicWord: ~Copyable {
    /// An `Atomic<UInt>` where the system has one, else nil.
    private let word: UnsafeMutableRawPointer?

    init() {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                let atomic = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 1)
                atomic.initialize(to: Atomic(0))
                word = UnsafeMutableRawPointer(atomic)
                return
            }
        #endif
        word = nil
    }

    deinit {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                let atomic = Self.atomic(word)
                atomic.deinitialize(count: 1)
                atomic.deallocate()
            }
        #endif
    }

    /// The word, or nil where the system has no atomics.
    @inline(__always)
    func load() -> UInt? {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                return Self.atomic(word).pointee.load(ordering: .relaxed)
            }
        #endif
        return nil
    }

    /// Stores `value`; false (and nothing stored) where the system has no atomics.
    @inline(__always)
    @discardableResult
    func store(_ value: UInt) -> Bool {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                Self.atomic(word).pointee.store(value, ordering: .relaxed)
                return true
            }
        #endif
        return false
    }

    /// Adds `delta`, wrapping; false (and nothing added) where the system has no atomics.
    @inline(__always)
    @discardableResult
    func wrappingAdd(_ delta: UInt) -> Bool {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let word {
                Self.atomic(word).pointee.wrappingAdd(delta, ordering: .relaxed)
                return true
            }
        #endif
        return false
    }

    #if canImport(Synchronization)
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        @inline(__always)
        private static func atomic(_ word: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt>> {
            word.assumingMemoryBound(to: Atomic<UInt>.self)
        }
    #endif
}
