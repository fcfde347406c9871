#!/usr/bin/env python3
"""Checks the classifier behind RESULTS.md on inputs built here (standard library only).

Run: python3 Conformance/drivers/test_peer_results.py
"""
import base64
import os
import struct
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "drivers"))

from example_driver import encode as canonical_encode  # noqa: E402  (Spec/png.md §2, from the spec alone)
from peer_results import classify, encoding_differences  # noqa: E402


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_with(width, height, filtered, level, idat_size=1 << 20):
    stream = zlib.compress(filtered, level)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    idats = b"".join(chunk(b"IDAT", stream[i:i + idat_size]) for i in range(0, len(stream), idat_size))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idats + chunk(b"IEND", b"")


def b64(data):
    return base64.b64encode(data).decode("ascii")


def decode_case(expect):
    return {"name": "png/decode/x", "steps": [{"request": {"op": "png.decode", "png": ""}, "expect": expect}]}


class EncodingDifferences(unittest.TestCase):
    pixels = bytes(range(12))  # 4 x 3 gray8

    def test_identical_files_have_no_structural_difference_but_are_reported(self):
        canonical = canonical_encode(4, 3, "gray8", self.pixels)
        self.assertEqual(encoding_differences(canonical, canonical), ["other bytes"])

    def test_a_compressed_stream_names_its_header_and_blocks(self):
        canonical = canonical_encode(4, 3, "gray8", self.pixels)
        filtered = b"".join(b"\x00" + self.pixels[y * 4:(y + 1) * 4] for y in range(3))
        other = png_with(4, 3, filtered, 9)
        notes = encoding_differences(canonical, other)
        self.assertIn("zlib header 78 da (canonical: 78 01)", notes)
        self.assertIn("compressed (not stored) deflate blocks", notes)
        self.assertNotIn("other filtered data", notes)

    def test_other_filter_types_are_listed(self):
        canonical = canonical_encode(4, 3, "gray8", self.pixels)
        rows = [self.pixels[y * 4:(y + 1) * 4] for y in range(3)]
        sub = b"".join(b"\x01" + bytes([r[0]] + [(r[i] - r[i - 1]) & 255 for i in range(1, 4)]) for r in rows)
        notes = encoding_differences(canonical, png_with(4, 3, sub, 0))
        self.assertIn("filter types [1] on its rows (canonical: 0 on every row)", notes)

    def test_idat_cut_differently(self):
        canonical = canonical_encode(4, 3, "gray8", self.pixels)
        filtered = b"".join(b"\x00" + self.pixels[y * 4:(y + 1) * 4] for y in range(3))
        notes = encoding_differences(canonical, png_with(4, 3, filtered, 0, idat_size=10))
        self.assertEqual(notes[0], "chunks IHDR IDAT IDAT IDAT IEND (canonical: IHDR IDAT IEND)")


class DecodeClasses(unittest.TestCase):
    # 0x12F0: high byte 0x12, rounded 0x13, clipped 0xFF, so each reduction is told apart.
    expect16 = {"width": 1, "height": 1, "colorType": 0, "bitDepth": 16, "interlaced": False,
                "samples": b64(b"\x12\xf0"), "rgba": b64(b"\x12\xf0\x12\xf0\x12\xf0\xff\xff"), "rgbaDepth": 16}

    def actual(self, **fields):
        base = dict(self.expect16)
        base.update(fields)
        return base

    def test_high_byte_rgba_is_a_form_difference(self):
        actual = self.actual(rgba=b64(b"\x12\x12\x12\xff"), rgbaDepth=8)
        self.assertEqual(classify(decode_case(self.expect16), ("fail", "x"), actual, None)[:2],
                         ("form", "rgba-16-to-8:high byte"))

    def test_rounded_rgba_is_named(self):
        actual = self.actual(rgba=b64(b"\x13\x13\x13\xff"), rgbaDepth=8)
        self.assertEqual(classify(decode_case(self.expect16), ("fail", "x"), actual, None)[:2],
                         ("form", "rgba-16-to-8:rounding"))

    def test_values_that_reduce_alike_name_every_reduction(self):
        expect = dict(self.expect16, rgba=b64(b"\x00\x00\x00\x00\x00\x00\xff\xff"))
        actual = self.actual(rgba=b64(b"\x00\x00\x00\xff"), rgbaDepth=8)
        self.assertEqual(classify(decode_case(expect), ("fail", "x"), actual, None)[:2],
                         ("form", "rgba-16-to-8:high byte or clip or rounding"))

    def test_clipped_rgba_is_named(self):
        actual = self.actual(rgba=b64(b"\xff\xff\xff\xff"), rgbaDepth=8)
        self.assertEqual(classify(decode_case(self.expect16), ("fail", "x"), actual, None)[:2],
                         ("form", "rgba-16-to-8:clip"))

    def test_lost_transparency_is_a_pixel_difference(self):
        expect = dict(self.expect16, rgba=b64(b"\x12\xf0\x12\xf0\x12\xf0\x00\x00"))
        actual = self.actual(rgba=b64(b"\x12\x12\x12\xff"), rgbaDepth=8)
        mark, kind, detail = classify(decode_case(expect), ("fail", "x"), actual, None)
        self.assertEqual((mark, kind), ("pixels", "rgba-16-to-8:high byte, tRNS key lost"))
        self.assertIn("1 pixels the tRNS key makes transparent come out opaque", detail)

    def test_scaled_gray_samples(self):
        expect = {"width": 2, "height": 1, "colorType": 0, "bitDepth": 2, "interlaced": False,
                  "samples": b64(b"\x01\x03"), "rgba": b64(b"\x55\x55\x55\xff\xff\xff\xff\xff"), "rgbaDepth": 8}
        actual = dict(expect, samples=b64(b"\x55\xff"))
        self.assertEqual(classify(decode_case(expect), ("fail", "x"), actual, None)[:2], ("form", "samples-scaled"))

    def test_passing_verdict_is_kept_whatever_the_response(self):
        self.assertEqual(classify(decode_case(self.expect16), ("pass", ""), None, None), ("pass", None, ""))

    def test_a_runner_time_out_is_a_hang(self):
        verdict = ("fail", "step 1 (png.decode): no response within the time limit of 20.0 s; the driver was killed\n")
        self.assertEqual(classify(decode_case(self.expect16), verdict, None, None)[:2], ("crash", "hang"))


class ErrorClasses(unittest.TestCase):
    case = {"name": "png/error/x", "steps": [{"request": {"op": "png.decode", "png": ""},
                                             "expect": {"error": "chunkChecksumMismatch"}}]}

    def test_decoding_an_invalid_file_is_accepting_it(self):
        self.assertEqual(classify(self.case, ("fail", "x"), {"width": 1}, None)[:2], ("accepts", "accepts"))

    def test_another_error_name(self):
        actual = {"error": "unmapped", "message": "lib: broken"}
        self.assertEqual(classify(self.case, ("fail", "x"), actual, None),
                         ("other-error", "other-error", "unmapped: lib: broken"))

    def test_an_undeclared_exception_is_a_crash(self):
        actual = {"error": "unmapped", "message": "uncaught: IndexError: list index out of range"}
        self.assertEqual(classify(self.case, ("fail", "x"), actual, None)[:2], ("crash", "exception"))


if __name__ == "__main__":
    unittest.main()
