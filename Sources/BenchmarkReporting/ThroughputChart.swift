import Benchmarks
import Foundation

/// A hand-written SVG line chart of throughput against value size: one panel per operation
/// (write, read), one line per backend plus the baseline, on log-log axes (value size in powers
/// of two from 4 KiB to 64 MiB, MB/s in decades), with ticks, grid, legend and title.
///
/// Every line is a `<path>` with `class="series"`, `data-op` and `data-backend` attributes, and
/// every point a circle whose `<title>` gives the exact figure, so the file is both a picture and
/// a checkable artefact. No dependency: the text is built by hand and is well-formed XML.
public struct ThroughputChart: Sendable {
    public struct Point: Sendable, Equatable {
        /// Value size in bytes.
        public var size: Int
        /// Megabytes (10^6 bytes) per second.
        public var megabytesPerSecond: Double
        /// Relative spread of the timing behind the figure.
        public var spread: Double

        public init(size: Int, megabytesPerSecond: Double, spread: Double) {
            self.size = size
            self.megabytesPerSecond = megabytesPerSecond
            self.spread = spread
        }
    }

    public struct Series: Sendable, Equatable {
        public var backend: String
        /// Drawn dashed, in grey: the reference, not a backend.
        public var isBaseline: Bool
        public var points: [Point]

        public init(backend: String, isBaseline: Bool, points: [Point]) {
            self.backend = backend
            self.isBaseline = isBaseline
            self.points = points
        }
    }

    public struct Panel: Sendable, Equatable {
        /// The operation, for example `write`.
        public var operation: String
        public var series: [Series]

        public init(operation: String, series: [Series]) {
            self.operation = operation
            self.series = series
        }
    }

    public var title: String
    /// One or two lines under the title (split at newlines): the machine and the run.
    public var subtitle: String
    public var panels: [Panel]
    /// The x axis always spans these sizes, so charts from different runs line up.
    public var smallestSize = 4096
    public var largestSize = 64 << 20

    public init(title: String, subtitle: String, panels: [Panel]) {
        self.title = title
        self.subtitle = subtitle
        self.panels = panels
    }

    // MARK: Layout, in SVG user units

    static let panelWidth = 400.0
    static let panelGap = 90.0
    static let left = 80.0
    static let top = 110.0
    static let plotHeight = 300.0
    static let right = 40.0

    var width: Double {
        ThroughputChart.left + Double(panels.count) * ThroughputChart.panelWidth
            + Double(max(panels.count - 1, 0)) * ThroughputChart.panelGap + ThroughputChart.right
    }
    var height: Double { ThroughputChart.top + ThroughputChart.plotHeight + 110 }

    /// Colours for the backends in a fixed order, picked to stay distinct for colour-blind readers
    /// (Okabe and Ito's palette); the baseline is grey and dashed.
    static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442"]
    static let baselineColour = "#555555"

    // MARK: Rendering

    /// The chart as a standalone SVG document.
    public func svg() -> String {
        var out = SVGText()
        out.line(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(SVGText.number(width))\" "
                + "height=\"\(SVGText.number(height))\" viewBox=\"0 0 \(SVGText.number(width)) "
                + "\(SVGText.number(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
        )
        out.line("<title>\(SVGText.escape(title))</title>")
        out.line("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>")
        out.line(
            "<text x=\"\(SVGText.number(width / 2))\" y=\"28\" text-anchor=\"middle\" font-size=\"18\" "
                + "font-weight=\"bold\">\(SVGText.escape(title))</text>")
        for (index, line) in subtitle.split(separator: "\n").enumerated() {
            out.line(
                "<text x=\"\(SVGText.number(width / 2))\" y=\"\(48 + 16 * index)\" text-anchor=\"middle\" "
                    + "fill=\"#444444\">\(SVGText.escape(String(line)))</text>")
        }
        let colours = colourMap()
        for (index, panel) in panels.enumerated() {
            let originX =
                ThroughputChart.left + Double(index) * (ThroughputChart.panelWidth + ThroughputChart.panelGap)
            draw(panel, originX: originX, colours: colours, into: &out)
        }
        drawLegend(colours: colours, into: &out)
        out.line("</svg>")
        return out.text
    }

    func colourMap() -> [String: String] {
        var map: [String: String] = [:]
        var next = 0
        for panel in panels {
            for series in panel.series where map[series.backend] == nil {
                if series.isBaseline {
                    map[series.backend] = ThroughputChart.baselineColour
                } else {
                    map[series.backend] = ThroughputChart.palette[next % ThroughputChart.palette.count]
                    next += 1
                }
            }
        }
        return map
    }

    /// The backends in legend order, with whether each is the baseline.
    func legendEntries() -> [(backend: String, isBaseline: Bool)] {
        var entries: [(backend: String, isBaseline: Bool)] = []
        for panel in panels {
            for series in panel.series where !entries.contains(where: { $0.backend == series.backend }) {
                entries.append((series.backend, series.isBaseline))
            }
        }
        return entries
    }

    private func draw(_ panel: Panel, originX: Double, colours: [String: String], into out: inout SVGText) {
        let plotWidth = ThroughputChart.panelWidth
        let plotHeight = ThroughputChart.plotHeight
        let top = ThroughputChart.top
        let bottom = top + plotHeight
        let axis = LogAxis(values: panel.series.flatMap { $0.points.map(\.megabytesPerSecond) })
        let smallest = log2(Double(smallestSize))
        let largest = log2(Double(largestSize))
        func x(_ size: Int) -> Double {
            originX + (log2(Double(size)) - smallest) / (largest - smallest) * plotWidth
        }
        func y(_ rate: Double) -> Double {
            bottom - axis.position(of: rate) * plotHeight
        }

        out.line("<g class=\"panel\" data-op=\"\(SVGText.escape(panel.operation))\">")
        out.line(
            "<text x=\"\(SVGText.number(originX + plotWidth / 2))\" y=\"\(SVGText.number(top - 14))\" "
                + "text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">"
                + "\(SVGText.escape(panel.operation.capitalized)) throughput</text>")

        // Horizontal grid and y ticks.
        for tick in axis.ticks {
            let position = y(tick.value)
            out.line(
                "<line x1=\"\(SVGText.number(originX))\" y1=\"\(SVGText.number(position))\" "
                    + "x2=\"\(SVGText.number(originX + plotWidth))\" y2=\"\(SVGText.number(position))\" "
                    + "stroke=\"\(tick.major ? "#cccccc" : "#eeeeee")\" stroke-width=\"1\"/>")
            if tick.labelled {
                out.line(
                    "<text x=\"\(SVGText.number(originX - 6))\" y=\"\(SVGText.number(position + 4))\" "
                        + "text-anchor=\"end\">\(SVGText.escape(Formatting.tick(tick.value)))</text>")
            }
        }
        // Vertical grid and x ticks: every power of 4 is labelled, every power of 2 has a line.
        var exponent = Int(smallest)
        while Double(exponent) <= largest {
            let size = 1 << exponent
            let position = x(size)
            let labelled = (exponent - Int(smallest)) % 2 == 0
            out.line(
                "<line x1=\"\(SVGText.number(position))\" y1=\"\(SVGText.number(top))\" "
                    + "x2=\"\(SVGText.number(position))\" y2=\"\(SVGText.number(bottom))\" "
                    + "stroke=\"\(labelled ? "#cccccc" : "#eeeeee")\" stroke-width=\"1\"/>")
            if labelled {
                out.line(
                    "<line x1=\"\(SVGText.number(position))\" y1=\"\(SVGText.number(bottom))\" "
                        + "x2=\"\(SVGText.number(position))\" y2=\"\(SVGText.number(bottom + 5))\" "
                        + "stroke=\"#000000\"/>")
                out.line(
                    "<text x=\"\(SVGText.number(position))\" y=\"\(SVGText.number(bottom + 19))\" "
                        + "text-anchor=\"middle\">\(SVGText.escape(Formatting.bytes(size)))</text>")
            }
            exponent += 1
        }
        // Axes and their titles.
        out.line(
            "<path class=\"axis\" d=\"M\(SVGText.number(originX)) \(SVGText.number(top)) "
                + "V\(SVGText.number(bottom)) H\(SVGText.number(originX + plotWidth))\" "
                + "fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"/>")
        out.line(
            "<text x=\"\(SVGText.number(originX + plotWidth / 2))\" y=\"\(SVGText.number(bottom + 40))\" "
                + "text-anchor=\"middle\">value size (log scale)</text>")
        let middle = top + plotHeight / 2
        out.line(
            "<text x=\"\(SVGText.number(originX - 58))\" y=\"\(SVGText.number(middle))\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 \(SVGText.number(originX - 58)) \(SVGText.number(middle)))\">"
                + "MB/s (log scale)</text>")

        // One line per backend, then its points on top.
        for series in panel.series {
            let points = series.points.filter { $0.megabytesPerSecond > 0 && $0.megabytesPerSecond.isFinite }
                .sorted { $0.size < $1.size }
            guard !points.isEmpty else { continue }
            let colour = colours[series.backend] ?? ThroughputChart.baselineColour
            let path = points.enumerated().map { index, point in
                (index == 0 ? "M" : "L") + SVGText.number(x(point.size)) + " "
                    + SVGText.number(y(point.megabytesPerSecond))
            }.joined(separator: " ")
            let dash = series.isBaseline ? " stroke-dasharray=\"6 4\"" : ""
            out.line(
                "<path class=\"series\" data-op=\"\(SVGText.escape(panel.operation))\" "
                    + "data-backend=\"\(SVGText.escape(series.backend))\" d=\"\(path)\" fill=\"none\" "
                    + "stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>")
            for point in points {
                out.line(
                    "<circle cx=\"\(SVGText.number(x(point.size)))\" cy=\"\(SVGText.number(y(point.megabytesPerSecond)))\" "
                        + "r=\"3\" fill=\"\(colour)\"><title>"
                        + SVGText.escape(
                            "\(series.backend) \(panel.operation), \(Formatting.bytes(point.size)) values: "
                                + "\(Formatting.rate(point.megabytesPerSecond)) MB/s \(Formatting.spread(point.spread))"
                        )
                        + "</title></circle>")
            }
        }
        out.line("</g>")
    }

    private func drawLegend(colours: [String: String], into out: inout SVGText) {
        let entries = legendEntries()
        let spacing = 130.0
        let y = ThroughputChart.top + ThroughputChart.plotHeight + 78
        var x = (width - Double(entries.count) * spacing) / 2
        out.line("<g class=\"legend\">")
        for entry in entries {
            let colour = colours[entry.backend] ?? ThroughputChart.baselineColour
            let dash = entry.isBaseline ? " stroke-dasharray=\"6 4\"" : ""
            out.line(
                "<line x1=\"\(SVGText.number(x))\" y1=\"\(SVGText.number(y))\" x2=\"\(SVGText.number(x + 28))\" "
                    + "y2=\"\(SVGText.number(y))\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>")
            let label = entry.isBaseline ? "\(entry.backend) (baseline)" : entry.backend
            out.line(
                "<text x=\"\(SVGText.number(x + 34))\" y=\"\(SVGText.number(y + 4))\">\(SVGText.escape(label))</text>"
            )
            x += spacing
        }
        out.line("</g>")
    }
}

/// A logarithmic axis over positive values: whole decades around the data, with ticks at 1, 2
/// and 5 times each power of ten.
struct LogAxis {
    struct Tick {
        var value: Double
        /// A power of ten.
        var major: Bool
        var labelled: Bool
    }

    /// log10 of the axis's lower and upper ends.
    var lower: Double
    var upper: Double

    init(values: [Double]) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let low = positive.min() ?? 1
        let high = positive.max() ?? 10
        lower = floor(log10(low))
        upper = ceil(log10(high))
        if upper <= lower { upper = lower + 1 }
    }

    /// Where `value` falls, from 0 at the bottom to 1 at the top.
    func position(of value: Double) -> Double {
        (log10(value) - lower) / (upper - lower)
    }

    var ticks: [Tick] {
        let decades = Int(upper - lower)
        var ticks: [Tick] = []
        var exponent = Int(lower)
        while Double(exponent) <= upper {
            let base = pow(10, Double(exponent))
            for multiple in [1.0, 2.0, 5.0] {
                let value = base * multiple
                guard log10(value) <= upper + 1e-9 else { break }
                // With few decades every tick is labelled; with many, only the powers of ten.
                ticks.append(
                    Tick(value: value, major: multiple == 1, labelled: multiple == 1 || decades <= 2))
            }
            exponent += 1
        }
        return ticks
    }
}

/// Builds SVG text line by line, escaping what XML requires.
struct SVGText {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    mutating func line(_ line: String) {
        text += line + "\n"
    }

    /// Text or an attribute value with `&`, `<`, `>`, `"` and `'` escaped, and the control
    /// characters XML 1.0 forbids replaced by spaces.
    static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A coordinate with at most one decimal, so paths stay short.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}
