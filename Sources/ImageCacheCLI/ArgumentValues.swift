/// The value syntaxes of the options (`Spec/cache.md` §12.2). Every parser rejects what it does
/// not fully understand with a usage error that quotes the word and shows the syntax.
enum ArgumentValues {
    /// The help text describing the syntaxes, shown by `imagecache help`.
    static let syntaxHelp = [
        "DURATION  a whole number with a unit: ms, s, m, h or d (500ms, 90s, 15m, 2h, 7d);",
        "          a bare number is seconds (3600 = 1h)",
        "SIZE      a whole number of bytes, optionally with K, M or G (also KiB, MiB, GiB):",
        "          powers of 1024 (64K = 65536)",
        "TIME      milliseconds since 1970-01-01T00:00:00Z (1700000000000), or an ISO-8601",
        "          instant: YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)",
    ]

    /// `DURATION`: digits, then `ms`, `s`, `m`, `h`, `d` or nothing (seconds). Positive, and
    /// at most `Int64.max` milliseconds, the cache's unit (`Spec/cache.md` §3.1).
    static func duration(_ text: String, option: String) throws(CommandLineError) -> Duration {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        let seconds: Int64
        switch unit {
        case "ms": seconds = 0
        case "", "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        default:
            throw bad(option, text, "DURATION", "a whole number with ms, s, m, h or d, such as 90s or 7d")
        }
        guard !digits.isEmpty, let count = Int64(digits) else {
            throw bad(option, text, "DURATION", "a whole number with ms, s, m, h or d, such as 90s or 7d")
        }
        guard count > 0 else {
            throw .usage("\(option) must be positive, got '\(KeyEscaping.escaped(text))'")
        }
        if unit == "ms" { return .milliseconds(count) }
        let (total, overflow) = count.multipliedReportingOverflow(by: seconds)
        guard !overflow else { throw .usage("\(option) '\(KeyEscaping.escaped(text))' is too large") }
        guard !total.multipliedReportingOverflow(by: 1000).overflow else {
            throw .usage("\(option) is too large")
        }
        return .seconds(total)
    }

    /// `SIZE`: digits, then nothing (bytes) or `K`, `M`, `G`, `KiB`, `MiB`, `GiB` (powers of 1024).
    static func size(_ text: String, option: String) throws(CommandLineError) -> Int {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let shift: Int
        switch text.dropFirst(digits.count) {
        case "": shift = 0
        case "K", "KiB": shift = 10
        case "M", "MiB": shift = 20
        case "G", "GiB": shift = 30
        default: throw bad(option, text, "SIZE", "bytes with an optional K, M or G, such as 4096 or 64M")
        }
        guard !digits.isEmpty, let count = Int(digits) else {
            throw bad(option, text, "SIZE", "bytes with an optional K, M or G, such as 4096 or 64M")
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow else { throw .usage("\(option) '\(KeyEscaping.escaped(text))' is too large") }
        return total
    }

    /// The required `--max N` of `command` (`variant`, `png resize`): at least 1.
    static func maximumPixelSize(_ arguments: ParsedArguments, command: String) throws(CommandLineError)
        -> Int
    {
        guard let text = arguments.value("--max") else { throw .usage("\(command) needs --max N") }
        return try count(text, option: "--max", minimum: 1)
    }

    /// A whole number of at least `minimum`.
    static func count(_ text: String, option: String, minimum: Int) throws(CommandLineError) -> Int {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else {
            throw bad(option, text, "N", "a whole number")
        }
        guard value >= minimum else {
            throw .usage("\(option) must be at least \(minimum), got '\(KeyEscaping.escaped(text))'")
        }
        return value
    }

    /// `TIME`: an integer of milliseconds since the epoch (optionally negative), or an ISO-8601
    /// instant `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; fraction digits beyond the third are
    /// dropped (the instant is floored to the millisecond).
    static func time(_ text: String, option: String) throws(CommandLineError) -> Int64 {
        if let milliseconds = Int64(text) { return milliseconds }
        guard let instant = isoInstant(Array(text.utf8)) else {
            throw bad(
                option, text, "TIME",
                "milliseconds since the epoch or an ISO-8601 instant such as 2024-05-01T12:00:00Z")
        }
        return instant
    }

    private static func isoInstant(_ bytes: [UInt8]) -> Int64? {
        var position = 0
        func number(_ width: Int) -> Int64? {
            guard position + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + width] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            position += width
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue! else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var millisecond: Int64 = 0
        if expect(".") {
            var digits = 0
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
                if digits < 3 { millisecond = millisecond * 10 + Int64(bytes[position] - 0x30) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millisecond *= 10 } }
        }
        var offsetMinutes: Int64 = 0
        if !expect("Z") {
            guard position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D else {
                return nil
            }
            let sign: Int64 = bytes[position] == 0x2D ? -1 : 1
            position += 1
            guard let offsetHours = number(2), expect(":"), let offsetMinute = number(2), offsetHours <= 23,
                offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMinute)
        }
        guard position == bytes.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1000 + millisecond
    }

    private static func bad(_ option: String, _ text: String, _ syntax: String, _ expected: String)
        -> CommandLineError
    {
        .usage("\(option) takes \(syntax), \(expected); got '\(KeyEscaping.escaped(text))'")
    }
}
