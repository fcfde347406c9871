import Checksums
import Foundation
import Platform

/// The two generated images of `imagecache bench png`: a photo-like and a flat-gradient RGB8
/// image, filtered the way encoders do and compressed by zlib at level 6.
///
/// The pixels and filters are made here, deterministically; the package has no compressor, so
/// Python's `zlib` (the one real encoders link) compresses the filtered rows. Without
/// `python3` the images cannot be made, and the suite says so and goes on without them.
enum GeneratedPNG {
    /// One generated image: its name and its PNG file.
    struct Image {
        var name: String
        var file: [UInt8]
    }

    /// Noise over smooth shapes: a diagonal gradient, soft-edged discs of other colours, and
    /// ±4 of seeded noise in every sample, as in a photograph's sensor noise. Every row takes
    /// the filter with the smallest sum of absolute residuals, as libpng chooses, so the
    /// deflate stream is mostly literals with short matches, like a photograph's.
    static func photoLikePixels(width: Int, height: Int) -> [UInt8] {
        var generator = SplitMix64(seed: 0x5EED_0F_9407)
        struct Disc {
            var x: Int
            var y: Int
            var radius: Int
            var color: (Int, Int, Int)
        }
        let discs = (0..<24).map { _ in
            Disc(
                x: Int(generator.next() % UInt64(width)), y: Int(generator.next() % UInt64(height)),
                radius: 40 + Int(generator.next() % UInt64(max(1, width / 6))),
                color: (
                    Int(generator.next() % 256), Int(generator.next() % 256), Int(generator.next() % 256)
                ))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var red = 40 + 160 * x / width
                var green = 60 + 120 * y / height
                var blue = 200 - 150 * (x + y) / (width + height)
                for disc in discs {
                    let dx = x - disc.x
                    let dy = y - disc.y
                    let distance = dx * dx + dy * dy
                    let radius = disc.radius * disc.radius
                    guard distance < radius else { continue }
                    // Opaque inside, fading over the outer quarter of the radius.
                    let weight = min(256, 4 * 256 * (radius - distance) / radius)
                    red = (red * (256 - weight) + disc.color.0 * weight) >> 8
                    green = (green * (256 - weight) + disc.color.1 * weight) >> 8
                    blue = (blue * (256 - weight) + disc.color.2 * weight) >> 8
                }
                let noise = generator.next()
                let index = (y * width + x) * 3
                pixels[index] = clamp(red + Int(noise & 7) - 4)
                pixels[index + 1] = clamp(green + Int(noise >> 8 & 7) - 4)
                pixels[index + 2] = clamp(blue + Int(noise >> 16 & 7) - 4)
            }
        }
        return pixels
    }

    /// A flat gradient: red along x, green along y, blue along the diagonal, no noise.
    static func gradientPixels(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                pixels[index] = UInt8(255 * x / max(1, width - 1))
                pixels[index + 1] = UInt8(255 * y / max(1, height - 1))
                pixels[index + 2] = UInt8(255 * (x + y) / max(1, width + height - 2))
            }
        }
        return pixels
    }

    private static func clamp(_ value: Int) -> UInt8 { UInt8(min(255, max(0, value))) }

    /// The filtered image data: each row preceded by the filter (0–4) whose residuals have the
    /// smallest sum of absolute values taken as signed bytes (libpng's heuristic).
    static func filterRows(_ pixels: [UInt8], width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        var filtered: [UInt8] = []
        filtered.reserveCapacity(height * (rowBytes + 1))
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5)
        for y in 0..<height {
            let row = y * rowBytes
            for index in 0..<rowBytes {
                let current = Int(pixels[row + index])
                let left = index >= bytesPerPixel ? Int(pixels[row + index - bytesPerPixel]) : 0
                let up = y > 0 ? Int(pixels[row - rowBytes + index]) : 0
                let upLeft =
                    y > 0 && index >= bytesPerPixel ? Int(pixels[row - rowBytes + index - bytesPerPixel]) : 0
                let estimate = left + up - upLeft
                let (pa, pb, pc) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                let paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                candidates[0][index] = UInt8(current)
                candidates[1][index] = UInt8(truncatingIfNeeded: current - left)
                candidates[2][index] = UInt8(truncatingIfNeeded: current - up)
                candidates[3][index] = UInt8(truncatingIfNeeded: current - (left + up) / 2)
                candidates[4][index] = UInt8(truncatingIfNeeded: current - paeth)
            }
            let costs = candidates.map { $0.reduce(0) { $0 + abs(Int(Int8(bitPattern: $1))) } }
            let best = costs.indices.min { costs[$0] < costs[$1] }!
            filtered.append(UInt8(best))
            filtered += candidates[best]
        }
        return filtered
    }

    /// Compresses `data` with Python's `zlib` at `level`; nil with the reason when `python3`
    /// cannot do it.
    static func zlibCompress(_ data: [UInt8], level: Int, scratch: URL) throws -> Result<[UInt8], Skip> {
        let input = scratch.appendingPathComponent("generated-filtered.raw")
        let output = scratch.appendingPathComponent("generated-compressed.zlib")
        try BenchmarkError.onScratch { () throws(SystemCallError) in
            try FileSystem.writeFile(data, toPath: input.path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zlib; open(sys.argv[2], 'wb').write(zlib.compress(open(sys.argv[1], 'rb').read(), "
                + "int(sys.argv[3])))",
            input.path, output.path, String(level),
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(Skip(reason: "python3 could not be started (\(error))"))
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let compressed = try FileSystem.readFile(atPath: output.path)
        else {
            return .failure(Skip(reason: "python3 could not compress (status \(process.terminationStatus))"))
        }
        try? FileSystem.remove(input.path)
        try? FileSystem.remove(output.path)
        return .success(compressed)
    }

    /// Why something the suite wanted to measure was left out.
    struct Skip: Error {
        var reason: String
    }

    /// An RGB8 PNG file around a zlib stream: signature, IHDR, one IDAT, IEND.
    static func file(width: Int, height: Int, zlibStream: [UInt8]) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body
                + bigEndian(body.withUnsafeBytes { CRC32.checksum(of: $0) })
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", zlibStream) + chunk("IEND", [])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Makes both images at `side` × `side`; `.failure` when Python cannot compress them.
    static func make(side: Int, scratch: URL) throws -> Result<[Image], Skip> {
        var images: [Image] = []
        for (name, pixels) in [
            ("photo-like-\(side)-rgb8", photoLikePixels(width: side, height: side)),
            ("gradient-\(side)-rgb8", gradientPixels(width: side, height: side)),
        ] {
            let filtered = filterRows(pixels, width: side, height: side, bytesPerPixel: 3)
            switch try zlibCompress(filtered, level: 6, scratch: scratch) {
            case .failure(let skip): return .failure(skip)
            case .success(let stream):
                images.append(Image(name: name, file: file(width: side, height: side, zlibStream: stream)))
            }
        }
        return .success(images)
    }
}
