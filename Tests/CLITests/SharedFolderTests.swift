import Foundation
import ImageCacheKit
import TestSupport
import Testing

/// The tool's writing commands beside processes that share the folder (`Spec/cache.md`
/// §12.1.5): they join them, and what they change is seen at once by the process here.
@Suite struct SharedFolderTests {
    @Test(arguments: ["log", "hybrid"])
    func writingCommandsJoinAFolderThatProcessesShare(backend: String) throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.url.appendingPathComponent("cache")
        let app = try ImageCache(
            configuration: CacheConfiguration(
                directory: folder, backend: Backend(rawValue: backend)!, sharedAcrossProcesses: true))
        try app.store([1, 2, 3], forKey: "from the app")
        let store = ["--store", folder.path]
        #expect(try imagecache(["put"] + store + ["from the tool", "-"], input: [9, 9]).status == 0)
        #expect(try app.bytes(forKey: "from the tool") == [9, 9])
        let got = try imagecache(["get"] + store + ["from the app"])
        #expect(got.status == 0)
        #expect(got.output == [1, 2, 3])
        #expect(try imagecache(["rm"] + store + ["from the app"]).status == 0)
        #expect(try app.bytes(forKey: "from the app") == nil)
        #expect(try imagecache(["compact"] + store).status == 0)
        #expect(try app.bytes(forKey: "from the tool") == [9, 9])
        try app.close()
        // Alone again, the tool opens the folder as a lone writer.
        #expect(try imagecache(["put"] + store + ["later", "-"], input: [4]).status == 0)
    }

    @Test func aWriterThatDoesNotShareStillKeepsTheToolOut() throws {
        let scratch = TemporaryDirectory()
        let folder = scratch.url.appendingPathComponent("cache")
        let app = try ImageCache(configuration: CacheConfiguration(directory: folder))
        let put = try imagecache(["put", "--store", folder.path, "k", "-"], input: [1])
        #expect(put.status == 4)
        #expect(put.errorLines.count == 1)
        try app.close()
    }
}
