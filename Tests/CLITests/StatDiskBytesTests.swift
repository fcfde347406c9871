import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stat` reports the bytes the store takes on disk beside the value bytes (`Spec/cache.md`
/// §12.4): `disk bytes` in text, `disk_bytes` in JSON.
@Suite struct StatDiskBytesTests {
    /// `st_blocks` × 512 of `path` and, for a folder, of everything under it, links not followed.
    static func allocation(under path: String) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        var total = Int(info.st_blocks) * 512
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                total += allocation(under: path + "/" + name)
            }
        }
        return total
    }

    /// The members of `stat --json`'s object.
    static func statistics(_ arguments: [String]) throws -> [String: Any] {
        let outcome = try imagecache(["stat", "--json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.error)")
        return try JSONSerialization.jsonObject(with: Data(outcome.output)) as? [String: Any] ?? [:]
    }

    @Test(arguments: CacheCommandTests.backends)
    func aCacheFolderShowsItsAllocationBesideItsValueBytes(backend: String) throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        let cache = ["--backend", backend, "--store", folder]
        for index in 0..<5 {
            let value = [UInt8](repeating: UInt8(index), count: 3_000)
            #expect(try imagecache(["put"] + cache + ["k\(index)", "-"], input: value).status == 0)
        }
        let members = try Self.statistics(cache)
        let expected = Self.allocation(under: folder)
        #expect(members["bytes"] as? Int == 15_000)
        #expect(members["disk_bytes"] as? Int == expected)
        #expect(expected >= 15_000)
        let text = try imagecache(["stat"] + cache).text
        #expect(text.contains("\nfile bytes: "))
        #expect(text.contains("\ndisk bytes: \(expected) ("), "\(text)")
    }

    @Test func aLogStoreFileShowsItsAndItsSnapshotsAllocation() throws {
        let scratch = TemporaryDirectory()
        let store = StoreCommandTests.emptyStore(in: scratch)
        let value = [UInt8](repeating: 7, count: 20_000)
        #expect(try imagecache(["put", "--store", store, "k", "-"], input: value).status == 0)
        let members = try Self.statistics(["--store", store])
        let expected = Self.allocation(under: store) + Self.allocation(under: store + ".hint")
        #expect(members["kind"] as? String == "log-store")
        #expect(members["disk_bytes"] as? Int == expected)
        #expect(expected >= 20_000)
        #expect(try imagecache(["stat", "--store", store]).text.contains("\ndisk bytes: \(expected) ("))
    }
}
