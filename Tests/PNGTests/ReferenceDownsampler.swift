@testable import PNG

/// `Spec/thumbnail.md` §2 written out literally and slowly, sharing no code with the
/// `Downsampler`: the weights of §2.1 by their defining formula, every target pixel summed over
/// every source pixel with a non-zero weight, no weight reduced, one division per sample.
enum ReferenceDownsampler {
    /// For each target pixel `j`, every source pixel `i` with `w(j, i) > 0`, and that weight.
    static func axisWeights(source s: Int, target d: Int) -> [[(index: Int, weight: UInt64)]] {
        (0..<d).map { j in
            (0..<s).compactMap { i in
                let overlap = min((i + 1) * d, (j + 1) * s) - max(i * d, j * s)
                return overlap > 0 ? (i, UInt64(overlap)) : nil
            }
        }
    }

    static func sample(_ pixels: [UInt8], _ index: Int, wide: Bool) -> UInt64 {
        wide ? UInt64(pixels[2 * index]) << 8 | UInt64(pixels[2 * index + 1]) : UInt64(pixels[index])
    }

    /// R(p, q) of §2.6 with the doubled remainder, in 128 bits so that nothing overflows.
    static func rounded(_ p: UInt64, _ q: UInt64) -> UInt64 {
        let remainder = p % q
        return p / q + (remainder.multipliedFullWidth(by: 2).high > 0 || 2 * remainder >= q ? 1 : 0)
    }

    /// The pixels of `bitmap` reduced to `width × height` by §2.3 to §2.6.
    static func downsample(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
        let channels = bitmap.format.channels
        let wide = bitmap.format.bytesPerSample == 2
        let alpha = channels == 2 || channels == 4
        let columns = axisWeights(source: bitmap.width, target: width)
        let rows = axisWeights(source: bitmap.height, target: height)
        let total = UInt64(bitmap.width * bitmap.height)
        var values: [UInt64] = []
        for y in 0..<height {
            for x in 0..<width {
                var sums = [UInt64](repeating: 0, count: channels)
                for (l, rowWeight) in rows[y] {
                    for (i, columnWeight) in columns[x] {
                        let weight = rowWeight * columnWeight
                        let base = (l * bitmap.width + i) * channels
                        let a = alpha ? sample(bitmap.pixels, base + channels - 1, wide: wide) : 1
                        for c in 0..<channels {
                            let value = sample(bitmap.pixels, base + c, wide: wide)
                            sums[c] += alpha && c < channels - 1 ? weight * value * a : weight * value
                        }
                    }
                }
                if alpha {
                    let alphaSum = sums[channels - 1]
                    values += sums.dropLast().map { alphaSum == 0 ? 0 : rounded($0, alphaSum) }
                    values.append(rounded(alphaSum, total))
                } else {
                    values += sums.map { rounded($0, total) }
                }
            }
        }
        return values.flatMap { wide ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0)] }
    }
}
