import Foundation
import TestSupport
import Testing

@testable import PNG

/// Runs the built `imagecache` binary (`Spec/png.md` §11).
@Suite struct PNGCommandTests {
    struct Run {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The executable next to the test bundle (`.build/<configuration>/imagecache`).
    static let executable: URL = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("imagecache")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("imagecache")
    }()

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    func expectOneLineFailure(
        _ run: Run, naming name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status != 0, sourceLocation: sourceLocation)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.isEmpty
        }
        #expect(lines.count == 1, "stderr: \(run.standardError)", sourceLocation: sourceLocation)
        #expect(
            run.standardError.contains(name), "stderr: \(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardOutput.isEmpty, sourceLocation: sourceLocation)
    }

    static func pam(width: Int, height: Int, depth: Int, maximum: Int, type: String, samples: [UInt8])
        -> [UInt8]
    {
        Array(
            "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH \(depth)\nMAXVAL \(maximum)\nTUPLTYPE \(type)\nENDHDR\n"
                .utf8) + samples
    }

    @Test func encodeThenDecodeEveryTupleType() throws {
        let directory = TemporaryDirectory()
        let types = [("GRAYSCALE", 1), ("GRAYSCALE_ALPHA", 2), ("RGB", 3), ("RGB_ALPHA", 4)]
        for (type, depth) in types {
            for maximum in [255, 65535] {
                let width = 5
                let height = 3
                let count = width * height * depth * (maximum == 255 ? 1 : 2)
                let samples = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ depth) }
                let input = directory.url.appendingPathComponent("\(type)-\(maximum).pam")
                let png = directory.url.appendingPathComponent("\(type)-\(maximum).png")
                try Data(
                    Self.pam(
                        width: width, height: height, depth: depth, maximum: maximum, type: type,
                        samples: samples)
                )
                .write(to: input)
                let encode = try Self.run(["png", "encode", input.path, png.path])
                #expect(encode.status == 0, "\(encode.standardError)")
                // The PNG holds exactly the PAM's samples, in the matching format.
                let bitmap = try PNGDecoder().decodeBitmap([UInt8](try Data(contentsOf: png)))
                #expect(bitmap.pixels == samples && bitmap.format.channels == depth, "\(type) \(maximum)")
                // Decoding writes the RGBA conversion.
                let output = directory.url.appendingPathComponent("\(type)-\(maximum)-out.pam")
                let decode = try Self.run(["png", "decode", png.path, output.path])
                #expect(decode.status == 0, "\(decode.standardError)")
                let rgba = try PNGDecoder().decode([UInt8](try Data(contentsOf: png))).rgba()
                let expected = Self.pam(
                    width: width, height: height, depth: 4, maximum: maximum, type: "RGB_ALPHA",
                    samples: rgba.pixels)
                #expect([UInt8](try Data(contentsOf: output)) == expected, "\(type) \(maximum)")
            }
        }
    }

    @Test func infoListsHeaderAndChunks() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("a.png")
        try Data(
            PNGEncoder.encode(
                Bitmap(width: 3, height: 2, format: .rgb16, pixels: [UInt8](repeating: 7, count: 36)))
        )
        .write(to: file)
        let run = try Self.run(["png", "info", file.path])
        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("width: 3") && lines.contains("height: 2") && lines.contains("bit depth: 16"))
        #expect(lines.contains("color type: 2 (truecolor)") && lines.contains("interlace: none"))
        // IDAT holds 2 + 5 + 2 × (1 + 18) + 4 = 49 bytes, so IEND starts at 33 + 12 + 49.
        #expect(lines.contains("  IHDR offset 8 length 13"))
        #expect(lines.contains("  IDAT offset 33 length 49"))
        #expect(lines.contains("  IEND offset 94 length 0"))
    }

    @Test func badInputFailsWithOneLine() throws {
        let directory = TemporaryDirectory()
        var png = try PNGEncoder.encode(Bitmap(width: 2, height: 2, format: .gray8, pixels: [1, 2, 3, 4]))
        png[png.count - 20] ^= 0xFF  // inside IDAT
        let corrupt = directory.url.appendingPathComponent("corrupt.png")
        try Data(png).write(to: corrupt)
        let out = directory.url.appendingPathComponent("out").path
        expectOneLineFailure(
            try Self.run(["png", "decode", corrupt.path, out]), naming: "chunkChecksumMismatch")
        expectOneLineFailure(try Self.run(["png", "info", corrupt.path]), naming: "chunkChecksumMismatch")
        #expect(!FileManager.default.fileExists(atPath: out))

        let notPNG = directory.url.appendingPathComponent("text.png")
        try Data("hello".utf8).write(to: notPNG)
        expectOneLineFailure(try Self.run(["png", "decode", notPNG.path, out]), naming: "invalidSignature")
        expectOneLineFailure(
            try Self.run(["png", "decode", directory.url.appendingPathComponent("missing.png").path, out]),
            naming: "cannot read")

        let cases: [([UInt8], String)] = [
            (Array("P6\n1 1\n255\n".utf8), "P7"),
            (
                Self.pam(width: 1, height: 1, depth: 3, maximum: 4095, type: "RGB", samples: [1, 2, 3]),
                "MAXVAL 4095"
            ),
            (
                Self.pam(width: 1, height: 1, depth: 3, maximum: 255, type: "CMYK", samples: [1, 2, 3]),
                "TUPLTYPE CMYK"
            ),
            (
                Self.pam(width: 1, height: 1, depth: 4, maximum: 255, type: "RGB", samples: [1, 2, 3, 4]),
                "DEPTH 4"
            ),
            (
                Self.pam(width: 2, height: 1, depth: 3, maximum: 255, type: "RGB", samples: [1, 2, 3]),
                "needs 6 bytes"
            ),
            (Self.pam(width: 0, height: 1, depth: 3, maximum: 255, type: "RGB", samples: []), "WIDTH"),
            (Array("P7\nWIDTH 1\n".utf8), "ENDHDR"),
        ]
        for (index, (bytes, message)) in cases.enumerated() {
            let pam = directory.url.appendingPathComponent("bad\(index).pam")
            try Data(bytes).write(to: pam)
            let run = try Self.run([
                "png", "encode", pam.path, directory.url.appendingPathComponent("bad.png").path,
            ])
            expectOneLineFailure(run, naming: "PAM error")
            #expect(run.standardError.contains(message), "\(run.standardError)")
        }
        expectOneLineFailure(try Self.run(["png", "frobnicate"]), naming: "no subcommand 'frobnicate'")
        // Exit statuses: damaged input 3, a file that cannot be read 4, usage 2 (`Spec/png.md` §11).
        #expect(try Self.run(["png", "info", corrupt.path]).status == 3)
        #expect(
            try Self.run(["png", "info", directory.url.appendingPathComponent("missing.png").path]).status
                == 4)
        #expect(try Self.run(["png", "info"]).status == 2)
    }
}
