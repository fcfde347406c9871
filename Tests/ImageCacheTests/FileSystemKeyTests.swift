import Foundation
import TestSupport
import Testing

@testable import ImageCacheKit

extension CacheBehaviourTests {
    /// Keys that would escape or collide in a naive file-per-key cache (`Spec/backends.md` §1.2).
    @Suite struct FileSystemKeyTests {
        static let hostileKeys: [String] = [
            "../../x", "/", "\0", "a\0b", ".", "..", "./", "/etc/passwd", "a/b/c", "\\", "..\\..\\x", "CON",
            "nul",
            "COM1.txt", " ", "\n", "*?<>|:\"", String(repeating: "k", count: 10_000), "é", "e\u{301}",
            "🧪/../🧫", "日本語のキー", "\u{202E}gnp.exe", "A", "a", "\u{FEFF}", "key\u{0}with\u{0}nuls",
        ]

        @Test(arguments: Backend.allCases)
        func hostileKeysStayInsideTheCacheAndNeverCollide(backend: Backend) throws {
            let directory = TemporaryDirectory()
            let settings = configuration(
                backend, directory, clock: ManualClock(), externalStorageThreshold: 64)
            do {
                let cache = try ImageCache(configuration: settings)
                for (index, key) in Self.hostileKeys.enumerated() {
                    try cache.store(bytes(seed: UInt64(index), count: 10 + index * 5), forKey: key)
                }
                #expect(cache.count == Self.hostileKeys.count)
                try cache.close()
            }
            // Nothing was created beside the cache folder.
            let siblings = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            #expect(siblings == ["cache"])
            #expect(!FileManager.default.fileExists(atPath: "/x.tmp-imagecache"))
            let reopened = try ImageCache(configuration: settings)
            let expectedKeys = Self.hostileKeys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect(reopened.keys.map { Array($0.utf8) } == expectedKeys.map { Array($0.utf8) })
            for (index, key) in Self.hostileKeys.enumerated() {
                #expect(try reopened.bytes(forKey: key) == bytes(seed: UInt64(index), count: 10 + index * 5))
            }
        }

        @Test func canonicallyEquivalentKeysAreDifferentKeys() throws {
            // Keys are their UTF-8 bytes (Spec/cache.md §2.1), not Swift's Unicode-equivalence.
            let composed = "caf\u{E9}"
            let decomposed = "cafe\u{301}"
            #expect(composed == decomposed)
            #expect(
                DirectoryStorage.fileName(forKey: composed) != DirectoryStorage.fileName(forKey: decomposed))
        }

        @Test func directoryFileNamesAreTheHexSHA256OfTheKey() throws {
            #expect(
                DirectoryStorage.fileName(forKey: "abc")
                    == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            let directory = TemporaryDirectory()
            let cache = try ImageCache(
                configuration: configuration(.directory, directory, clock: ManualClock()))
            for key in Self.hostileKeys { try cache.store([1], forKey: key) }
            try cache.synchronize()
            let names = try FileManager.default.contentsOfDirectory(
                atPath: directory.cacheURL.appendingPathComponent(DirectoryStorage.entriesName).path)
            #expect(Set(names) == Set(Self.hostileKeys.map(DirectoryStorage.fileName(forKey:))))
            #expect(names.allSatisfy(DirectoryStorage.isEntryFileName))
        }
    }
}
