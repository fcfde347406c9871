import Foundation
import Testing

@testable import ConformanceRunner

/// The difference reports of the matcher (Spec/conformance.md §4, §6.4). The expected texts
/// were written by hand and the hex windows computed with Python, not with this code.
@Suite struct ExpectationTests {
    private func mismatch(_ expected: String, _ actual: String) throws -> Mismatch? {
        Expectation.mismatch(
            expected: try JSONValue.parse(Data(expected.utf8)), actual: try JSONValue.parse(Data(actual.utf8))
        )
    }

    /// Bytes 0…59, and the same with byte 30 set to 0xff: the base64 texts share their first 40
    /// characters, which is all a shortened summary shows.
    static let sixtyBytes = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7"
    static let sixtyBytesChanged =
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd/x8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7"
    static let sixtyOneBytes =
        "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PA=="

    @Test func aLongBase64StringIsComparedAsBytesWithAHexWindow() throws {
        let result = try mismatch(
            #"{"png": "\#(Self.sixtyBytes)"}"#, #"{"id": 1, "png": "\#(Self.sixtyBytesChanged)"}"#)
        #expect(
            result
                == Mismatch(
                    message: "png: bytes differ at offset 30 of 60",
                    details: [
                        "expected @14: 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d [1e] 1f 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e",
                        "got      @14: 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d [ff] 1f 20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e",
                    ]))
    }

    @Test func aLongerByteStringNamesBothLengthsAndMarksTheEnd() throws {
        let result = try mismatch(#"{"png": "\#(Self.sixtyBytes)"}"#, #"{"png": "\#(Self.sixtyOneBytes)"}"#)
        #expect(
            result
                == Mismatch(
                    message: "png: expected 60 bytes, got 61; first difference at offset 60",
                    details: [
                        "expected @44: 2c 2d 2e 2f 30 31 32 33 34 35 36 37 38 39 3a 3b [end]",
                        "got      @44: 2c 2d 2e 2f 30 31 32 33 34 35 36 37 38 39 3a 3b [3c]",
                    ]))
    }

    /// `PA==` and `PB==` both decode to 0x3c; the strings differ, so the case must fail.
    @Test func base64TextsOfTheSameBytesStillDifferAsText() throws {
        let other = String(Self.sixtyOneBytes.dropLast(3)) + "B=="
        #expect(
            try mismatch(#"{"png": "\#(Self.sixtyOneBytes)"}"#, #"{"png": "\#(other)"}"#)
                == Mismatch(
                    message: "png: strings differ at character 81 of 84",
                    details: [
                        #"expected @65: "DEyMzQ1Njc4OTo7P[A]==""#, #"got      @65: "DEyMzQ1Njc4OTo7P[B]==""#,
                    ]))
    }

    @Test func bytesPatternsNameALengthDifference() throws {
        // Bytes 1…10 expected, 1…8 received.
        let result = try mismatch(#"{"file": {"$bytes": "AQIDBAUGBwgJCg=="}}"#, #"{"file": "AQIDBAUGBwg="}"#)
        #expect(
            result
                == Mismatch(
                    message: "file: expected 10 bytes, got 8; first difference at offset 8",
                    details: [
                        "expected @0: 01 02 03 04 05 06 07 08 [09] 0a",
                        "got      @0: 01 02 03 04 05 06 07 08 [end]",
                    ]))
    }

    @Test func bytesPatternsSkipIgnoredRangesWhenLookingForTheFirstDifference() throws {
        // 00 01 02 03 against 00 09 02 04, with byte 1 ignored.
        let result = try mismatch(
            #"{"file": {"$bytes": "AAECAw==", "$ignore": [[1, 2]]}}"#, #"{"file": "AAkCBA=="}"#)
        #expect(
            result
                == Mismatch(
                    message: "file: bytes differ at offset 3 of 4",
                    details: ["expected @0: 00 01 02 [03]", "got      @0: 00 09 02 [04]"]))
        #expect(
            try mismatch(#"{"file": {"$bytes": "AAECAw==", "$ignore": [[1, 4]]}}"#, #"{"file": "AAkCBA=="}"#)
                == nil)
    }

    /// `$length` (§4.5): the data must have that length; only its first bytes, as many as
    /// `$bytes` holds, are compared, outside the ignored ranges.
    @Test func bytesPatternsWithALengthCompareOnlyTheFirstBytes() throws {
        // 00 01 02 03 expected first, of 6 bytes.
        let pattern = #"{"file": {"$bytes": "AAECAw==", "$length": 6, "$ignore": [[1, 2]]}}"#
        #expect(try mismatch(pattern, #"{"file": "AAkCA/7/"}"#) == nil)  // 00 09 02 03 fe ff
        #expect(
            try mismatch(pattern, #"{"file": "AAkCBP7/"}"#)  // 00 09 02 04 fe ff
                == Mismatch(
                    message: "file: bytes differ at offset 3 of 6",
                    details: ["expected @0: 00 01 02 [03]", "got      @0: 00 09 02 [04]"]))
        #expect(
            try mismatch(pattern, #"{"file": "AAECAw=="}"#)
                == Mismatch(message: "file: expected 6 bytes, got 4"))
        #expect(
            try mismatch(pattern, #"{"file": "AAECA/7/AA=="}"#)
                == Mismatch(message: "file: expected 6 bytes, got 7"))
        #expect(
            try mismatch(#"{"file": {"$bytes": "AAECAw==", "$length": 3}}"#, #"{"file": "AAEC"}"#)
                == Mismatch(message: "file: the case's $length is not a length of at least its $bytes"))
    }

    @Test func anArrayThatGainedAnElementAtTheEndNamesTheLengthAndTheExtraElement() throws {
        let result = try mismatch(#"{"keys": ["a", "b"]}"#, #"{"id": 1, "keys": ["a", "b", "c"]}"#)
        #expect(result == Mismatch(message: #"keys: expected 2 elements, got 3; extra from [2]: "c""#))
    }

    @Test func anArrayThatGainedAnElementInTheMiddleNamesTheLengthThenTheFirstDifference() throws {
        let result = try mismatch(#"{"keys": ["a", "b"]}"#, #"{"keys": ["a", "x", "b"]}"#)
        #expect(
            result
                == Mismatch(
                    message:
                        #"keys: expected 2 elements, got 3; first difference: keys[1]: expected "b", got "x""#
                ))
    }

    @Test func anArrayThatLostElementsNamesTheMissingOnes() throws {
        let result = try mismatch(#"{"keys": ["a", "b", "c", "d", "e"]}"#, #"{"keys": ["a"]}"#)
        #expect(
            result
                == Mismatch(
                    message: #"keys: expected 5 elements, got 1; missing from [1]: "b", "c", "d" and 1 more"#)
        )
    }

    @Test func aMissingKeyIsNamedWithTheKeysTheResponseHasInstead() throws {
        let result = try mismatch(
            #"{"colorType": 2, "width": 1}"#, #"{"colourType": 2, "id": 7, "width": 1}"#)
        #expect(
            result
                == Mismatch(
                    message:
                        #"response: missing key "colorType" (expected 2); key "colourType" not in the expectation"#
                ))
        let nested = try mismatch(#"{"entry": {"a": 1, "b": 2, "c": 3}}"#, #"{"entry": {"a": 1}}"#)
        #expect(nested == Mismatch(message: #"entry: missing keys "b" (expected 2), "c" (expected 3)"#))
    }

    @Test func aDifferingValueComesFirstAndMissingKeysAreNamedAfterIt() throws {
        let result = try mismatch(#"{"data": "YQ==", "hit": true}"#, #"{"hit": false, "id": 3}"#)
        #expect(
            result == Mismatch(message: #"hit: expected true, got false; response also lacks key "data""#))
    }

    @Test func aShortStringOfAnotherLengthSaysSo() throws {
        let result = try mismatch(#"{"key": "ab"}"#, #"{"key": "abc"}"#)
        #expect(result == Mismatch(message: #"key: expected "ab", got "abc" (expected 2 characters, got 3)"#))
    }

    /// Swift's `==` on strings treats these as equal; keys are bytes (§2.7), so they differ.
    @Test func canonicallyEquivalentStringsOfDifferentScalarsDiffer() throws {
        let result = try mismatch(#"{"key": "\u00e9"}"#, #"{"key": "e\u0301"}"#)
        #expect(result?.message.hasSuffix("(expected 1 character, got 2)") == true)
        #expect(try mismatch(#"{"key": "\u00e9"}"#, #"{"key": "\u00e9"}"#) == nil)
    }

    @Test func aLongTextIsLocatedByCharacter() throws {
        let text = String(repeating: "the quick brown fox ", count: 5)
        var changed = Array(text)
        changed[50] = "!"
        let result = try mismatch(#"{"key": "\#(text)"}"#, #"{"key": "\#(String(changed))"}"#)
        #expect(
            result
                == Mismatch(
                    message: "key: strings differ at character 50 of 100",
                    details: [
                        #"expected @34: "n fox the quick [b]rown fox the qui""#,
                        #"got      @34: "n fox the quick [!]rown fox the qui""#,
                    ]))
    }

    @Test func errorsAndSuccessesAreNamedAsSuch() throws {
        #expect(
            try mismatch(#"{"error": "invalidKey"}"#, #"{"id": 1, "stored": true}"#)
                == Mismatch(message: #"expected error "invalidKey", got a success response"#))
        #expect(
            try mismatch(#"{"stored": true}"#, #"{"error": "badRequest", "id": 1}"#)
                == Mismatch(message: #"expected success, got error "badRequest""#))
    }

    @Test func otherTypesAndAlternativesAreNamed() throws {
        #expect(
            try mismatch(#"{"error": {"$oneOf": ["a", "b"]}}"#, #"{"error": "c"}"#)
                == Mismatch(message: #"error: expected one of ["a","b"], got "c""#))
        #expect(
            try mismatch(#"{"entries": [{"key": "a"}]}"#, #"{"entries": ["a"]}"#)
                == Mismatch(message: #"entries[0]: expected an object, got "a""#))
        #expect(
            try mismatch(#"{"file": {"$bytes": "AA=="}}"#, #"{"file": 7}"#)
                == Mismatch(message: "file: expected base64 data, got 7"))
    }
}
