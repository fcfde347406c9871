import Foundation

/// Pillow's thumbnail operations timed by Python itself, the baseline of the `thumbnail` suite.
///
/// Each call of ``measureOnce(pixelFile:side:targets:)`` starts `python3` with a small inline
/// script that reads the RGBA8 pixels from a file, makes a Pillow image of them, and times one
/// call of `Image.resize((t, t), Image.BOX)` for each target `t`, and of `Image.reduce(side / t)`
/// where `t` divides the side, each after one untimed warm-up call. Pillow times its own work
/// (`time.perf_counter` around the call alone), so starting Python and reading the file are not
/// counted. Nothing is ever estimated: when `python3` or Pillow is missing, the answer says so.
enum PillowBaseline {
    /// One timed Pillow call.
    struct Timing: Equatable {
        /// `box` (resize with the BOX filter) or `reduce`.
        var operation: String
        var target: Int
        var seconds: Double
    }

    enum Outcome {
        case measured(version: String, timings: [Timing])
        case skipped(reason: String)
    }

    static let script = #"""
        import json, sys, time
        try:
            import PIL
            from PIL import Image
        except ImportError as error:
            print(json.dumps({"skipped": "Pillow is not installed (%s)" % error}))
            sys.exit(0)
        path, side, targets = sys.argv[1], int(sys.argv[2]), [int(t) for t in sys.argv[3:]]
        with open(path, "rb") as f:
            image = Image.frombytes("RGBA", (side, side), f.read())
        work = []
        for t in targets:
            work.append(("box", t, lambda t=t: image.resize((t, t), Image.BOX)))
            if side % t == 0:
                work.append(("reduce", t, lambda t=t: image.reduce(side // t)))
        timings = []
        for operation, t, call in work:
            call()
            start = time.perf_counter()
            result = call()
            seconds = time.perf_counter() - start
            if result.size != (t, t) or result.mode != "RGBA":
                print(json.dumps({"error": "%s to %d gave %r %s" % (operation, t, result.size, result.mode)}))
                sys.exit(0)
            timings.append({"operation": operation, "target": t, "seconds": seconds})
        print(json.dumps({"version": PIL.__version__, "timings": timings}))
        """#

    /// Runs the script once on the `side × side` RGBA8 pixels in `pixelFile`.
    ///
    /// - Throws: ``BenchmarkError/verificationFailed(suite:backend:detail:)`` when Pillow ran
    ///   but gave a wrong result or an answer that cannot be read.
    static func measureOnce(pixelFile: URL, side: Int, targets: [Int]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", "-c", script, pixelFile.path, String(side)] + targets.map(String.init)
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .skipped(reason: "python3 could not be started (\(error))")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .skipped(reason: "python3 exited with status \(process.terminationStatus)")
        }
        guard let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw failure("unreadable answer \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        if let reason = answer["skipped"] as? String { return .skipped(reason: reason) }
        if let error = answer["error"] as? String { throw failure(error) }
        guard let version = answer["version"] as? String, let list = answer["timings"] as? [[String: Any]]
        else {
            throw failure("answer without version or timings")
        }
        var timings: [Timing] = []
        for item in list {
            guard let operation = item["operation"] as? String, let target = item["target"] as? Int,
                let seconds = item["seconds"] as? Double, seconds > 0
            else { throw failure("malformed timing \(item)") }
            timings.append(Timing(operation: operation, target: target, seconds: seconds))
        }
        return .measured(version: version, timings: timings)
    }

    static func failure(_ detail: String) -> BenchmarkError {
        .verificationFailed(suite: ThumbnailBenchmark.suite.name, backend: "pillow", detail: detail)
    }
}
