// libFuzzer entry point for the PNG decoder (not a SwiftPM target). Build and run from the
// package root, as README.md's "Fuzzing" section shows:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -D IMAGECACHE_SINGLE_MODULE \
//       Sources/Checksums/*.swift Sources/Inflate/*.swift Sources/PNG/*.swift \
//       Tests/Fuzz/PNGFuzzer.swift -o /tmp/png-fuzzer
//   /tmp/png-fuzzer -max_total_time=300 -max_len=65536 /tmp/png-corpus
//
// Each input must decode or throw a PNGError; a crash, a sanitizer report, a hang or a
// broken invariant below is a finding.

/// Limits small enough that libFuzzer's memory cap (2 GB by default) is never the failure.
let fuzzLimits = PNGLimits(maximumPixelCount: 1 << 22, maximumDecompressedBytes: 1 << 25)

@_cdecl("LLVMFuzzerTestOneInput")
public func pngFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let image = try? PNGDecoder(limits: fuzzLimits).decode(bytes) else { return 0 }
    // The native pixels have exactly the size the header implies.
    precondition(image.pixels.count == image.header.bytesPerRow * image.header.height)
    let rgba = image.rgba()
    precondition(rgba.pixels.count == rgba.width * rgba.height * rgba.format.bytesPerPixel)
    // Whatever decodes re-encodes canonically and decodes to the same bitmap.
    let bitmap = image.bitmap()
    guard let encoded = try? PNGEncoder.encode(bitmap) else { preconditionFailure("a decoded bitmap failed to encode") }
    guard let again = try? PNGDecoder(limits: .unlimited).decodeBitmap(encoded), again == bitmap else {
        preconditionFailure("the canonical encoding of a decoded bitmap did not round-trip")
    }
    return 0
}
