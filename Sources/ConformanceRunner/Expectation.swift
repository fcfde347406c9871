import Foundation

/// Why a response does not match its expectation: one line for the report and for a JUnit
/// failure message, plus detail lines (the bytes or text around the first difference).
struct Mismatch: Equatable, Sendable {
    var message: String
    var details: [String] = []
}

/// Compares a driver's response with a case's expectation (Spec/conformance.md §4) and
/// describes the first difference (§6.4).
///
/// The expectation is a pattern: every field it names must be present and match, fields it
/// does not name are ignored, arrays must have the same length and match element by element,
/// `{"$oneOf": [a, b, …]}` matches any of its alternatives, and `{"$bytes": …, "$ignore": …}`
/// compares base64 data byte by byte outside the ignored ranges (with `"$length": N`, data of N
/// bytes whose first bytes are those given). Strings are equal when their Unicode scalars are
/// (so two canonically equivalent keys of different bytes differ). A response that carries
/// `error` matches only an expectation that names an error.
enum Expectation {
    /// Nil when `actual` matches `expected`, else the first difference.
    static func mismatch(expected: JSONValue, actual: JSONValue) -> Mismatch? {
        if case .object(let fields) = actual, let error = fields["error"], expected["error"] == nil {
            return Mismatch(message: "expected success, got error \(error.summary)")
        }
        if case .object(let fields) = actual, fields["error"] == nil, let error = expected["error"] {
            return Mismatch(message: "expected error \(error.summary), got a success response")
        }
        return mismatch(expected, actual, path: "")
    }

    private static func mismatch(_ expected: JSONValue, _ actual: JSONValue, path: String) -> Mismatch? {
        let place = path.isEmpty ? "response" : path
        switch expected {
        case .object(let pattern):
            if let bytes = pattern["$bytes"]?.stringValue {
                return bytesMismatch(
                    bytes, ignoring: pattern["$ignore"]?.arrayValue ?? [], length: pattern["$length"], actual,
                    place: place)
            }
            if let alternatives = pattern["$oneOf"]?.arrayValue, pattern.count == 1 {
                if alternatives.contains(where: { mismatch($0, actual, path: path) == nil }) { return nil }
                return Mismatch(
                    message:
                        "\(place): expected one of \(JSONValue.array(alternatives).summary), got \(actual.summary)"
                )
            }
            guard case .object(let fields) = actual else {
                return Mismatch(message: "\(place): expected an object, got \(actual.summary)")
            }
            return objectMismatch(pattern, fields, path: path)
        case .array(let items):
            guard case .array(let values) = actual else {
                return Mismatch(message: "\(place): expected an array, got \(actual.summary)")
            }
            return arrayMismatch(items, values, path: path)
        case .integer(let number):
            if case .double(let value) = actual, value == Double(number) { return nil }
            return actual == expected ? nil : plain(place, expected, actual)
        case .double(let number):
            if case .integer(let value) = actual, Double(value) == number { return nil }
            return actual == expected ? nil : plain(place, expected, actual)
        case .string(let want):
            guard case .string(let got) = actual else { return plain(place, expected, actual) }
            return stringMismatch(want, got, place: place)
        default:
            return actual == expected ? nil : plain(place, expected, actual)
        }
    }

    private static func plain(_ place: String, _ expected: JSONValue, _ actual: JSONValue) -> Mismatch {
        Mismatch(message: "\(place): expected \(expected.summary), got \(actual.summary)")
    }

    /// The first field, in key order, whose value differs, followed by the names of any
    /// missing keys; when only keys are missing, all of them with the keys the response has
    /// that the expectation does not name (a misspelt field shows up there).
    private static func objectMismatch(
        _ pattern: [String: JSONValue], _ fields: [String: JSONValue], path: String
    ) -> Mismatch? {
        let place = path.isEmpty ? "response" : path
        let missing = pattern.keys.filter { fields[$0] == nil }.sorted()
        let names = { (keys: [String]) in
            "\(keys.count == 1 ? "key" : "keys") "
                + keys.map { JSONValue.string($0).jsonText }.joined(separator: ", ")
        }
        for key in pattern.keys.sorted() where fields[key] != nil {
            let subpath = path.isEmpty ? key : "\(path).\(key)"
            if var difference = mismatch(pattern[key]!, fields[key]!, path: subpath) {
                if !missing.isEmpty { difference.message += "; \(place) also lacks " + names(missing) }
                return difference
            }
        }
        guard !missing.isEmpty else { return nil }
        let listed = missing.map { "\(JSONValue.string($0).jsonText) (expected \(pattern[$0]!.summary))" }
        var message =
            "\(place): missing \(missing.count == 1 ? "key" : "keys") " + listed.joined(separator: ", ")
        // The runner adds `id` to every request, so every response has it.
        let others = fields.keys.filter { pattern[$0] == nil && !(path.isEmpty && $0 == "id") }.sorted()
        if !others.isEmpty { message += "; \(names(others)) not in the expectation" }
        return Mismatch(message: message)
    }

    /// A length difference is named first, with the first element that differs or else the
    /// elements that are extra or missing at the end.
    private static func arrayMismatch(_ items: [JSONValue], _ values: [JSONValue], path: String) -> Mismatch?
    {
        let place = path.isEmpty ? "response" : path
        var firstDifference: Mismatch?
        for index in 0..<min(items.count, values.count) {
            if let difference = mismatch(items[index], values[index], path: "\(path)[\(index)]") {
                firstDifference = difference
                break
            }
        }
        guard items.count != values.count else { return firstDifference }
        let lengths = "\(place): expected \(count(items.count, "element")), got \(values.count)"
        if let firstDifference {
            return Mismatch(
                message: lengths + "; first difference: " + firstDifference.message,
                details: firstDifference.details)
        }
        if values.count > items.count {
            return Mismatch(
                message: lengths + "; extra from [\(items.count)]: " + listing(values[items.count...]))
        }
        return Mismatch(
            message: lengths + "; missing from [\(values.count)]: " + listing(items[values.count...]))
    }

    private static func listing(_ elements: ArraySlice<JSONValue>) -> String {
        let shown = elements.prefix(3).map(\.summary).joined(separator: ", ")
        return elements.count > 3 ? shown + " and \(elements.count - 3) more" : shown
    }

    /// Long strings are shown shortened in a report, so their difference is located: as bytes
    /// when both sides are base64 (a PNG, a store file), else as characters.
    private static func stringMismatch(_ want: String, _ got: String, place: String) -> Mismatch? {
        let wantScalars = Array(want.unicodeScalars)
        let gotScalars = Array(got.unicodeScalars)
        if wantScalars == gotScalars { return nil }
        let isLong =
            wantScalars.count > JSONValue.longStringLimit || gotScalars.count > JSONValue.longStringLimit
        // Two spellings of the same bytes (non-zero padding bits) still differ as strings.
        if isLong, let wantBytes = Data(base64Encoded: want), let gotBytes = Data(base64Encoded: got),
            let difference = Difference.bytes(
                expected: [UInt8](wantBytes), got: [UInt8](gotBytes), ignoring: [], place: place)
        {
            return difference
        }
        let difference = Difference.first(wantScalars, gotScalars, ignoring: [])!
        let lengths =
            wantScalars.count == gotScalars.count
            ? "" : " (expected \(count(wantScalars.count, "character")), got \(gotScalars.count))"
        guard isLong else {
            return Mismatch(
                message:
                    "\(place): expected \(JSONValue.string(want).jsonText), got \(JSONValue.string(got).jsonText)"
                    + lengths)
        }
        return Difference.characters(expected: wantScalars, got: gotScalars, at: difference, place: place)
    }

    /// `{"$bytes": B64, "$ignore": [[start, end], …]}`: base64 data equal to `B64` except in the
    /// half-open byte ranges listed, which may differ (for example a store's random generation).
    /// With `"$length": N` the data must be N bytes long and only its first bytes, as many as
    /// `B64` holds, are compared: a file too large for a case to carry (a coordination file of
    /// 1 MiB) is checked by its length and its header.
    private static func bytesMismatch(
        _ expected: String, ignoring ranges: [JSONValue], length: JSONValue?, _ actual: JSONValue,
        place: String
    ) -> Mismatch? {
        guard let want = Data(base64Encoded: expected).map([UInt8].init) else {
            return Mismatch(message: "\(place): the case's $bytes is not base64")
        }
        guard let text = actual.stringValue, let got = Data(base64Encoded: text).map([UInt8].init) else {
            return Mismatch(message: "\(place): expected base64 data, got \(actual.summary)")
        }
        let ignored = ranges.compactMap { range -> Range<Int>? in
            guard let bounds = range.arrayValue?.compactMap(\.integerValue), bounds.count == 2,
                bounds[0] >= 0, bounds[0] <= bounds[1]
            else { return nil }
            return Int(bounds[0])..<Int(bounds[1])
        }
        guard let length else {
            return Difference.bytes(expected: want, got: got, ignoring: ignored, place: place)
        }
        guard let total = length.integerValue, total >= want.count else {
            return Mismatch(message: "\(place): the case's $length is not a length of at least its $bytes")
        }
        guard got.count == total else {
            return Mismatch(message: "\(place): expected \(count(Int(total), "byte")), got \(got.count)")
        }
        return Difference.bytes(
            expected: want, got: Array(got.prefix(want.count)), ignoring: ignored, place: place, of: got.count
        )
    }

    /// `N unit` or `N units`.
    static func count(_ number: Int, _ unit: String) -> String {
        "\(number) \(unit)\(number == 1 ? "" : "s")"
    }
}
