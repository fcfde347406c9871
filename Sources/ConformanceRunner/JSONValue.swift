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
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as one line of JSON with sorted keys (no newlines, so it can be a request line).
    var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
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

extension JSONValue: Codable {
    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
