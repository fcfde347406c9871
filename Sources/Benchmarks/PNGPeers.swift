import Foundation

/// The C libraries `imagecache bench png` compares the decoder with, run by one long-lived
/// `python3` process: libspng (through pyspng), libpng, and for inflate alone libdeflate, zlib and
/// zlib-ng (through imagecodecs).
///
/// The process is started once, with a manifest of the entries to time. It checks which peers
/// import and which entries each decodes, answers with their versions and any skips, and then times
/// one round of every peer on the entry it names each time it is asked, so the suite can
/// interleave its own timings with the peers' entry by entry (load that changes during
/// the run then affects both alike). Python times its own calls (`time.perf_counter` around a batch
/// of calls, divided by the batch), so starting it and reading the files is never counted. It
/// inherits the suite's CPU affinity, so on one core everything runs on that core. A missing
/// Python, module or library is a skip with a reason, never a failure.
final class PNGPeers {
    /// One timed entry: a name and the files it decodes (PngSuite is one entry of many files),
    /// or one zlib stream to inflate with its decompressed size.
    struct Entry {
        var name: String
        var paths: [String]
        var inflatedSize: Int?
    }

    /// What the process reported at the start.
    struct Hello {
        /// Each peer that runs, by display name (`libspng 0.7.4`), with its kind (`decode` or
        /// `inflate`).
        var peers: [(name: String, kind: String)]
        /// Reasons for peers or peer-entry pairs that are not measured.
        var skipped: [String]
        /// For each decode entry and peer: the CRC-32 and length of its first file's output.
        var digests: [String: [String: (crc: UInt32, count: Int)]]
        /// For each entry, the files every peer decodes (all of them, unless a peer failed on
        /// some file of a several-file entry).
        var paths: [String: [String]]
    }

    static let script = #"""
        import json, sys, time, zlib
        manifest = json.load(open(sys.argv[1]))
        out = sys.stdout
        peers, skipped = [], []
        try:
            import pyspng
            peers.append(("libspng " + pyspng.__version__.replace("dev", "").strip(), "decode",
                          lambda data: pyspng.load(data)))
        except Exception as error:
            skipped.append("libspng: pyspng is not importable (%s)" % error)
        try:
            import imagecodecs
            if imagecodecs.PNG.available:
                peers.append(("libpng " + imagecodecs.png_version().split()[-1], "decode",
                              lambda data: imagecodecs.png_decode(data)))
            else:
                skipped.append("libpng: imagecodecs was built without it")
            for module, label in (("DEFLATE", "libdeflate"), ("ZLIB", "zlib"), ("ZLIBNG", "zlib-ng")):
                codec = getattr(imagecodecs, module, None)
                if codec is None or not codec.available:
                    skipped.append("%s: imagecodecs was built without it" % label)
                    continue
                version = getattr(imagecodecs, module.lower() + "_version")().split()[-1]
                decode = getattr(imagecodecs, module.lower() + "_decode")
                peers.append(("%s %s" % (label, version), "inflate",
                              lambda data, size, decode=decode: decode(data, out=size)))
        except Exception as error:
            skipped.append("libpng, libdeflate, zlib: imagecodecs is not importable (%s)" % error)
        # pyspng's version string is the binding's; ask the library itself where it can.
        try:
            import pyspng._pyspng_c as c
            peers = [(("libspng " + c.spng_version_string()) if n.startswith("libspng") else n, k, f)
                     for n, k, f in peers]
        except Exception:
            pass

        def run(call, blob, size):
            result = call(blob) if size is None else call(blob, size)
            return result.tobytes() if hasattr(result, "tobytes") else bytes(result)

        # An entry of several files keeps only the files every decode peer reads, so that all
        # decoders time the same work; the suite then times its own decoder on that subset.
        entries, digests, usable, used = [], {}, set(), {}
        for entry in manifest:
            name, paths, size = entry["name"], entry["paths"], entry.get("size")
            kind = "decode" if size is None else "inflate"
            if len(paths) > 1:
                kept = []
                for path in paths:
                    blob = open(path, "rb").read()
                    failures = []
                    for peer, peer_kind, call in peers:
                        if peer_kind != kind:
                            continue
                        try:
                            run(call, blob, size)
                        except Exception as error:
                            failures.append("%s: %s" % (peer, str(error).splitlines()[0][:80]))
                    if failures:
                        skipped.append("%s: %s left out (%s)" % (name, path.split("/")[-1], "; ".join(failures)))
                    else:
                        kept.append(path)
                paths = kept
            if kind == "decode":
                used[name] = paths
            blobs = [open(path, "rb").read() for path in paths]
            entries.append((name, kind, blobs, size))
            for peer, peer_kind, call in peers:
                if peer_kind != kind or not blobs:
                    continue
                try:
                    outputs = [run(call, blob, size) for blob in blobs]
                    digests.setdefault(name, {})[peer] = [zlib.crc32(outputs[0]), len(outputs[0])]
                    usable.add((peer, name, kind))
                except Exception as error:
                    skipped.append("%s on %s: %s" % (peer, name, str(error).splitlines()[0][:120]))
        out.write(json.dumps({"peers": [[n, k] for n, k, _ in peers], "skipped": skipped,
                              "digests": digests, "paths": used}) + "\n")
        out.flush()

        batches = {}
        for line in sys.stdin:
            words = line.split(" ", 1)
            if words[0] != "round" or len(words) < 2:
                break
            only = json.loads(words[1])
            timings = {}
            for peer, peer_kind, call in peers:
                for entry, kind, blobs, size in entries:
                    key = (peer, entry, kind)
                    if key not in usable or entry != only:
                        continue
                    if key not in batches:
                        start = time.perf_counter()
                        for blob in blobs:
                            call(blob) if size is None else call(blob, size)
                        once = time.perf_counter() - start
                        batches[key] = max(1, min(1000, int(0.02 / max(once, 1e-7))))
                    count = batches[key]
                    start = time.perf_counter()
                    for _ in range(count):
                        for blob in blobs:
                            call(blob) if size is None else call(blob, size)
                    timings.setdefault(entry, {})[peer] = (time.perf_counter() - start) / count
            out.write(json.dumps(timings) + "\n")
            out.flush()
        """#

    private let process = Process()
    private let toPython = Pipe()
    private let fromPython = Pipe()
    private var buffered = Data()

    /// Starts the process on `entries`; `.failure` with the reason when Python cannot start.
    static func start(entries: [Entry], scratch: URL) throws -> Result<(PNGPeers, Hello), GeneratedPNG.Skip> {
        let manifest = scratch.appendingPathComponent("peers-manifest.json")
        let list: [[String: Any]] = entries.map { entry in
            var item: [String: Any] = ["name": entry.name, "paths": entry.paths]
            if let size = entry.inflatedSize { item["size"] = size }
            return item
        }
        try JSONSerialization.data(withJSONObject: list).write(to: manifest)
        let peers = PNGPeers()
        peers.process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        peers.process.arguments = ["python3", "-c", script, manifest.path]
        peers.process.standardInput = peers.toPython
        peers.process.standardOutput = peers.fromPython
        // libpng's warnings about PngSuite's odd chunks would drown the suite's own messages.
        peers.process.standardError = FileHandle.nullDevice
        do {
            try peers.process.run()
        } catch {
            return .failure(GeneratedPNG.Skip(reason: "python3 could not be started (\(error))"))
        }
        guard let line = peers.readLine(),
            let answer = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let list = answer["peers"] as? [[String]], let skipped = answer["skipped"] as? [String]
        else {
            peers.stop()
            return .failure(GeneratedPNG.Skip(reason: "python3 gave no usable answer"))
        }
        var digests: [String: [String: (crc: UInt32, count: Int)]] = [:]
        for (entry, byPeer) in answer["digests"] as? [String: [String: [Int]]] ?? [:] {
            for (peer, pair) in byPeer where pair.count == 2 {
                digests[entry, default: [:]][peer] = (UInt32(truncatingIfNeeded: pair[0]), pair[1])
            }
        }
        let hello = Hello(
            peers: list.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }, skipped: skipped,
            digests: digests,
            paths: answer["paths"] as? [String: [String]] ?? [:])
        return .success((peers, hello))
    }

    /// Times one round of the entries named `entry` (its decode and its inflate): seconds per
    /// call, by entry then peer.
    func round(entry: String) throws -> [String: [String: Double]] {
        // The name as a JSON string, so that no character of a file's name can end the line.
        let name = try JSONSerialization.data(withJSONObject: entry, options: .fragmentsAllowed)
        toPython.fileHandleForWriting.write(Data("round ".utf8) + name + Data("\n".utf8))
        guard let line = readLine(),
            let answer = try? JSONSerialization.jsonObject(with: line) as? [String: [String: Double]]
        else {
            throw BenchmarkError.verificationFailed(
                suite: "png", backend: "peers", detail: "python3 stopped answering")
        }
        return answer
    }

    /// Ends the process.
    func stop() {
        try? toPython.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func readLine() -> Data? {
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = buffered[buffered.startIndex..<newline]
                buffered = Data(buffered[(newline + 1)...])
                return Data(line)
            }
            let more = fromPython.fileHandleForReading.availableData
            if more.isEmpty { return nil }
            buffered += more
        }
    }
}
