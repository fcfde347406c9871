import Dispatch

/// Runs a memory tier's handlers when the system reports memory pressure, from the moment the
/// cache opens until the tier goes away (`Spec/cache.md` §7.5).
///
/// Only Apple platforms have the source this listens to (Dispatch's memory-pressure source);
/// elsewhere, Linux included, it subscribes to nothing and the handlers never run: call
/// ``ImageCache/trimMemory(toCost:)`` where the platform tells the app in another way.
/// The handlers run on a global queue; the tier they trim has its own lock.
final class MemoryPressureSubscription: @unchecked Sendable {
    #if canImport(Darwin)
        private let sources: [any DispatchSourceMemoryPressure]

        init(warning: @escaping @Sendable () -> Void, critical: @escaping @Sendable () -> Void) {
            sources = [
                Self.source(for: .warning, handler: warning), Self.source(for: .critical, handler: critical),
            ]
        }

        private static func source(
            for event: DispatchSource.MemoryPressureEvent, handler: @escaping @Sendable () -> Void
        ) -> any DispatchSourceMemoryPressure {
            let source = DispatchSource.makeMemoryPressureSource(
                eventMask: event, queue: .global(qos: .utility))
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }

        deinit {
            for source in sources { source.cancel() }
        }
    #else
        init(warning: @escaping @Sendable () -> Void, critical: @escaping @Sendable () -> Void) {}
    #endif
}
