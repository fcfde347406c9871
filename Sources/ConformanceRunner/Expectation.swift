import Foundation

/// Compares a driver's response with a case's expectation (Spec/conformance.md §4).
///
/// The expectation is a pattern: every field it names must be present and match, fields it
/// does not name are ignored, arrays must have the same length and match element by element,
/// `{"$oneOf": [a, b, …]}` matches any of its alternatives, and `{"$bytes": …, "$ignore": …}`
/// compares base64 data byte by byte outside the ignored ranges. A response that carries
/// `error` matches only an expectation that names an error.
enum Expectation {
    /// Nil when `actual` matches `expected`, else a sentence naming the first difference.
    static func mismatch(expected: JSONValue, actual: JSONValue) -> String? {
        if case .object(let fields) = actual, let error = fields["error"], expected["error"] == nil {
            return "expected success, got error \(error.summary)"
        }
        return mismatch(expected, actual, path: "")
    }

    private static func mismatch(_ expected: JSONValue, _ actual: JSONValue, path: String) -> String? {
        let place = path.isEmpty ? "response" : path
        switch expected {
        case .object(let pattern):
            if let bytes = pattern["$bytes"]?.stringValue {
                return bytesMismatch(
                    bytes, ignoring: pattern["$ignore"]?.arrayValue ?? [], actual, place: place)
            }
            if let alternatives = pattern["$oneOf"]?.arrayValue, pattern.count == 1 {
                if alternatives.contains(where: { mismatch($0, actual, path: path) == nil }) { return nil }
                return "\(place): expected one of \(expected.summary), got \(actual.summary)"
            }
            guard case .object(let fields) = actual else {
                return "\(place): expected an object, got \(actual.summary)"
            }
            for key in pattern.keys.sorted() {
                let subpath = path.isEmpty ? key : "\(path).\(key)"
                guard let value = fields[key] else {
                    return "\(subpath): missing (expected \(pattern[key]!.summary))"
                }
                if let difference = mismatch(pattern[key]!, value, path: subpath) { return difference }
            }
            return nil
        case .array(let items):
            guard case .array(let values) = actual else {
                return "\(place): expected an array, got \(actual.summary)"
            }
            for index in 0..<min(items.count, values.count) {
                if let difference = mismatch(items[index], values[index], path: "\(path)[\(index)]") {
                    return difference
                }
            }
            if items.count != values.count {
                return "\(place): expected \(items.count) elements, got \(values.count): \(actual.summary)"
            }
            return nil
        case .integer(let number):
            if case .double(let value) = actual, value == Double(number) { return nil }
            return actual == expected ? nil : "\(place): expected \(expected.summary), got \(actual.summary)"
        case .double(let number):
            if case .integer(let value) = actual, Double(value) == number { return nil }
            return actual == expected ? nil : "\(place): expected \(expected.summary), got \(actual.summary)"
        default:
            guard actual == expected else {
                if case .string(let want) = expected, case .string(let got) = actual,
                    want.count > 72 || got.count > 72
                {
                    return "\(place): expected \(expected.summary), got \(actual.summary)"
                        + " (first difference at character \(firstDifference(want, got)))"
                }
                return "\(place): expected \(expected.summary), got \(actual.summary)"
            }
            return nil
        }
    }

    /// `{"$bytes": B64, "$ignore": [[start, end], …]}`: base64 data equal to `B64` except in the
    /// half-open byte ranges listed, which may differ (for example a store's random generation).
    private static func bytesMismatch(
        _ expected: String, ignoring ranges: [JSONValue], _ actual: JSONValue, place: String
    ) -> String? {
        guard let want = Data(base64Encoded: expected).map([UInt8].init) else {
            return "\(place): the case's $bytes is not base64"
        }
        guard let text = actual.stringValue, let got = Data(base64Encoded: text).map([UInt8].init) else {
            return "\(place): expected base64 data, got \(actual.summary)"
        }
        guard want.count == got.count else {
            return "\(place): expected \(want.count) bytes, got \(got.count)"
        }
        let ignored = ranges.compactMap { range -> Range<Int>? in
            guard let bounds = range.arrayValue?.compactMap(\.integerValue), bounds.count == 2,
                bounds[0] <= bounds[1]
            else { return nil }
            return Int(bounds[0])..<Int(bounds[1])
        }
        for index in want.indices
        where want[index] != got[index] && !ignored.contains(where: { $0.contains(index) }) {
            return
                "\(place): bytes differ first at offset \(index): expected \(want[index]), got \(got[index])"
        }
        return nil
    }

    private static func firstDifference(_ left: String, _ right: String) -> Int {
        var index = 0
        for (a, b) in zip(left.utf8, right.utf8) {
            if a != b { break }
            index += 1
        }
        return index
    }
}
