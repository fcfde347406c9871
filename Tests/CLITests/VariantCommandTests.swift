import Foundation
import PNG
import TestSupport
import Testing

/// `imagecache variant` and `imagecache png resize` (`Spec/thumbnail.md` §5.8).
@Suite struct VariantCommandTests {
    static func png(width: Int, height: Int) throws -> [UInt8] {
        let pixels = (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        return try PNGEncoder.encode(try Bitmap(width: width, height: height, format: .rgba8, pixels: pixels))
    }

    @Test func resizeWritesTheCanonicalDownsampledPNG() throws {
        let scratch = TemporaryDirectory()
        let input = try Self.png(width: 30, height: 20)
        try Data(input).write(to: URL(fileURLWithPath: scratch.path + "/in.png"))
        let outcome = try imagecache(["png", "resize", "--max", "12", scratch.path + "/in.png", "-"])
        #expect(outcome.status == 0)
        let expected = try PNGDecoder().decodeBitmap(input).downsampled(toFit: 12)
        #expect(outcome.output == (try PNGEncoder.encode(expected)))
        #expect(try imagecache(["png", "resize", scratch.path + "/in.png", "-"]).status == 2)
        #expect(try imagecache(["png", "resize", "--max", "0", scratch.path + "/in.png", "-"]).status == 2)
    }

    @Test func variantWritesAndStoresTheVariant() throws {
        let scratch = TemporaryDirectory()
        let store = ["--store", scratch.path + "/cache"]
        let input = try Self.png(width: 40, height: 40)
        #expect(try imagecache(["put"] + store + ["photo", "-"], input: input).status == 0)
        let first = try imagecache(["variant"] + store + ["--max", "10", "photo"])
        #expect(first.status == 0)
        let expected = try PNGDecoder().decodeBitmap(input).downsampled(toFit: 10)
        #expect(first.output == (try PNGEncoder.encode(expected)))
        #expect(try imagecache(["stat"] + store).text.contains("\nvariants: 1\n"))
        #expect(try imagecache(["variant"] + store + ["--max", "10", "photo"]).output == first.output)
        #expect(try imagecache(["variant"] + store + ["--max", "10", "absent"]).status == 1)
        #expect(try imagecache(["put"] + store + ["raw", "-"], input: [1, 2, 3]).status == 0)
        #expect(try imagecache(["variant"] + store + ["--max", "10", "raw"]).status == 3)
        #expect(try imagecache(["variant"] + store + ["photo"]).status == 2)
        // Replacing the original drops its variant.
        #expect(try imagecache(["put"] + store + ["photo", "-"], input: input).status == 0)
        #expect(try imagecache(["stat"] + store).text.contains("\nvariants: 0\n"))
    }
}
