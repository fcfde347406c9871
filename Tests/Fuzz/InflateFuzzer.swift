// libFuzzer entry point for the Inflate module alone (not a SwiftPM target). Build and run it
// with `Tests/Fuzz/run.sh inflate SECONDS`, which compiles it into one module with
// Sources/Checksums, Sources/Inflate and Tests/InflateTests/ReferenceInflater.swift.
//
// The first input byte chooses how the rest is decoded:
//   bit 7      raw DEFLATE (1) or zlib (0);
//   bits 0…2   the output limit, one of `fuzzLimits`;
//   bits 3…4   the size hint of the array form: nil, 0, the limit, or 300;
//   bits 5…6   the streaming window: history + 1 (only for limits up to 40,000 bytes, as it
//              moves 32 KiB per byte), history + 997, 40,000 bytes or the default.
// Every input must decode or throw an InflateError, and all three decoders must agree on it:
// the array form, the streaming form (whose pieces, joined, are the output) and the
// one-bit-at-a-time reference decoder of the test suite. Output never exceeds the limit.

/// Output limits, small enough that AddressSanitizer's memory cap is never the failure.
let fuzzLimits = [0, 1, 258, 4_096, 32_768, 40_000, 1 << 20, 1 << 22]

/// Streaming window sizes: the smallest possible, odd sizes, and the default.
let fuzzWindows = [
    Decompressor.windowHistory + 1, Decompressor.windowHistory + 997, 40_000,
    Decompressor.streamingWindowCapacity,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func inflateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let control = data[0]
    let raw = control & 0x80 != 0
    let limit = fuzzLimits[Int(control & 7)]
    let hint = [nil, 0, limit, 300][Int(control >> 3 & 3)]
    let choice = Int(control >> 5 & 3)
    let window = fuzzWindows[choice == 0 && limit > 40_000 ? 1 : choice]
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))

    let array = stream.withUnsafeBytes { input in
        Result { () throws(InflateError) in
            raw
                ? try Decompressor.rawInflate(input, expectedSize: hint, limit: limit)
                : try Decompressor.zlibDecompress(input, expectedSize: hint, limit: limit)
        }
    }
    let streamed = stream.withUnsafeBytes { input in
        Result { () throws(InflateError) in
            var output: [UInt8] = []
            let consume = { (piece: UnsafeRawBufferPointer) in
                precondition(!piece.isEmpty && piece.count <= window, "a piece outside the window")
                output.append(contentsOf: piece)
            }
            let produced =
                raw
                ? try Decompressor.rawInflate(input, limit: limit, windowCapacity: window, consume: consume)
                : try Decompressor.zlibDecompress(
                    input, limit: limit, windowCapacity: window, consume: consume)
            precondition(produced == output.count, "the count differs from the pieces")
            return output
        }
    }
    let reference =
        raw
        ? ReferenceInflater.raw(stream, limit: limit)
        : ReferenceInflater.zlib(stream, limit: limit)

    precondition(array == reference, "the array form disagrees with the reference decoder")
    precondition(streamed == array, "the streaming form disagrees with the array form")
    if case .success(let output) = array { precondition(output.count <= limit, "output past the limit") }
    return 0
}
