import Foundation

/// A JSON value as the protocol carries it (Spec/conformance.md §2).
///
/// Integers are kept as `Int64` so that millisecond times, including `Int64.max` ("never
/// expires"), compare exactly; other numbers fall back to `Double`.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    var objectValue: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Parses one JSON text.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONParser.parse(data)
    }

    /// The value as one line of JSON with sorted keys (no newlines, so it can be a request line).
    var jsonText: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON of the value (keys sorted, only `"`, `\\` and control
    /// characters escaped), as `JSONEncoder` with `.sortedKeys, .withoutEscapingSlashes` writes
    /// it, without its cost per value.
    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .integer(let value): out += Array(String(value).utf8)
        case .double(let value):
            out += Array(
                (value.isFinite
                    ? (value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)")
                    : "null").utf8)
        case .string(let value): JSONValue.writeString(value, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                fields[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Strings longer than this many Unicode scalars are shortened in a summary.
    static let longStringLimit = 72

    /// A one-line rendering for failure reports: long strings (base64 payloads) are shortened
    /// to their length and first characters, so a report stays readable.
    var summary: String {
        switch self {
        case .string(let text) where text.unicodeScalars.count > JSONValue.longStringLimit:
            let scalars = text.unicodeScalars
            let start = String(String.UnicodeScalarView(scalars.prefix(48)))
            return JSONValue.string(start + "…(\(scalars.count) chars)").jsonText
        case .array(let items):
            return "[" + items.map(\.summary).joined(separator: ",") + "]"
        case .object(let fields):
            let parts = fields.keys.sorted().map { JSONValue.string($0).jsonText + ":" + fields[$0]!.summary }
            return "{" + parts.joined(separator: ",") + "}"
        default:
            return jsonText
        }
    }
}
