#if canImport(Synchronization)
    import Synchronization
#endif

/// Orders this thread's memory accesses as another process sees them through a shared mapping
/// (the coordination file of a shared store, `Spec/store.md` §12.4).
///
/// A writer puts a release fence between writing the log's bytes and storing the words that
/// publish them; a reader puts an acquire fence between loading those words and reading the
/// log. On x86 both only keep the compiler from moving accesses across them (its stores and
/// loads are ordered already); on ARM they are barrier instructions, without which a reader may
/// see a new published length before the bytes it covers.
///
/// They come from the toolchain's Synchronization module, which Apple systems have from
/// iOS 18, macOS 15, tvOS 18, watchOS 11 and visionOS 2; on older ones both do nothing, and a
/// catch-up may then stop early at a record it does not yet see whole (its checks stop it:
/// never wrong bytes), showing a change one read later.
public enum MemoryFence {
    /// Accesses after it happen after every load before it.
    @inline(__always)
    public static func acquire() {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                atomicMemoryFence(ordering: .acquiring)
            }
        #endif
    }

    /// Every access before it happens before the stores after it.
    @inline(__always)
    public static func release() {
        #if canImport(Synchronization)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                atomicMemoryFence(ordering: .releasing)
            }
        #endif
    }
}
