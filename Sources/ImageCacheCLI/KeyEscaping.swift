/// How keys (and other untrusted words) are printed in human output (`Spec/cache.md` §12.3):
/// every character visible, one line, and no two different keys printed alike.
///
/// - printable ASCII (0x20–0x7E) other than the backslash: as is;
/// - backslash, tab, line feed, carriage return: `\\`, `\t`, `\n`, `\r`;
/// - other ASCII control characters and DEL: `\xHH` (two upper-case hex digits);
/// - every scalar above 0x7F: `\u{HEX}` (upper-case hex, no leading zeros), so the NFC key
///   `caf\u{E9}` and the NFD key `cafe\u{301}` look different, as they are different keys.
///
/// JSON output carries the exact key instead (``JSONText``).
enum KeyEscaping {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x20...0x7E: result.unicodeScalars.append(scalar)
            case 0x00...0x7F: result += "\\x" + hex(scalar.value, width: 2)
            default: result += "\\u{" + hex(scalar.value, width: 1) + "}"
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
