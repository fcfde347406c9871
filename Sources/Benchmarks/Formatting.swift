import Foundation

/// How figures are written for people: three significant digits, units chosen per value.
package enum Formatting {
    /// `4 KiB`, `64 MiB`, `1.5 GiB`, `512 B`: binary units, as value sizes are powers of two.
    package static func bytes(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while abs(value) >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let text = value == value.rounded() ? String(Int64(value)) : significant(value)
        return text + " " + units[unit]
    }

    /// `812 ns`, `12.3 µs`, `4.56 ms`, `1.23 s`.
    package static func duration(_ seconds: Double) -> String {
        switch abs(seconds) {
        case 0: return "0 s"
        case ..<1e-6: return significant(seconds * 1e9) + " ns"
        case ..<1e-3: return significant(seconds * 1e6) + " µs"
        case ..<1: return significant(seconds * 1e3) + " ms"
        default: return significant(seconds) + " s"
        }
    }

    /// `12.3 ms` written in milliseconds whatever its size, for columns that share a unit.
    package static func milliseconds(_ seconds: Double) -> String {
        significant(seconds * 1e3)
    }

    /// A rate such as operations or megabytes per second: `1 234 567` stays whole, small ones
    /// keep three significant digits.
    package static func rate(_ value: Double) -> String {
        significant(value)
    }

    /// An axis tick such as `0.5`, `20` or `10 000`: 1, 2 or 5 times a power of ten, exactly.
    package static func tick(_ value: Double) -> String {
        value >= 1 ? grouped(Int64(value.rounded())) : String(format: "%g", value)
    }

    /// The spread as a percentage: `±4%`, `±0.5%`.
    package static func spread(_ fraction: Double) -> String {
        let percent = fraction * 100
        return "±" + (percent < 10 ? String(format: "%.1f", percent) : String(format: "%.0f", percent)) + "%"
    }

    /// Three significant digits without exponent notation; thousands grouped by a space, as the
    /// project's anchor tables write them, so long numbers stay readable.
    package static func significant(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        if magnitude >= 1000 { return grouped(Int64(value.rounded())) }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        if magnitude == 0 { return "0" }
        return String(format: "%.3g", value)
    }

    package static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += " " }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}
