import Foundation
import LogStoreKit
import TestSupport
import Testing

@testable import ImageCacheKit

/// A shared `hybrid` folder whose lock holder dies inside its section (`Spec/backends.md` §9.5):
/// the files its unpublished records stopped naming must still be there for the next holder.
@Suite struct HybridSharingTests {
    static let key = Array("k".utf8)
    static let old = bytes(seed: 1, count: 5_000)
    static let new = bytes(seed: 2, count: 6_000)

    static func storage(_ directory: TemporaryDirectory, first: Bool) throws -> HybridStorage {
        try HybridStorage(
            directory: directory.url.path, threshold: 1_000, readOnly: false, mode: .durable,
            sharing: LogStore.Sharing(isOnlyProcess: { first }))
    }

    static func write(_ value: [UInt8], _ storage: HybridStorage, sequence: UInt64) throws(CacheError) {
        let written = value.withUnsafeBytes { bytes in
            Result { () throws(CacheError) in
                try storage.write(
                    bytes, forKey: key,
                    metadata: CacheEntryMetadata(createdAt: 1, expiresAt: .max, accessSequence: sequence),
                    userMetadata: [])
            }
        }
        try written.get()
    }

    /// The holder replaces, removes or clears the large value, synchronizes (which deletes the
    /// file its record stopped naming) and dies before its section ends. The next holder reads
    /// the key as the holder left it or as it was, never as `corruptEntry`: unpublished, the
    /// record would be cut and the old one, naming the deleted file, current again; so the
    /// holder publishes before it deletes.
    @Test(arguments: ["replace", "remove", "clear"])
    func aHolderThatDiesUnpublishedLeavesTheFilesItsRecordsStoppedNaming(change: String) throws {
        let directory = TemporaryDirectory()
        let holder = try Self.storage(directory, first: true)
        try holder.withExclusiveAccess { () throws(CacheError) in
            try Self.write(Self.old, holder, sequence: 1)
            try holder.synchronize()
        }
        try holder.withExclusiveAccess { () throws(CacheError) in
            switch change {
            case "replace": try Self.write(Self.new, holder, sequence: 2)
            case "remove": try holder.remove(Self.key)
            default: try holder.removeAll()
            }
            try holder.synchronize()
            holder.abandon()
        }
        let next = try Self.storage(directory, first: false)
        let read = try next.withExclusiveAccess { () throws(CacheError) in try next.read(Self.key) }
        let expected: [UInt8]? = change == "replace" ? Self.new : nil
        #expect(
            read?.bytes == expected || read?.bytes == Self.old,
            "\(change): read \(read?.bytes.count ?? -1) bytes")
        try next.close()
    }
}
