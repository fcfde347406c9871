import Checksums
import Foundation
import Inflate
import PNG
import Platform

/// `imagecache bench png`, the comparison with the C libraries (issue 20): our decoder beside
/// libspng and libpng, and our inflater beside libdeflate, zlib and zlib-ng, on the same files,
/// in the same run, on one core.
///
/// The files: the generated photo-like and gradient images (``GeneratedPNG``), the committed
/// photo-like sample, the real photographs and illustrations of `Tests/Fixtures/Bench` (their
/// provenance is in its README), the valid PngSuite files as one entry (decoding each once),
/// and any files named on the command line. Inflate alone runs on the zlib stream of every
/// single-file entry (its IDAT chunks joined).
///
/// The suite pins itself to one processor (the last it may use, as `taskset -c N` would) and
/// the peers' Python process inherits the pin. Each round takes the entries in turn, and on each
/// times ours (decode, then inflate) and the peers' right after each other, taking turns at
/// going first. Each figure is the median over the rounds of one call's time, from a batch of
/// calls sized to take about 20 ms. `bytes` is our output's size for every line, so MB/s compare
/// as the times do; our lines carry `ratio_vs_LIBRARY`: the median over the rounds of the
/// peer's time over ours in the same round (above 1: we are faster). Paired so, a slow spell of
/// the shared machine moves both sides of a ratio; the ratio of the two medians could pair our
/// slow round with the peer's quiet one.
extension PNGBenchmark {
    /// The committed fixtures: real photographs and illustrations, and PngSuite.
    static let fixtures = photoSample.deletingLastPathComponent().deletingLastPathComponent()

    /// One entry of the comparison: its name, its files' bytes, and its zlib stream when it is a
    /// single file (for inflate alone).
    struct PeerEntry {
        var name: String
        var paths: [String]
        var files: [[UInt8]]
        var stream: [UInt8]?
        var inflatedSize = 0
    }

    static func comparePeers(quick: Bool, files: [String], scratch: URL, rounds: Int) throws
        -> [BenchmarkResult]
    {
        let processors = SystemProcess.allowedProcessors()
        var pinned: Int?
        if let last = processors?.last, SystemProcess.restrictToProcessors([last]) { pinned = last }
        defer { if let processors { SystemProcess.restrictToProcessors(processors) } }
        if pinned == nil { note("could not pin to one processor; timings use every core the system gives") }

        var entries: [PeerEntry] = []
        func single(_ name: String, _ path: String, _ bytes: [UInt8]) throws {
            var entry = PeerEntry(name: name, paths: [path], files: [bytes])
            let stream = try imageDataStream(bytes)
            entry.stream = stream
            entry.inflatedSize = try Decompressor.zlibDecompress(stream).count
            entries.append(entry)
        }
        switch try GeneratedPNG.make(side: quick ? 1024 : 2048, scratch: scratch) {
        case .failure(let skip): note("the generated images are left out: \(skip.reason)")
        case .success(let images):
            for image in images {
                let path = scratch.appendingPathComponent(image.name + ".png").path
                try BenchmarkError.onScratch { () throws(SystemCallError) in
                    try FileSystem.writeFile(image.file, toPath: path)
                }
                try single(image.name, path, image.file)
            }
        }
        var named = [photoSample.path]
        let bench = fixtures.appendingPathComponent("Bench")
        if let listing = try? pngFiles(in: bench.path) {
            named += listing.sorted().map {
                bench.appendingPathComponent($0).path
            }
        }
        for path in named + files {
            let bytes = try readInputFile(path)
            try single(URL(fileURLWithPath: path).lastPathComponent, path, bytes)
        }
        let suiteFolder = fixtures.appendingPathComponent("PngSuite")
        if let listing = try? pngFiles(in: suiteFolder.path) {
            // The x… files are PngSuite's corrupt ones; everything else must decode.
            let paths = listing.filter { !$0.hasPrefix("x") }.sorted().map {
                suiteFolder.appendingPathComponent($0).path
            }
            let bytes = try paths.map(readInputFile)
            entries.append(PeerEntry(name: "PngSuite", paths: paths, files: bytes))
        }

        var manifest: [PNGPeers.Entry] = entries.map { PNGPeers.Entry(name: $0.name, paths: $0.paths) }
        for entry in entries {
            guard let stream = entry.stream else { continue }
            let path = scratch.appendingPathComponent(entry.name + ".zlib").path
            try BenchmarkError.onScratch { () throws(SystemCallError) in
                try FileSystem.writeFile(stream, toPath: path)
            }
            manifest.append(PNGPeers.Entry(name: entry.name, paths: [path], inflatedSize: entry.inflatedSize))
        }
        var peers: PNGPeers?
        var hello: PNGPeers.Hello?
        switch try PNGPeers.start(entries: manifest, scratch: scratch) {
        case .failure(let skip): note("every peer is left out: \(skip.reason)")
        case .success(let started): (peers, hello) = started
        }
        defer { peers?.stop() }
        for reason in hello?.skipped ?? [] { note("left out: \(reason)") }
        // A several-file entry times only the files every peer reads.
        for index in entries.indices where entries[index].paths.count > 1 {
            guard let kept = hello?.paths[entries[index].name] else { continue }
            let keep = Set(kept)
            let pairs = zip(entries[index].paths, entries[index].files).filter { keep.contains($0.0) }
            entries[index].paths = pairs.map(\.0)
            entries[index].files = pairs.map(\.1)
        }

        // Our outputs: the bytes each entry decodes to, and a check against libspng's where the
        // two produce the same layout.
        var outputBytes: [String: Int] = [:]
        for entry in entries {
            var total = 0
            for (index, file) in entry.files.enumerated() {
                let bitmap = try PNGDecoder().decodeBitmap(file)
                total += bitmap.pixels.count
                guard index == 0, bitmap.format.bytesPerSample == 1,
                    let spng = hello?.digests[entry.name]?.first(where: { $0.key.hasPrefix("libspng") })?
                        .value,
                    spng.count == bitmap.pixels.count
                else { continue }
                let crc = bitmap.pixels.withUnsafeBytes { CRC32.checksum(of: $0) }
                guard crc == spng.crc else {
                    throw BenchmarkError.verificationFailed(
                        suite: "png", backend: "imagecache", detail: "\(entry.name) decodes unlike libspng")
                }
            }
            outputBytes[entry.name] = total
        }

        // Python answers by entry name; an inflate entry shares its name with its decode entry
        // and is told apart by the peer's kind.
        let kinds = Dictionary(hello?.peers.map { ($0.name, $0.kind) } ?? [], uniquingKeysWith: { a, _ in a })
        var ours: [String: [Double]] = [:]
        var oursInflate: [String: [Double]] = [:]
        // Each peer's time beside ours from the same round, by entry and kind, then peer.
        var pairs: [String: [String: [(ours: Double, theirs: Double)]]] = [:]
        var batches: [String: Int] = [:]
        func time(_ key: String, _ work: () throws -> Void) rethrows -> Double {
            if batches[key] == nil {
                let start = MonotonicClock.now()
                try work()
                batches[key] = max(1, min(1000, Int(0.02 / max(MonotonicClock.seconds(since: start), 1e-7))))
            }
            let count = batches[key]!
            let start = MonotonicClock.now()
            for _ in 0..<count { try work() }
            return MonotonicClock.seconds(since: start) / Double(count)
        }
        for round in 0..<rounds {
            for entry in entries where !entry.files.isEmpty {
                // Ours and the peers' on one entry follow each other within a fraction of a
                // second, and take turns at going first.
                var theirs: [String: Double] = [:]
                func peersRound() throws {
                    theirs = try peers?.round(entry: entry.name)[entry.name] ?? [:]
                }
                if round % 2 == 1 { try peersRound() }
                let decode = try time("decode " + entry.name) {
                    for file in entry.files { _ = try PNGDecoder().decodeBitmap(file) }
                }
                ours[entry.name, default: []].append(decode)
                var inflate: Double?
                if let stream = entry.stream {
                    let size = entry.inflatedSize
                    let seconds = try time("inflate " + entry.name) {
                        _ = try Decompressor.zlibDecompress(stream, expectedSize: size, limit: size)
                    }
                    oursInflate[entry.name, default: []].append(seconds)
                    inflate = seconds
                }
                if round % 2 == 0 { try peersRound() }
                for (peer, seconds) in theirs {
                    guard let kind = kinds[peer], let mine = kind == "decode" ? decode : inflate else {
                        continue
                    }
                    pairs[kind + " " + entry.name, default: [:]][peer, default: []].append((mine, seconds))
                }
            }
        }
        var results: [BenchmarkResult] = []
        for entry in entries where !entry.files.isEmpty {
            for (op, kind, samples, bytes) in [
                ("compare-decode", "decode", ours[entry.name], outputBytes[entry.name] ?? 0),
                ("compare-inflate", "inflate", oursInflate[entry.name], entry.inflatedSize),
            ] {
                guard let samples else { continue }
                let summary = Summary(samples: samples)
                var extra: [(String, Double)] = [("files", Double(entry.files.count))]
                if let pinned { extra.append(("processor", Double(pinned))) }
                var peerLines: [BenchmarkResult] = []
                for (peer, paired) in (pairs[kind + " " + entry.name] ?? [:]).sorted(by: { $0.key < $1.key })
                {
                    let times = paired.map(\.theirs)
                    let theirSummary = Summary(samples: times)
                    let family = String(peer.split(separator: " ").first ?? "")
                    let ratio =
                        Summary.medianRatio(of: times, over: paired.map(\.ours))
                        ?? theirSummary.median / summary.median
                    extra.append(("ratio_vs_\(family)", ratio))
                    peerLines.append(
                        BenchmarkResult(
                            suite: "png", op: op, backend: peer, file: entry.name, bytes: bytes, count: 1,
                            seconds: theirSummary.median, spread: theirSummary.spread, repeats: times.count))
                }
                results.append(
                    BenchmarkResult(
                        suite: "png", op: op, backend: "imagecache", file: entry.name, bytes: bytes, count: 1,
                        seconds: summary.median, spread: summary.spread, repeats: samples.count, extra: extra)
                )
                results += peerLines
            }
        }
        return results
    }

    /// The names of the regular `.png` files in `folder`.
    static func pngFiles(in folder: String) throws(SystemCallError) -> [String] {
        try Directory(path: folder, followingLink: true).entries()
            .filter { $0.kind == .regular && $0.name.hasSuffix(".png") }.map(\.name)
    }

    /// The whole file at `path`, following a link (a person may name one); a missing file is
    /// ``Failure/unreadable(_:)``.
    static func readInputFile(_ path: String) throws -> [UInt8] {
        do {
            return try FileSystem.readToEnd(atPath: path)
        } catch {
            if error.errno == .noSuchFile { throw Failure.unreadable(path) }
            throw BenchmarkError.fileSystem(error)
        }
    }

    /// The zlib stream of a PNG file: its IDAT chunks' data, joined.
    static func imageDataStream(_ file: [UInt8]) throws -> [UInt8] {
        let structure = try PNGDecoder().readStructure(file)
        var stream: [UInt8] = []
        for chunk in structure.chunks where chunk.type == "IDAT" {
            stream += file[(chunk.offset + 8)..<(chunk.offset + 8 + chunk.length)]
        }
        return stream
    }

    static func note(_ message: String) {
        try? StandardStream.error.write(Array("bench png: \(message)\n".utf8))
    }
}
