import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

#if canImport(Glibc)
    import Glibc
#endif

/// A writable open marks the folder excluded from backups where the platform has the flag
/// (`Spec/cache.md` §5.1); Linux has none, and there the open must leave no trace of trying.
@Suite struct BackupExclusionTests {
    #if os(Linux)
        private typealias ListAttributes =
            @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int
        /// glibc's `llistxattr`, which Swift's Glibc module does not import (`sys/xattr.h`).
        private static let listAttributes: ListAttributes? = dlsym(nil, "llistxattr").map {
            unsafeBitCast($0, to: ListAttributes.self)
        }

        /// The names of the extended attributes of `path`, without following a link; nil when
        /// they cannot be listed (a file system without them).
        static func attributeNames(_ path: String) -> [String]? {
            guard let listAttributes else { return nil }
            let size = listAttributes(path, nil, 0)
            if size == 0 { return [] }
            guard size > 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: size)
            let read = listAttributes(path, &buffer, size)
            guard read >= 0 else { return nil }
            return buffer[..<read].split(separator: 0).map {
                String(decoding: $0.map(UInt8.init), as: UTF8.self)
            }
        }
    #endif

    #if os(Linux)
        @Test func onLinuxMarkingIsUnavailableAndChangesNothing() throws {
            let directory = TemporaryDirectory()
            let path = directory.url.path
            let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            #expect(BackupExclusion.exclude(folderAt: path) == .unavailable)
            #expect((Self.attributeNames(path) ?? []) == [], "a file system without attributes lists none")
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == [])
            let after = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            #expect(before == after)
        }

        @Test(arguments: Backend.allCases)
        func aWritableOpenOnLinuxAddsNoAttribute(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let cache = try ImageCache(configuration: configuration(backend, directory, clock: ManualClock()))
            try cache.store([1, 2, 3], forKey: "k")
            try cache.close()
            #expect((Self.attributeNames(directory.cacheURL.path) ?? []) == [])
        }
    #endif

    #if canImport(Darwin)
        @Test func aWritableOpenMarksTheFolderAndAReadOnlyOpenDoesNot() throws {
            let directory = TemporaryDirectory()
            let folder = directory.cacheURL
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            func isExcluded() throws -> Bool? {
                try folder.resourceValues(forKeys: [.isExcludedFromBackupKey]).isExcludedFromBackup
            }
            let reader = try ImageCache(configuration: CacheConfiguration(directory: folder, readOnly: true))
            try reader.close()
            #expect(try isExcluded() != true)
            let cache = try ImageCache(configuration: configuration(.log, directory, clock: ManualClock()))
            try cache.close()
            #expect(try isExcluded() == true)
        }
    #endif
}
