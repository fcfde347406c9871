/// The Adam7 interlace passes (ISO/IEC 15948 §8.2, `Spec/png.md` §6.4).
enum Adam7 {
    /// One reduced image: where its pixels sit in the full image and its size.
    struct Pass {
        var xStart: Int, yStart: Int, xStep: Int, yStep: Int
        var width: Int, height: Int
    }

    /// (xStart, yStart, xStep, yStep) of passes 1–7.
    static let geometry: [(Int, Int, Int, Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The passes of an image, empty ones included (width or height 0); a non-interlaced
    /// image is one pass covering everything.
    static func passes(for header: PNGHeader) -> [Pass] {
        guard header.interlaced else {
            return [Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1, width: header.width, height: header.height)]
        }
        return geometry.map { xStart, yStart, xStep, yStep in
            Pass(
                xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep,
                width: header.width > xStart ? (header.width - xStart + xStep - 1) / xStep : 0,
                height: header.height > yStart ? (header.height - yStart + yStep - 1) / yStep : 0)
        }
    }
}
