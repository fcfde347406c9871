import Foundation

/// A JSON parser (RFC 8259) straight into `JSONValue`.
///
/// `JSONDecoder` with a `Codable` enum tries each type in turn and builds an error with a coding
/// path for every miss; on the suite's 100,000 responses and 25 MB of case files that was most
/// of the runner's time. This parser reads the UTF-8 bytes once. Integers without a fraction or
/// exponent that fit `Int64` stay exact (Spec/conformance.md §2.5); other numbers are `Double`.
struct JSONParser {
    struct SyntaxError: Error, Equatable, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var position = 0

    static func parse(_ data: Data) throws -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("text after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> SyntaxError { SyntaxError(offset: position, reason: reason) }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(literal.utf8)
        guard position + expected.count <= bytes.count,
            Array(bytes[position..<position + expected.count]) == expected
        else { throw error("expected \(literal)") }
        position += expected.count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw error("nested too deeply") }
        guard position < bytes.count else { throw error("unexpected end") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        position += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a key")
            }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected :")
            }
            position += 1
            skipSpace()
            fields[key] = try value(depth: depth + 1)
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end in an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(fields)
            } else {
                throw error("expected , or }")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        position += 1
        var items: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end in an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            } else {
                throw error("expected , or ]")
            }
        }
    }

    private mutating func string() throws -> String {
        position += 1
        let start = position
        // The common case: no escapes, so the bytes are the string's UTF-8.
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
            bytes[position] != UInt8(ascii: "\\")
        {
            guard bytes[position] >= 0x20 else { throw error("a control character in a string") }
            position += 1
        }
        guard position < bytes.count else { throw error("unterminated string") }
        var utf8 = Array(bytes[start..<position])
        while bytes[position] != UInt8(ascii: "\"") {
            // An escape.
            position += 1
            guard position < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), position + 6 <= bytes.count,
                    bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                {
                    let save = position
                    position += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = save
                    }
                }
                utf8.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
            default:
                throw error("unknown escape")
            }
            while position < bytes.count, bytes[position] != UInt8(ascii: "\""),
                bytes[position] != UInt8(ascii: "\\")
            {
                guard bytes[position] >= 0x20 else { throw error("a control character in a string") }
                utf8.append(bytes[position])
                position += 1
            }
            guard position < bytes.count else { throw error("unterminated string") }
        }
        position += 1
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw error("a string that is not UTF-8")
        }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                throw error("bad \\u escape")
            }
            value = value << 4 | digit
        }
        position += 4
        return value
    }

    private mutating func number() throws -> JSONValue {
        let start = position
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        while position < bytes.count {
            let byte = bytes[position]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                position += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            {
                integral = false
                position += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let integer = Int64(text) { return .integer(integer) }
        guard !text.isEmpty, let double = Double(text) else {
            throw SyntaxError(offset: start, reason: "not a value")
        }
        return .double(double)
    }
}
