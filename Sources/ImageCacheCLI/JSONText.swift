/// The few JSON pieces `ls --json` and `stat --json` print (`Spec/cache.md` §12.4), written by
/// hand so the bytes are fixed: no `\/`, no reordered keys, no floating-point integers.
enum JSONText {
    /// A JSON string holding exactly `text`: `"` and `\` escaped, U+0000–U+001F as `\b`, `\t`,
    /// `\n`, `\f`, `\r` or `\u00XX` (lower-case hex), everything else as its UTF-8.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x08: result += "\\b"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0C: result += "\\f"
            case 0x0D: result += "\\r"
            case 0x00..<0x20:
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// One JSON value of an object.
    enum Value {
        case string(String)
        case integer(Int64)
        case unsigned(UInt64)
        case null

        var text: String {
            switch self {
            case .string(let text): JSONText.string(text)
            case .integer(let value): String(value)
            case .unsigned(let value): String(value)
            case .null: "null"
            }
        }
    }

    /// `{"name":value,…}` on one line, members in the order given.
    static func object(_ members: [(String, Value)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
}
