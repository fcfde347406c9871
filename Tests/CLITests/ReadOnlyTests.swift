import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading commands open read-only (`Spec/cache.md` §12.1): they change no byte of the store,
/// create nothing, and work in a folder the user cannot write.
@Suite struct ReadOnlyTests {
    /// Every file under `path` with its size and modification time, to compare before and after.
    static func snapshot(_ path: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[name] = "\(attributes[.size] ?? 0) \(modified)"
        }
        return result
    }

    @Test func readingCommandsChangeNothingInALogCacheOrALogStoreFile() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        let file = StoreCommandTests.emptyStore(in: scratch)
        for store in [folder, file] {
            // An expired entry too: a writing open would purge it.
            #expect(
                try imagecache(["put", "--store", store, "--now", "0", "--ttl", "1s", "old", "-"]).status == 0
            )
            #expect(
                try imagecache(["put", "--store", store, "--now", "0", "k", "-"], input: [1, 2, 3]).status
                    == 0)
            let before = try Self.snapshot(scratch.path)
            usleep(20_000)  // so that a rewrite would show in the modification times
            #expect(try imagecache(["ls", "--store", store]).text.hasPrefix("k\t3 B\t"))
            #expect(try imagecache(["stat", "--store", store]).text.contains("\nexpired entries: 1\n"))
            #expect(try imagecache(["verify", "--store", store]).text.hasPrefix("ok: 2 entries, 3 bytes"))
            #expect(try imagecache(["get", "--store", store, "--read-only", "k"]).output == [1, 2, 3])
            #expect(try Self.snapshot(scratch.path) == before, "\(store)")
        }
    }

    @Test func readingAFolderWithNoCacheCreatesNothing() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/not-yet"
        #expect(try imagecache(["ls", "--store", folder]).text == "")
        #expect(
            try imagecache(["stat", "--store", folder, "--backend", "hybrid"]).text.contains(
                "\nbackend: hybrid\nentries: 0\n"))
        #expect(try imagecache(["verify", "--store", folder]).text == "ok: 0 entries, 0 bytes\n")
        #expect(try imagecache(["get", "--store", folder, "k"]).status == 1)
        #expect(try imagecache(["purge", "--store", folder]).text == "purged 0 expired entries\n")
        #expect(try imagecache(["clear", "--store", folder]).text == "cleared 0 entries\n")
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    /// Every backend opens read-only for the reading commands: they work and change nothing.
    @Test(arguments: ["dictionary", "directory", "log", "hybrid"])
    func everyBackendIsReadReadOnly(backend: String) throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache"]
        #expect(
            try imagecache(
                ["put", "--backend", backend, "--now", "0", "--ttl", "1s"] + store + ["old", "-"], input: [9]
            ).status == 0)
        #expect(
            try imagecache(["put", "--backend", backend, "--now", "0"] + store + ["k", "-"], input: [1])
                .status == 0)
        let before = try Self.snapshot(scratch.path)
        usleep(20_000)  // so that a rewrite would show in the modification times
        for command in [["ls"], ["stat"], ["verify"], ["get", "k"]] {
            let outcome = try imagecache(command + ["--read-only"] + store)
            #expect(outcome.status == 0, "\(command): \(outcome.error)")
        }
        #expect(try imagecache(["ls"] + store).text.hasPrefix("k\t1 B\t"))
        #expect(try imagecache(["stat"] + store).text.contains("\nexpired entries: 1\n"))
        #expect(try Self.snapshot(scratch.path) == before)
    }

    /// How to run the tool as a user who cannot write a root-owned folder: `setpriv` when this
    /// process is root (root writes everywhere), else nothing (a folder made read-only suffices).
    static let unprivileged: (launcher: [String], skipReason: String?) = {
        guard getuid() == 0 else { return ([], nil) }
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let setpriv else {
            return (
                [], "SKIPPED: running as root and no setpriv to drop privileges, so no folder is unwritable"
            )
        }
        return ([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"], nil)
    }()

    @Test(.enabled(if: unprivileged.skipReason == nil, Comment(rawValue: unprivileged.skipReason ?? "")))
    func aStoreInAFolderTheUserCannotWriteCanBeInspected() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.path + "/cache"
        let file = scratch.path + "/bare/s.log"
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/bare", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        for store in [folder, file] {
            #expect(try imagecache(["put", "--store", store, "k", "-"], input: [7, 7]).status == 0)
        }
        let launcher = Self.unprivileged.launcher
        if launcher.isEmpty {
            for path in [folder, scratch.path + "/bare"] { chmod(path, 0o555) }
        } else {
            // The scratch folder is root's and 0700 under some temporary folders: let others in.
            chmod(scratch.path, 0o755)
        }
        defer { for path in [folder, scratch.path + "/bare"] { chmod(path, 0o755) } }
        for store in [folder, file] {
            let put = try imagecache(["put", "--store", store, "other", "-"], launcher: launcher)
            #expect(put.status == 4, "\(store): the folder is writable after all: \(put.error)")
            #expect(try imagecache(["ls", "--store", store], launcher: launcher).text.hasPrefix("k\t2 B\t"))
            #expect(try imagecache(["stat", "--store", store], launcher: launcher).status == 0)
            #expect(try imagecache(["verify", "--store", store], launcher: launcher).status == 0)
            #expect(
                try imagecache(["get", "--store", store, "--read-only", "k"], launcher: launcher).output == [
                    7, 7,
                ])
        }
    }
}
