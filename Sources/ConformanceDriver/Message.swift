import Foundation

/// A JSON value of the driver protocol (Spec/conformance.md §2). Integers stay `Int64` so that
/// times such as `Int64.max` survive exactly.
enum Message: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([Message])
    case object([String: Message])

    subscript(key: String) -> Message? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The line to write: compact JSON, sorted keys, no newline inside.
    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func bytes(_ bytes: [UInt8]) -> Message {
        .string(Data(bytes).base64EncodedString())
    }
}

extension Message: Codable {
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
        } else if let value = try? container.decode([Message].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: Message].self))
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

/// Why a request got an error response: a named error from a spec, or a malformed request.
struct RequestFailure: Error {
    var name: String

    static func badRequest(_ detail: String) -> RequestFailure {
        RequestFailure(name: "badRequest: \(detail)")
    }
}

/// Typed access to a request's fields; a missing or mistyped field is a `badRequest`.
struct Request {
    var fields: [String: Message]

    var op: String { (try? string("op")) ?? "" }

    func string(_ key: String) throws(RequestFailure) -> String {
        guard case .string(let value)? = fields[key] else { throw .badRequest("\(key) must be a string") }
        return value
    }

    func optionalString(_ key: String) throws(RequestFailure) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .badRequest("\(key) must be a string")
        }
    }

    func integer(_ key: String) throws(RequestFailure) -> Int64 {
        guard case .integer(let value)? = fields[key] else { throw .badRequest("\(key) must be an integer") }
        return value
    }

    func optionalInteger(_ key: String) throws(RequestFailure) -> Int64? {
        switch fields[key] {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        default: throw .badRequest("\(key) must be an integer")
        }
    }

    func bytes(_ key: String) throws(RequestFailure) -> [UInt8] {
        guard let data = Data(base64Encoded: try string(key)) else {
            throw .badRequest("\(key) is not base64")
        }
        return [UInt8](data)
    }

    func object(_ key: String) -> Request {
        if case .object(let inner)? = fields[key] { return Request(fields: inner) }
        return Request(fields: [:])
    }

    func array(_ key: String) throws(RequestFailure) -> [Request] {
        guard case .array(let items)? = fields[key] else { throw .badRequest("\(key) must be an array") }
        var requests: [Request] = []
        for item in items {
            guard case .object(let inner) = item else { throw .badRequest("\(key) must hold objects") }
            requests.append(Request(fields: inner))
        }
        return requests
    }

    func has(_ key: String) -> Bool { fields[key] != nil }
}
