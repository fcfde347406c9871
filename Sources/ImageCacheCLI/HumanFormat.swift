/// Sizes and instants as people read them (`Spec/cache.md` §12.3).
enum HumanFormat {
    /// `n B` below 1 KiB; otherwise `n / 1024^k` in the largest unit (KiB, MiB, GiB, TiB, PiB,
    /// EiB) with 1024^k ≤ n, rounded half up to one decimal: 4096 → `4.0 KiB`, 1536 → `1.5 KiB`,
    /// 1,048,575 → `1024.0 KiB` (the unit is chosen before rounding).
    static func size<Number: BinaryInteger>(_ bytes: Number) -> String {
        let count = UInt64(clamping: bytes)
        guard count >= 1024 else { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var exponent = 1
        while exponent < units.count && count >> (10 * (exponent + 1)) > 0 { exponent += 1 }
        let unit = UInt64(1) << (10 * exponent)
        var whole = count / unit
        // The remainder is below 2^60, so ten times it cannot overflow.
        var tenths = (count % unit * 10 + unit / 2) / unit
        if tenths == 10 {
            whole += 1
            tenths = 0
        }
        return "\(whole).\(tenths) \(units[exponent - 1])"
    }

    /// The instant `milliseconds` after the Unix epoch as ISO-8601 in UTC with milliseconds:
    /// `1970-01-01T00:00:01.000Z`. Years outside 0000–9999 are written with a sign and at least
    /// four digits (`+10000-01-01…`, `-0001-12-31…`), the ISO-8601 expanded form.
    static func instant(_ milliseconds: Int64) -> String {
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = CivilDate.fromDays(days)
        let yearText: String
        switch year {
        case 0...9999: yearText = padded(year, 4)
        case ..<0: yearText = "-" + padded(-year, 4)
        default: yearText = "+" + padded(year, 4)
        }
        let second = millisecondOfDay / 1000
        return yearText + "-" + padded(month, 2) + "-" + padded(day, 2) + "T" + padded(second / 3600, 2) + ":"
            + padded(second / 60 % 60, 2) + ":" + padded(second % 60, 2) + "."
            + padded(millisecondOfDay % 1000, 3)
            + "Z"
    }

    /// An expiry for people: `never` for `Int64.max`, else ``instant(_:)``.
    static func expiry(_ milliseconds: Int64) -> String {
        milliseconds == .max ? "never" : instant(milliseconds)
    }

    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Proleptic Gregorian dates and day numbers (days since 1970-01-01), after Howard Hinnant's
/// `days_from_civil` and `civil_from_days`; exact for every `Int64` millisecond instant.
enum CivilDate {
    static func fromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
