import Foundation

/// A fresh folder for one test under the system's temporary folder, removed with everything in
/// it when the value is released. Every test target makes its folders with this one type.
///
/// The folder's name carries the name of the test that made it (`#function`) and a UUID, so
/// tests running in parallel never share one, and a folder left by a crash says whose it was.
public final class TemporaryDirectory: Sendable {
    /// The folder, which exists from `init` on.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates the folder; `test` names it (the calling function by default).
    public init(_ test: String = #function) {
        let name = test.filter { $0.isLetter || $0.isNumber }.prefix(60)
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("imagecache-\(name)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            preconditionFailure("the test cannot make its temporary folder \(url.path): \(error)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
