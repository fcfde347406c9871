// Vendoring smoke test: the PNG codec copied as four modules (Checksums, Inflate, Platform, PNG).
import PNG

let pixels: [UInt8] = (0..<(7 * 5 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
let bitmap = try Bitmap(width: 7, height: 5, format: .rgba8, pixels: pixels)
let file = try PNGEncoder.encode(bitmap)
let decoded = try PNGDecoder().decodeBitmap(file)
guard decoded == bitmap else { fatalError("PNG round trip differs") }
print("png smoke: \(file.count)-byte PNG decoded back to the same \(decoded.width)x\(decoded.height) bitmap")
