import Foundation
import ImageCacheKit
import PNG

@testable import Platform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the cache holds for one key, as far as the power-loss checks care.
enum KeyState: Hashable, Sendable {
    case absent
    /// The value's digest and when it expires.
    case value(digest: Int, expiresAt: Int64)
}

/// The cache's content after a step of a workload, and whether that step made it durable.
struct Checkpoint: Sendable {
    /// Recorded calls when the step (and the snapshot taken after it) ended.
    var callCount: Int
    var keys: [String: KeyState]
    /// A `synchronize()` or `close()` that returned.
    var synchronized: Bool
    var now: Int64
    var step: String
}

/// One operation of a cache workload.
enum CacheStep: Sendable, CustomStringConvertible {
    case open
    case store(key: String, size: Int)
    case storeImage(key: String, side: Int)
    case remove(String)
    case read(String)
    case variant(key: String, size: Int)
    case synchronize
    /// `synchronize()` while the next `count` of the chosen fsyncs fail with EIO, called again
    /// while it throws (`Spec/backends.md` §8.10).
    case synchronizeDespiteFailingFsyncs(count: Int, of: FailingFsyncs)
    case compact
    /// `compact()` while the next chosen fsync fails; it may throw, and the next
    /// synchronization must make up for it.
    case compactDespiteAFailingFsync(of: FailingFsyncs)
    case purge
    case removeAll
    case advance(milliseconds: Int64)
    case close

    var description: String {
        switch self {
        case .open: "open"
        case .store(let key, let size): "store \(key) (\(size) bytes)"
        case .storeImage(let key, let side): "store image \(key) (\(side)×\(side))"
        case .remove(let key): "remove \(key)"
        case .read(let key): "read \(key)"
        case .variant(let key, let size): "variant \(key) fit \(size)"
        case .synchronize: "synchronize"
        case .synchronizeDespiteFailingFsyncs(let count, let fsyncs):
            "synchronize, \(count) fsyncs of \(fsyncs) failing"
        case .compact: "compact"
        case .compactDespiteAFailingFsync(let fsyncs): "compact, an fsync of \(fsyncs) failing"
        case .purge: "purgeExpired"
        case .removeAll: "removeAll"
        case .advance(let milliseconds): "advance the clock \(milliseconds) ms"
        case .close: "close"
        }
    }
}

/// Which fsyncs a step of a workload makes fail.
enum FailingFsyncs: Sendable, CustomStringConvertible {
    /// Of files whose path contains the text.
    case files(containing: String)
    /// Of the folder whose path ends with the text: its names stay pending (a failed journal
    /// commit).
    case folder(endingWith: String)

    var description: String {
        switch self {
        case .files(let text): "*\(text)*"
        case .folder(let suffix): "the folder *\(suffix)"
        }
    }

    func arm(_ count: Int, under root: String) -> FaultInjection.Armed {
        switch self {
        case .files(let text): FaultInjection.failSynchronizations(count, under: root, pathContaining: text)
        case .folder(let suffix):
            FaultInjection.failFolderSynchronizations(count, under: root, endingWith: suffix)
        }
    }
}

/// The settings every run of a workload, and every check of its states, uses.
struct CacheWorkloadSettings: Sendable {
    var backend: Backend
    /// The cache folder, relative to the recorded root.
    var folderName = "caches/app"
    var timeToLive: Int64 = 3_600_000
    var maximumBytes = 160 * 1024
    /// Small, so that "large" values go to external files without taking long to write.
    var externalStorageThreshold = 8 * 1024
    var startTime: Int64 = 1_700_000_000_000

    func configuration(root: String, clock: ManualClock, readOnly: Bool) -> CacheConfiguration {
        CacheConfiguration(
            directory: URL(fileURLWithPath: root + "/" + folderName), backend: backend,
            timeToLive: .milliseconds(timeToLive), maximumBytes: maximumBytes, clock: clock,
            externalStorageThreshold: externalStorageThreshold, readOnly: readOnly)
    }
}

/// Runs a cache workload with every system call recorded, and notes after each step what the
/// cache holds.
struct CacheWorkloadRun {
    let settings: CacheWorkloadSettings
    let recorder: SystemCallRecorder
    private(set) var checkpoints: [Checkpoint] = []
    /// Every value ever stored, by digest, so a check can tell which one it read.
    private(set) var knownImages: Set<String> = []

    /// Runs `steps` in a fresh folder under `root`.
    init(settings: CacheWorkloadSettings, steps: [CacheStep], root: String) throws {
        self.settings = settings
        let clock = ManualClock(milliseconds: settings.startTime)
        recorder = SystemCallRecorder.start(root: root)
        defer { recorder.stop() }
        checkpoints.append(
            Checkpoint(callCount: 0, keys: [:], synchronized: true, now: clock.now(), step: "(start)"))
        var cache: ImageCache?
        var values: [String: [UInt8]] = [:]
        for (number, step) in steps.enumerated() {
            var synchronized = false
            switch step {
            case .open:
                cache = try ImageCache(
                    configuration: settings.configuration(root: root, clock: clock, readOnly: false))
            case .store(let key, let size):
                let value = Self.value(seed: UInt64(number), count: size)
                try cache!.store(Data(value), forKey: key)
                values[key] = value
            case .storeImage(let key, let side):
                let image = try Self.image(seed: UInt64(number), side: side)
                try cache!.store(image, forKey: key)
                values[key] = try PNGEncoder.encode(image)
                knownImages.insert(key)
            case .remove(let key):
                _ = try cache!.removeValue(forKey: key)
            case .read(let key):
                _ = try cache!.data(forKey: key)
            case .variant(let key, let size):
                _ = try cache!.variant(forKey: key, maximumPixelSize: size)
            case .synchronize:
                try cache!.synchronize()
                synchronized = true
            case .synchronizeDespiteFailingFsyncs(let count, let fsyncs):
                let fault = fsyncs.arm(count, under: root)
                // Called again until it returns: each failing call spends at least one fault.
                var attempts = 0
                while true {
                    attempts += 1
                    do {
                        try cache!.synchronize()
                        break
                    } catch {
                        if attempts > count { throw error }
                    }
                }
                let failed = fault.disarm()
                guard failed == count else {
                    throw WorkloadError.faultsNotReached(step: number, failed: failed)
                }
                synchronized = true
            case .compact:
                try cache!.compact()
            case .compactDespiteAFailingFsync(let fsyncs):
                let fault = fsyncs.arm(1, under: root)
                _ = try? cache!.compact()
                let failed = fault.disarm()
                guard failed == 1 else { throw WorkloadError.faultsNotReached(step: number, failed: failed) }
            case .purge:
                _ = try cache!.purgeExpired()
            case .removeAll:
                try cache!.removeAll()
            case .advance(let milliseconds):
                clock.advance(by: milliseconds)
            case .close:
                try cache!.close()
                cache = nil
                synchronized = true
            }
            var keys: [String: KeyState] = [:]
            if let cache {
                for entry in cache.entries() {
                    guard let value = values[entry.key] else { throw WorkloadError.unknownKey(entry.key) }
                    keys[entry.key] = .value(digest: value.hashValue, expiresAt: entry.metadata.expiresAt)
                }
            } else {
                keys = checkpoints.last!.keys
            }
            checkpoints.append(
                Checkpoint(
                    callCount: recorder.callCount, keys: keys, synchronized: synchronized, now: clock.now(),
                    step: "step \(number): \(step)"))
        }
    }

    enum WorkloadError: Error {
        case unknownKey(String)
        /// Fewer of a step's armed fsync failures happened than it armed.
        case faultsNotReached(step: Int, failed: Int)
    }

    static func value(seed: UInt64, count: Int) -> [UInt8] {
        var generator = SplitMix(state: seed &* 0x1000_0001 &+ 17)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    static func image(seed: UInt64, side: Int) throws -> Bitmap {
        var generator = SplitMix(state: seed &+ 99)
        let pixels = (0..<(side * side * 4)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return try Bitmap(width: side, height: side, format: .rgba8, pixels: pixels)
    }

    /// What a read may return after a power cut once `callCount` calls reached the disk.
    func expectation(afterCalls callCount: Int) -> Expectation {
        Expectation(checkpoints, afterCalls: callCount, images: knownImages)
    }
}

/// The reads allowed at one crash point.
struct Expectation: Hashable, Sendable, CustomStringConvertible {
    /// For every key any considered state holds, the states a read may find.
    var candidates: [String: Set<KeyState>]
    /// The clock when the checks run: that of the step under way.
    var now: Int64
    /// Keys whose values are images (their variants are checked too).
    var images: Set<String>
    var synchronizedStep: String
    var stepUnderWay: String

    var description: String { "last synchronized at \(synchronizedStep), under way: \(stepUnderWay)" }

    /// What a read may return after a power cut once `callCount` calls of a recorded run
    /// reached the disk (`Spec/backends.md` §8.1): the state of the last returned
    /// `synchronize()` (or `close()`), or any state a later step, the one under way included,
    /// gave the key.
    init(_ checkpoints: [Checkpoint], afterCalls callCount: Int, images: Set<String> = []) {
        let synchronized = checkpoints.lastIndex { $0.synchronized && $0.callCount <= callCount }!
        let through = max(
            synchronized, checkpoints.firstIndex { $0.callCount >= callCount } ?? checkpoints.count - 1)
        let considered = checkpoints[synchronized...through]
        let keys = Set(considered.flatMap(\.keys.keys))
        var candidates: [String: Set<KeyState>] = [:]
        for checkpoint in considered {
            for key in keys { candidates[key, default: []].insert(checkpoint.keys[key] ?? .absent) }
        }
        self.candidates = candidates
        now = checkpoints[through].now
        self.images = images
        synchronizedStep = checkpoints[synchronized].step
        stepUnderWay = checkpoints[through].step
    }

    /// Whether reading `bytes` (nil: a miss) for `key` is allowed.
    func allows(_ bytes: [UInt8]?, forKey key: String) -> Bool {
        let states = candidates[key] ?? [.absent]
        guard let bytes else {
            return states.contains {
                switch $0 {
                case .absent: true
                case .value(_, let expiresAt): expiresAt <= now
                }
            }
        }
        // The bytes must be a value some considered state holds; its expiry may come from
        // another state (a hit whose touch survived while a later store did not).
        let digest = bytes.hashValue
        return states.contains {
            if case .value(digest, _) = $0 { return true }
            return false
        }
    }
}
