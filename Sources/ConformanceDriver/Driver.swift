import Foundation

/// Answers conformance requests with this project's modules (Spec/conformance.md §9).
///
/// One request at a time: the driver is single-threaded, holds at most one open cache and
/// one manual clock, and keeps its files in a temporary folder it deletes on exit.
final class Driver {
    static let backendNames = ["dictionary", "directory", "log", "hybrid"]
    static let areas = ["png", "store", "cache"]

    let backends: [String]
    let faults: Set<Fault>
    let workFolder: URL
    var cacheSession: CacheSession?
    /// The sessions other than `A` this driver joined (Spec/conformance.md §5.8), by name.
    var joinedSessions: [String: CacheSession] = [:]
    private var folderCounter = 0

    init(backends: [String], faults: Set<Fault>, parentFolder: URL? = nil) throws {
        self.backends = backends
        self.faults = faults
        workFolder = (parentFolder ?? Driver.defaultParentFolder())
            .appendingPathComponent(
                "conformance-driver-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
            )
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
    }

    /// Where the work folder goes unless `--work-folder` says: `/dev/shm` when it is a writable
    /// folder, else the temporary directory. No case can observe durability, and on a disk the
    /// fsyncs of thousands of cache closes made a full suite run several times slower.
    static func defaultParentFolder() -> URL {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm")
        {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }

    /// A fresh, empty folder inside the work folder.
    func freshFolder() throws(RequestFailure) -> URL {
        folderCounter += 1
        let folder = workFolder.appendingPathComponent("\(folderCounter)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RequestFailure(name: "driverSetup: \(error)")
        }
        return folder
    }

    func removeWorkFolder() {
        try? cacheSession?.cache?.close()
        cacheSession = nil
        for session in joinedSessions.values { try? session.cache?.close() }
        joinedSessions = [:]
        try? FileManager.default.removeItem(at: workFolder)
    }

    /// The response line for one request line.
    func respond(to line: String) -> String {
        var response: [String: Message] = [:]
        var identifier = Message.null
        do {
            guard case .object(let fields) = try JSONDecoder().decode(Message.self, from: Data(line.utf8))
            else {
                throw RequestFailure.badRequest("a request must be a JSON object")
            }
            identifier = fields["id"] ?? .null
            response = try handle(Request(fields: fields))
        } catch let failure as RequestFailure {
            response = ["error": .string(failure.name)]
        } catch {
            response = ["error": .string("badRequest: \(error)")]
        }
        response["id"] = identifier
        return Message.object(response).line
    }

    private func handle(_ request: Request) throws(RequestFailure) -> [String: Message] {
        switch request.op {
        case "hello":
            return [
                "protocol": .integer(1),
                "implementation": .string(
                    "ImageCache (Swift)"
                        + (faults.isEmpty
                            ? "" : " with faults: " + faults.map(\.rawValue).sorted().joined(separator: ", "))
                ),
                "areas": .array(Driver.areas.map(Message.string)),
                "backends": .array(backends.map(Message.string)),
                "features": .array([.string("sharing"), .string("storeFormat3")]),
            ]
        case "png.encode": return try encodePNG(request)
        case "png.decode": return try decodePNG(request)
        case "png.downsample": return try downsamplePNG(request)
        case "store.read": return try readStore(request)
        case "store.write": return try writeStore(request)
        case let op where op.hasPrefix("cache."): return try handleCache(request)
        default: throw RequestFailure(name: "unsupported")
        }
    }

    /// The stable spec name of an error from any module (each module's error type conforms
    /// to ``SpecNamedError`` with an exhaustive switch, so a new case cannot go unnamed).
    static func name(of error: any Error) -> String {
        if let named = error as? any SpecNamedError { return named.specName }
        return "unexpectedError: \(error)"
    }
}

/// An error whose spec name the driver reports.
protocol SpecNamedError {
    var specName: String { get }
}
