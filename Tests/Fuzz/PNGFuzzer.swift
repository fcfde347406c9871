// libFuzzer entry point for the PNG decoder (not a SwiftPM target). Build and run it with
// `Tests/Fuzz/run.sh png SECONDS` (README.md, "Fuzzing"), which compiles it into one module
// with Sources/Checksums, Sources/Inflate and Sources/PNG.
//
// Each input must decode or throw a PNGError; a crash, a sanitizer report, a hang or a
// broken invariant below is a finding. The invariants: the pixels have the size the header
// implies; decodeBitmap, which converts row by row as it decodes (Spec/png.md §10.2), gives
// exactly decode(_:).bitmap() and fails exactly when decode(_:) does; and whatever decodes
// re-encodes canonically and decodes to the same bitmap.

/// Limits small enough that libFuzzer's memory cap (2 GB by default) is never the failure.
let fuzzLimits = PNGLimits(maximumPixelCount: 1 << 22, maximumDecompressedBytes: 1 << 25)

@_cdecl("LLVMFuzzerTestOneInput")
public func pngFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let decoder = PNGDecoder(limits: fuzzLimits)
    let decoded = Result { () throws(PNGError) in try decoder.decode(bytes) }
    let streamed = Result { () throws(PNGError) in try decoder.decodeBitmap(bytes) }
    precondition(streamed == decoded.map { $0.bitmap() }, "decodeBitmap differs from decode(_:).bitmap()")
    guard case .success(let image) = decoded else { return 0 }
    // The native pixels have exactly the size the header implies.
    precondition(image.pixels.count == image.header.bytesPerRow * image.header.height)
    let rgba = image.rgba()
    precondition(rgba.pixels.count == rgba.width * rgba.height * rgba.format.bytesPerPixel)
    // Whatever decodes re-encodes canonically and decodes to the same bitmap.
    let bitmap = image.bitmap()
    guard let encoded = try? PNGEncoder.encode(bitmap) else {
        preconditionFailure("a decoded bitmap failed to encode")
    }
    guard let again = try? PNGDecoder(limits: .unlimited).decodeBitmap(encoded), again == bitmap else {
        preconditionFailure("the canonical encoding of a decoded bitmap did not round-trip")
    }
    return 0
}
