import Foundation

extension Expectation {
    /// Locates the first difference of two byte or character sequences and shows the
    /// neighbourhood of both sides (Spec/conformance.md §6.4).
    enum Difference {
        /// How many elements a window shows before and after the first difference.
        static let radius = 16

        /// The first offset at which `expected` and `got` differ outside `ignored`: the first
        /// unequal element, else the end of the shorter side; nil when they are equal.
        static func first<Element: Equatable>(
            _ expected: [Element], _ got: [Element], ignoring ignored: [Range<Int>]
        ) -> Int? {
            for index in 0..<min(expected.count, got.count)
            where expected[index] != got[index] && !ignored.contains(where: { $0.contains(index) }) {
                return index
            }
            return expected.count == got.count ? nil : min(expected.count, got.count)
        }

        /// Nil when the bytes are equal outside `ignored`, else the offset, both lengths and a
        /// hex window of each side. `total` is the length of the data both sides begin when it
        /// is longer than they are (a `$length` pattern compares only the first bytes).
        static func bytes(
            expected: [UInt8], got: [UInt8], ignoring ignored: [Range<Int>], place: String,
            of total: Int? = nil
        ) -> Mismatch? {
            guard let offset = first(expected, got, ignoring: ignored) else { return nil }
            let message =
                expected.count == got.count
                ? "\(place): bytes differ at offset \(offset) of \(total ?? expected.count)"
                : "\(place): expected \(count(expected.count, "byte")), got \(got.count);"
                    + " first difference at offset \(offset)"
            let hex = { (byte: UInt8) in String(byte, radix: 16).leftPadded(to: 2) }
            return Mismatch(
                message: message,
                details: window(
                    expected: expected, got: got, at: offset, separator: " ", quote: "", render: hex))
        }

        /// The offset (in Unicode scalars), both lengths and the text around the difference.
        static func characters(
            expected: [Unicode.Scalar], got: [Unicode.Scalar], at offset: Int, place: String
        ) -> Mismatch {
            let message =
                expected.count == got.count
                ? "\(place): strings differ at character \(offset) of \(expected.count)"
                : "\(place): expected \(count(expected.count, "character")), got \(got.count);"
                    + " first difference at character \(offset)"
            // Each character as it would appear inside a JSON string, so controls stay visible.
            let render = { (scalar: Unicode.Scalar) in
                String(JSONValue.string(String(scalar)).jsonText.dropFirst().dropLast())
            }
            let lines = window(
                expected: expected, got: got, at: offset, separator: "", quote: "\"", render: render)
            return Mismatch(message: message, details: lines)
        }

        /// Two aligned lines, `expected @START: …` and `got      @START: …`, each showing the
        /// elements from `offset - radius` to `offset + radius` that exist, the one at
        /// `offset` in brackets, or `[end]` where that side has already ended; `quote` goes
        /// around each line's elements.
        private static func window<Element>(
            expected: [Element], got: [Element], at offset: Int, separator: String, quote: String,
            render: (Element) -> String
        ) -> [String] {
            let start = max(0, offset - radius)
            func line(_ elements: [Element]) -> String {
                var parts: [String] = []
                for index in start..<min(elements.count, offset + radius + 1) {
                    parts.append(index == offset ? "[\(render(elements[index]))]" : render(elements[index]))
                }
                var text = quote + parts.joined(separator: separator) + quote
                if offset >= elements.count { text += (parts.isEmpty ? "" : " ") + "[end]" }
                return text
            }
            return ["expected @\(start): " + line(expected), "got      @\(start): " + line(got)]
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
