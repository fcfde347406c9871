#!/usr/bin/env python3
"""Writes Conformance/png/*.json from the independent writer in writers/pngwriter.py.

Run from anywhere: python3 Conformance/tools/generators/generate_png_cases.py
The output is deterministic (fixed seeds), so re-running it must leave git clean.
"""
import os
import random
import re
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from shared.casefiles import CONFORMANCE, b64, write_case_file  # noqa: E402
from writers import pngwriter as w  # noqa: E402

OUT = os.path.join(CONFORMANCE, "png")

# Error names as Spec/png.md and Spec/deflate.md list them (the Swift case names).
E = {
    "encoder_dimension": "invalidDimensions",
    "encoder_length": "invalidPixelBufferLength",
    "encoder_too_large": "imageTooLarge",
    "signature": "invalidSignature",
    "crc": "chunkChecksumMismatch",
    "truncated": "truncatedData",
    "chunk_length": "invalidChunkLength",
    "chunk_type": "invalidChunkType",
    "ihdr_first": "missingHeader",
    "ihdr_length": "invalidChunkLength",
    "ihdr_dimensions": "invalidHeader",
    "ihdr_depth": "invalidHeader",
    "ihdr_colour": "invalidHeader",
    "ihdr_compression": "invalidHeader",
    "ihdr_filter": "invalidHeader",
    "ihdr_interlace": "invalidHeader",
    "duplicate": "duplicateChunk",
    "misplaced": "misplacedChunk",
    "missing_idat": "missingImageData",
    "missing_iend": "missingEnd",
    "missing_plte": "missingPalette",
    "plte_length": "invalidPalette",
    "plte_not_allowed": "paletteNotAllowed",
    "trns_length": "invalidTransparency",
    "trns_not_allowed": "transparencyNotAllowed",
    "critical": "unknownCriticalChunk",
    "idat_gap": "misplacedChunk",
    "filter_type": "invalidFilterType",
    "too_little": "imageDataTooShort",
    "too_much": "imageDataTooLong",
    "limit_pixels": "limitExceeded",
    "limit_bytes": "limitExceeded",
    # The zlib stream's errors: the Spec/deflate.md names (PNG's `compression` wraps them).
    "zlib_method": "invalidZlibHeader",
    "zlib_check": "invalidZlibHeader",
    "zlib_dictionary": "presetDictionaryUnsupported",
    "zlib_window": "invalidZlibHeader",
    "adler": "adlerMismatch",
    "block_type": "invalidBlockType",
    "stored_length": "storedLengthMismatch",
    "code_lengths": "oversubscribedCode",
    "incomplete": "incompleteCode",
    "too_many_codes": "tooManyCodes",
    "lengths_overflow": "codeLengthsOverflow",
    "missing_end_of_block": "missingEndOfBlock",
    "repeat_first": "repeatWithoutPreviousLength",
    "literal_symbol": "invalidSymbol",
    "distance_symbol": "invalidSymbol",
    "distance_far": "distanceTooFar",
    "end_of_input": "truncatedInput",
    "unassigned": "unassignedCode",
}


def write(name, description, cases):
    write_case_file(os.path.join(OUT, name), "png", description, cases)


def step(request, expect):
    return {"request": request, "expect": expect}


def pixels_for(rng, width, height, channels, depth):
    """Rows of pixels: a gradient with noise, so filters and back-references both matter,
    and the extremes 0 and the maximum appear."""
    maximum = (1 << depth) - 1
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            pixel = []
            for c in range(channels):
                if (x + y + c) % 7 == 0:
                    value = maximum if (x + c) % 2 else 0
                elif (x * 3 + y) % 5 == 0:
                    value = rng.randrange(maximum + 1)
                else:
                    value = ((x * (c + 1) * 37 + y * 11) * (maximum + 1) // (width * 40 + 1)) % (maximum + 1)
                pixel.append(value)
            row.append(tuple(pixel))
        rows.append(row)
    return rows


# --- encoding --------------------------------------------------------------------------------

def encode_cases():
    rng = random.Random(2)
    cases = []
    sizes = [(1, 1), (3, 2), (5, 7), (16, 3)]
    for format_name, (colour_type, depth, channels) in w.FORMATS.items():
        for width, height in sizes:
            rows = pixels_for(rng, width, height, channels, depth)
            pixels = w.native_samples(rows, depth)
            cases.append({
                "name": f"encode/{format_name}-{width}x{height}",
                "steps": [step({"op": "png.encode", "width": width, "height": height, "format": format_name,
                                "pixels": b64(pixels)},
                               {"png": b64(w.canonical_encode(width, height, format_name, pixels))})]})
    # Filtered data of exactly one block, one byte over, several blocks.
    for label, width, height, format_name in [
            ("one-full-block", 65534, 1, "gray8"), ("one-byte-over", 65535, 1, "gray8"),
            ("three-blocks", 130, 300, "rgba8"), ("two-blocks-16bit", 90, 92, "rgba16"),
            ("wide-row-two-blocks", 40000, 1, "grayAlpha8")]:
        _, depth, channels = w.FORMATS[format_name]
        rows = pixels_for(rng, width, height, channels, depth)
        pixels = w.native_samples(rows, depth)
        cases.append({
            "name": f"encode/{label}-{format_name}-{width}x{height}",
            "steps": [step({"op": "png.encode", "width": width, "height": height, "format": format_name,
                            "pixels": b64(pixels)},
                           {"png": b64(w.canonical_encode(width, height, format_name, pixels))})]})
    # More than 1 MiB of zlib stream: two IDAT chunks. Zero pixels keep the case file small-ish.
    width, height = 1024, 1025
    pixels = bytes(width * height)
    cases.append({
        "name": "encode/two-idat-chunks-gray8-1024x1025",
        "steps": [step({"op": "png.encode", "width": width, "height": height, "format": "gray8",
                        "pixels": b64(pixels)},
                       {"png": b64(w.canonical_encode(width, height, "gray8", pixels))})]})
    # Errors.
    for label, width, height, length in [("zero-width", 0, 4, 0), ("zero-height", 4, 0, 0),
                                         ("width-too-large", 1 << 31, 1, 0)]:
        cases.append({
            "name": f"encode/error-{label}",
            "steps": [step({"op": "png.encode", "width": width, "height": height, "format": "gray8",
                            "pixels": b64(bytes(length))}, {"error": E["encoder_dimension"]})]})
    # Spec/png.md §2.8: the first failing check wins: dimensions, then the byte count's
    # overflow, then the buffer's length.
    for label, width, height, format_name, length, error in [
            ("zero-width-and-wrong-length", 0, 4, "gray8", 5, "encoder_dimension"),
            ("width-too-large-and-overflowing", 1 << 31, 1 << 31, "rgba16", 3, "encoder_dimension"),
            ("overflowing-and-wrong-length", 0x7FFFFFFF, 0x7FFFFFFF, "rgba16", 7, "encoder_too_large")]:
        cases.append({
            "name": f"encode/error-precedence-{label}",
            "steps": [step({"op": "png.encode", "width": width, "height": height, "format": format_name,
                            "pixels": b64(bytes(length))}, {"error": E[error]})]})
    # Spec/png.md §2.9: the worked example, byte for byte as the spec prints it (70 bytes).
    example = bytes.fromhex(
        "89 50 4E 47 0D 0A 1A 0A"
        " 00 00 00 0D 49 48 44 52 00 00 00 01 00 00 00 01 08 00 00 00 00 3A 7E 9B 55"
        " 00 00 00 0D 49 44 41 54 78 01 01 02 00 FD FF 00 7F 00 81 00 80 7C 4B 6C A3"
        " 00 00 00 00 49 45 4E 44 AE 42 60 82")
    assert len(example) == 70 and example == w.canonical_encode(1, 1, "gray8", b"\x7f")
    cases.append({
        "name": "encode/worked-example-1x1-gray8",
        "steps": [step({"op": "png.encode", "width": 1, "height": 1, "format": "gray8", "pixels": b64(b"\x7f")},
                       {"png": b64(example)})]})
    cases.append({
        "name": "encode/error-byte-count-overflows",
        "steps": [step({"op": "png.encode", "width": 0x7FFFFFFF, "height": 0x7FFFFFFF, "format": "rgba16",
                        "pixels": ""}, {"error": E["encoder_too_large"]})]})
    for label, length in [("short", 11), ("long", 13), ("empty", 0)]:
        cases.append({
            "name": f"encode/error-pixels-{label}",
            "steps": [step({"op": "png.encode", "width": 2, "height": 2, "format": "rgb8",
                            "pixels": b64(bytes(length))}, {"error": E["encoder_length"]})]})
    cases.append({
        "name": "encode/error-pixels-16bit-counted-as-8bit",
        "steps": [step({"op": "png.encode", "width": 3, "height": 1, "format": "rgb16",
                        "pixels": b64(bytes(9))}, {"error": E["encoder_length"]})]})
    return cases


# --- decoding --------------------------------------------------------------------------------

def decode_expect(rows, width, height, colour_type, depth, interlace, palette=None, trns=None):
    return {
        "width": width, "height": height, "colorType": colour_type, "bitDepth": depth,
        "interlaced": bool(interlace),
        "samples": b64(w.native_samples(rows, depth)),
        "rgba": b64(w.rgba(rows, colour_type, depth, palette, trns)),
        "rgbaDepth": 16 if depth == 16 else 8,
    }


def make_image(rng, width, height, colour_type, depth, palette_size=None):
    if colour_type == 3:
        size = palette_size or (1 << depth)
        rows = [[(rng.randrange(size) if (x + y) % 3 else (x * y) % size,) for x in range(width)]
                for y in range(height)]
        palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(size)]
        return rows, palette
    return pixels_for(rng, width, height, w.CHANNELS[colour_type], depth), None


def decode_case(name, rows, width, height, colour_type, depth, interlace=0, mode="dynamic",
                filter_for_row=lambda y: y % 5, palette=None, trns=None, trns_bytes=None,
                idat_sizes=None, before=(), between=(), after=()):
    data = w.image_data(rows, width, height, colour_type, depth, interlace, filter_for_row)
    stream = w.compress(data, mode)
    plte = b"".join(bytes(p) for p in palette) if palette is not None else None
    if trns_bytes is None and trns is not None:
        if colour_type == 3:
            trns_bytes = bytes(trns)
        else:
            trns_bytes = b"".join(struct.pack(">H", v) for v in trns)
    png = w.assemble(w.ihdr(width, height, depth, colour_type, interlace), stream, idat_sizes,
                     before, between, after, plte, trns_bytes)
    return {"name": name, "steps": [step({"op": "png.decode", "png": b64(png)},
                                         decode_expect(rows, width, height, colour_type, depth, interlace,
                                                       palette, trns))]}


VALID_DEPTHS = {0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]}


def decode_cases():
    rng = random.Random(5)
    cases = []
    # Every colour type and bit depth, plain and interlaced, every filter type in each image.
    for colour_type, depths in VALID_DEPTHS.items():
        for depth in depths:
            for interlace in (0, 1):
                for width, height in [(1, 1), (7, 5), (13, 11)]:
                    rows, palette = make_image(rng, width, height, colour_type, depth)
                    kind = "adam7" if interlace else "plain"
                    cases.append(decode_case(f"decode/type{colour_type}-depth{depth}-{kind}-{width}x{height}",
                                             rows, width, height, colour_type, depth, interlace, palette=palette))
    # One filter type for a whole image, at each pixel size the filters treat differently.
    for kind, label in enumerate(["none", "sub", "up", "average", "paeth"]):
        for colour_type, depth in [(0, 1), (0, 8), (2, 8), (6, 16), (4, 8)]:
            rows, palette = make_image(rng, 17, 9, colour_type, depth)
            cases.append(decode_case(f"decode/filter-{label}-type{colour_type}-depth{depth}", rows, 17, 9,
                                     colour_type, depth, filter_for_row=lambda y, k=kind: k))
    # Compression: stored, fixed Huffman, dynamic Huffman, all three in one stream.
    for mode in ["stored", "fixed", "dynamic", "mixed"]:
        rows, _ = make_image(rng, 64, 48, 2, 8)
        cases.append(decode_case(f"decode/deflate-{mode}-rgb8-64x48", rows, 64, 48, 2, 8, mode=mode))
    rows, _ = make_image(rng, 300, 200, 6, 8)
    cases.append(decode_case("decode/deflate-dynamic-large-rgba8-300x200", rows, 300, 200, 6, 8))
    rows, _ = make_image(rng, 300, 240, 0, 8)
    cases.append(decode_case("decode/deflate-stored-multiple-blocks-gray8-300x240", rows, 300, 240, 0, 8,
                             mode="stored"))
    # tRNS for gray, RGB and palette images.
    rows, _ = make_image(rng, 9, 6, 0, 8)
    cases.append(decode_case("decode/trns-gray8", rows, 9, 6, 0, 8, trns=[rows[0][0][0]]))
    rows, _ = make_image(rng, 9, 6, 0, 2)
    cases.append(decode_case("decode/trns-gray2", rows, 9, 6, 0, 2, trns=[rows[1][1][0]]))
    rows, _ = make_image(rng, 9, 6, 0, 16)
    cases.append(decode_case("decode/trns-gray16", rows, 9, 6, 0, 16, trns=[rows[2][3][0]]))
    rows, _ = make_image(rng, 9, 6, 2, 8)
    rows[3][3] = rows[0][0]
    cases.append(decode_case("decode/trns-rgb8", rows, 9, 6, 2, 8, trns=list(rows[0][0])))
    rows, _ = make_image(rng, 9, 6, 2, 16)
    cases.append(decode_case("decode/trns-rgb16", rows, 9, 6, 2, 16, trns=list(rows[1][2])))
    rows, palette = make_image(rng, 9, 6, 3, 4)
    cases.append(decode_case("decode/trns-palette-shorter-than-palette", rows, 9, 6, 3, 4, palette=palette,
                             trns=[0, 128, 255, 7, 64]))
    rows, palette = make_image(rng, 9, 6, 3, 8, palette_size=5)
    cases.append(decode_case("decode/palette-smaller-than-depth-allows", rows, 9, 6, 3, 8, palette=palette))
    # Spec/png.md §8.2: an index beyond the palette gives black, opaque.
    rows = [[(0,), (1,), (5,), (255,)], [(2,), (200,), (0,), (3,)]]
    palette = [(10, 20, 30), (40, 50, 60), (70, 80, 90), (100, 110, 120)]
    cases.append(decode_case("decode/palette-index-beyond-palette", rows, 4, 2, 3, 8, palette=palette, trns=[0, 9]))
    # A tRNS key's bits above the bit depth are masked to 0 before it is compared (Spec/png.md
    # §8.2, PNG Third Edition #11tRNS): 7 at depth 2 is the key 3, 0x0105 at depth 8 is 5.
    rows, _ = make_image(rng, 6, 3, 0, 2)
    rows[0][0] = (3,)
    cases.append(decode_case("decode/trns-key-above-depth-maximum", rows, 6, 3, 0, 2, trns=[7]))
    rows, _ = make_image(rng, 6, 3, 0, 1)
    rows[1][2] = (0,)
    cases.append(decode_case("decode/trns-key-high-bits-masked-gray1", rows, 6, 3, 0, 1, trns=[0xFFFE]))
    rows, _ = make_image(rng, 6, 3, 0, 8)
    rows[2][1] = (5,)
    cases.append(decode_case("decode/trns-key-high-bits-masked-gray8", rows, 6, 3, 0, 8, trns=[0x0105]))
    rows, _ = make_image(rng, 6, 3, 2, 8)
    rows[0][4] = (255, 0, 0)
    cases.append(decode_case("decode/trns-key-high-bits-masked-rgb8", rows, 6, 3, 2, 8, trns=[0x01FF, 0x8000, 0xFF00]))
    rows, _ = make_image(rng, 6, 3, 0, 16)
    rows[1][1] = (0x0105,)
    rows[1][2] = (0x0005,)
    cases.append(decode_case("decode/trns-key-16-bit-not-masked", rows, 6, 3, 0, 16, trns=[0x0105]))
    # Bytes after the zlib stream's Adler-32 are ignored (Spec/deflate.md §2.5).
    rows, _ = make_image(rng, 5, 3, 2, 8)
    trailing = decode_case("decode/bytes-after-the-zlib-stream", rows, 5, 3, 2, 8)
    data = w.image_data(rows, 5, 3, 2, 8, 0, lambda y: y % 5)
    png = w.assemble(w.ihdr(5, 3, 8, 2), w.compress(data, "dynamic") + b"\x00junk")
    trailing["steps"][0]["request"]["png"] = b64(png)
    cases.append(trailing)
    # IDAT split at awkward points.
    rows, _ = make_image(rng, 20, 10, 6, 8)
    data = w.image_data(rows, 20, 10, 6, 8, 0, lambda y: y % 5)
    stream_length = len(w.compress(data, "dynamic"))
    for label, sizes in [("one-byte-chunks", [1] * (stream_length - 1)),
                         ("inside-zlib-header", [1]),
                         ("inside-adler", [stream_length - 2]),
                         ("empty-chunks-between", [0, 5, 0, 0, 9, 0]),
                         ("empty-first-and-last", [0, stream_length])]:
        cases.append(decode_case(f"decode/idat-split-{label}", rows, 20, 10, 6, 8, idat_sizes=sizes))
    # Ancillary chunks, known and unknown, are skipped.
    rows, _ = make_image(rng, 6, 4, 2, 8)
    cases.append(decode_case("decode/ancillary-chunks-skipped", rows, 6, 4, 2, 8,
                             before=[w.chunk("tEXt", b"Comment\x00conformance"), w.chunk("gAMA", struct.pack(">I", 45455))],
                             between=[w.chunk("zzZz", b"unknown ancillary")],
                             after=[w.chunk("tIME", bytes(7)), w.chunk("prVt", b"")]))
    # A 16-bit sample that differs only in its low byte.
    rows = [[(0x1234, 0x1235, 0xFFFF, 0x0001), (0, 0x00FF, 0xFF00, 0x8000)]]
    cases.append(decode_case("decode/rgba16-byte-order", rows, 2, 1, 6, 16))
    # Runs of 1 to 9 Paeth rows between Sub rows, and a run of 7 that ends the image, on 3- and
    # 4-byte pixels, through stored and compressed data: a decoder may unfilter several Paeth
    # rows at once (ours takes four), and its seams are where runs start and end. Samples from
    # five levels make the predictor's ties (Spec/png.md §6.3) common. Their own generator, so
    # the cases above keep their pixels.
    runs_rng = random.Random(46)
    schedule = []
    for run in range(1, 10):
        schedule += [4] * run + [1]
    schedule += [4] * 7
    for colour_type in (2, 6):
        for width in (10, 40):
            rows = [[tuple(runs_rng.choice((0, 1, 64, 128, 255)) for _ in range(w.CHANNELS[colour_type]))
                     for _ in range(width)] for _ in range(len(schedule))]
            for mode in ("stored", "dynamic"):
                cases.append(decode_case(f"decode/filter-paeth-runs-type{colour_type}-{width}x{len(schedule)}-{mode}",
                                         rows, width, len(schedule), colour_type, 8, mode=mode,
                                         filter_for_row=lambda y: schedule[y]))
    return cases


# --- errors ----------------------------------------------------------------------------------

def error_case(name, png, error, limits=None):
    request = {"op": "png.decode", "png": b64(png)}
    if limits:
        request["limits"] = limits
    return {"name": f"error/{name}", "steps": [step(request, {"error": error})]}


def deflate_error_png(raw_deflate, data_for_adler=b"", width=1, height=1):
    """A gray8 PNG whose zlib stream carries the given raw DEFLATE bytes."""
    stream = b"\x78\x01" + raw_deflate + struct.pack(">I", zlib.adler32(data_for_adler) & 0xFFFFFFFF)
    return w.assemble(w.ihdr(width, height, 8, 0), stream)


def error_cases():
    cases = []
    good_data = bytes([0, 10, 20, 30, 40, 0, 50, 60, 70, 80])  # gray8 4x2, filter None
    good_stream = w.compress(good_data, "dynamic")
    header = w.ihdr(4, 2, 8, 0)
    good = w.assemble(header, good_stream)
    assert len(zlib.decompress(good_stream)) == 2 * (1 + 4)

    def with_header(h, stream=good_stream, plte=None, trns=None):
        return w.assemble(h, stream, plte=plte, trns=trns)

    cases.append(error_case("signature-wrong-byte", b"\x89PNG\r\n\x1a\x0b" + good[8:], E["signature"]))
    cases.append(error_case("signature-of-another-format", b"GIF89a" + bytes(40), E["signature"]))
    cases.append(error_case("signature-cut-short", good[:5], E["truncated"]))
    cases.append(error_case("empty-file", b"", E["truncated"]))
    # CRC mismatch in IHDR, IDAT and IEND.
    for label, kind, data in [("ihdr", "IHDR", header), ("idat", "IDAT", good_stream), ("iend", "IEND", b"")]:
        bad = bytearray(w.SIGNATURE)
        bad += w.chunk("IHDR", header, crc=(zlib.crc32(b"IHDR" + header) ^ 1) if kind == "IHDR" else None)
        bad += w.chunk("IDAT", good_stream, crc=(zlib.crc32(b"IDAT" + good_stream) ^ 0x80000000) if kind == "IDAT" else None)
        bad += w.chunk("IEND", b"", crc=0 if kind == "IEND" else None)
        cases.append(error_case(f"crc-mismatch-{label}", bytes(bad), E["crc"]))
    crc_bad = bytearray(good)
    crc_bad[8 + 8 + 4] ^= 0x01  # a bit of IHDR's width: the declared CRC no longer matches
    cases.append(error_case("crc-mismatch-after-bit-flip-in-data", bytes(crc_bad), E["crc"]))
    # Truncation: inside a chunk header, inside chunk data, inside the CRC, before IEND.
    idat_start = 8 + 25
    cases.append(error_case("truncated-inside-chunk-length", good[:idat_start + 2], E["truncated"]))
    cases.append(error_case("truncated-inside-idat-data", good[:idat_start + 8 + 3], E["truncated"]))
    cases.append(error_case("truncated-inside-crc", good[:len(good) - 12 - 2], E["truncated"]))
    cases.append(error_case("missing-iend", good[:len(good) - 12], E["missing_iend"]))
    # IHDR problems.
    cases.append(error_case("ihdr-not-first", w.SIGNATURE + w.chunk("gAMA", bytes(4)) + good[8:], E["ihdr_first"]))
    cases.append(error_case("ihdr-missing", w.SIGNATURE + good[8 + 25:], E["ihdr_first"]))
    cases.append(error_case("ihdr-too-long", w.SIGNATURE + w.chunk("IHDR", header + b"\x00") + good[8 + 25:],
                            E["ihdr_length"]))
    cases.append(error_case("ihdr-too-short", w.SIGNATURE + w.chunk("IHDR", header[:12]) + good[8 + 25:],
                            E["ihdr_length"]))
    cases.append(error_case("ihdr-zero-width", with_header(w.ihdr(0, 2, 8, 0)), E["ihdr_dimensions"]))
    cases.append(error_case("ihdr-zero-height", with_header(w.ihdr(4, 0, 8, 0)), E["ihdr_dimensions"]))
    cases.append(error_case("ihdr-width-over-2^31-1", with_header(w.ihdr(0x80000000, 1, 8, 0)), E["ihdr_dimensions"]))
    for colour_type, depth in [(0, 3), (0, 32), (2, 4), (3, 16), (4, 1), (6, 2), (2, 0)]:
        cases.append(error_case(f"ihdr-depth{depth}-for-type{colour_type}", with_header(w.ihdr(4, 2, depth, colour_type)),
                                E["ihdr_depth"]))
    for colour_type in [1, 5, 7, 255]:
        cases.append(error_case(f"ihdr-colour-type-{colour_type}", with_header(w.ihdr(4, 2, 8, colour_type)), E["ihdr_colour"]))
    cases.append(error_case("ihdr-compression-method-1", with_header(w.ihdr(4, 2, 8, 0, compression=1)), E["ihdr_compression"]))
    cases.append(error_case("ihdr-filter-method-1", with_header(w.ihdr(4, 2, 8, 0, filter_method=1)), E["ihdr_filter"]))
    cases.append(error_case("ihdr-interlace-method-2", with_header(w.ihdr(4, 2, 8, 0, interlace=2)), E["ihdr_interlace"]))
    # Chunk order and presence.
    cases.append(error_case("iend-with-data", good[:-12] + w.chunk("IEND", b"\x00"), E["chunk_length"]))
    cases.append(error_case("idat-missing", w.SIGNATURE + w.chunk("IHDR", header) + w.chunk("IEND", b""), E["missing_idat"]))
    palette_data = bytes([0, 2, 1, 3, 0, 0, 1, 2, 3, 0])  # indices at depth 8, 4x2
    palette_stream = w.compress(palette_data, "dynamic")
    palette_header = w.ihdr(4, 2, 8, 3)
    cases.append(error_case("plte-missing-for-palette-image", with_header(palette_header, palette_stream), E["missing_plte"]))
    cases.append(error_case("plte-length-not-multiple-of-3", with_header(palette_header, palette_stream, plte=bytes(13)),
                            E["plte_length"]))
    cases.append(error_case("plte-more-than-256-entries", with_header(palette_header, palette_stream, plte=bytes(257 * 3)),
                            E["plte_length"]))
    cases.append(error_case("plte-empty", with_header(palette_header, palette_stream, plte=b""), E["plte_length"]))
    cases.append(error_case("plte-more-entries-than-depth-allows",
                            with_header(w.ihdr(4, 2, 1, 3), w.compress(bytes([0, 0x50, 0, 0xA0]), "dynamic"), plte=bytes(9)),
                            E["plte_length"]))
    cases.append(error_case("trns-longer-than-palette", with_header(palette_header, palette_stream, plte=bytes(12), trns=bytes(5)),
                            E["trns_length"]))
    cases.append(error_case("trns-wrong-length-for-gray", with_header(header, trns=bytes(3)), E["trns_length"]))
    cases.append(error_case("trns-wrong-length-for-rgb",
                            with_header(w.ihdr(1, 1, 8, 2), w.compress(bytes(4), "dynamic"), trns=bytes(2)), E["trns_length"]))
    cases.append(error_case("chunk-length-over-2^31-1", w.SIGNATURE + w.chunk("IHDR", header) + struct.pack(">I", 0x80000000) + b"IDAT" + good_stream,
                            E["chunk_length"]))
    cases.append(error_case("chunk-type-not-letters", w.SIGNATURE + w.chunk("IHDR", header) + w.chunk(b"ID4T", b"") + good[8 + 25:],
                            E["chunk_type"]))
    cases.append(error_case("ihdr-twice", w.SIGNATURE + w.chunk("IHDR", header) + good[8:], E["duplicate"]))
    cases.append(error_case("plte-twice", w.assemble(palette_header, palette_stream, plte=bytes(12),
                                                     between=[w.chunk("PLTE", bytes(12))]), E["duplicate"]))
    rgb_stream = w.compress(bytes([0, 1, 2, 3]), "dynamic")
    cases.append(error_case("plte-after-idat", w.assemble(w.ihdr(1, 1, 8, 2), rgb_stream, after=[w.chunk("PLTE", bytes(12))]),
                            E["misplaced"]))
    cases.append(error_case("plte-in-gray-image", with_header(header, plte=bytes(6)), E["plte_not_allowed"]))
    cases.append(error_case("trns-in-rgba-image", with_header(w.ihdr(1, 1, 8, 6), w.compress(bytes(5), "dynamic"), trns=bytes(6)),
                            E["trns_not_allowed"]))
    cases.append(error_case("trns-before-plte", w.assemble(palette_header, palette_stream, before=[w.chunk("tRNS", bytes(2))],
                                                           plte=bytes(12)), E["misplaced"]))
    critical = bytearray(w.SIGNATURE) + w.chunk("IHDR", header) + w.chunk("CRIT", b"x") + good[8 + 25:]
    cases.append(error_case("unknown-critical-chunk", bytes(critical), E["critical"]))
    split = len(good_stream) // 2
    gap = (w.SIGNATURE + w.chunk("IHDR", header) + w.chunk("IDAT", good_stream[:split]) + w.chunk("tEXt", b"a\x00b")
           + w.chunk("IDAT", good_stream[split:]) + w.chunk("IEND", b""))
    cases.append(error_case("idat-not-consecutive", gap, E["idat_gap"]))
    # Image data problems.
    cases.append(error_case("filter-type-5", with_header(header, w.compress(bytes([5, 1, 2, 3, 4, 0, 1, 2, 3, 4]), "dynamic")),
                            E["filter_type"]))
    cases.append(error_case("image-data-too-short", with_header(header, w.compress(good_data[:-1], "dynamic")), E["too_little"]))
    cases.append(error_case("image-data-too-long", with_header(header, w.compress(good_data + b"\x00", "dynamic")), E["too_much"]))
    cases.append(error_case("interlaced-data-too-short",
                            with_header(w.ihdr(4, 2, 8, 0, interlace=1), w.compress(bytes(7), "dynamic")), E["too_little"]))
    # Limits, checked before allocating.
    huge = with_header(w.ihdr(100000, 100000, 8, 6))
    cases.append(error_case("limit-pixel-count-default-100000x100000", huge, E["limit_pixels"]))
    cases.append(error_case("limit-pixel-count-set-by-caller", good, E["limit_pixels"], {"maximumPixelCount": 7}))
    cases.append(error_case("limit-decompressed-bytes-set-by-caller", good, E["limit_bytes"], {"maximumDecompressedBytes": 7}))
    # zlib header.
    def zlib_header(cmf, flags):
        """CMF and FLG with FCHECK set so that the 16-bit value is a multiple of 31."""
        flags &= 0xE0
        return bytes([cmf, flags | (31 - ((cmf << 8) | flags) % 31) % 31])

    for label, cmf_flg, name in [("method-7", zlib_header(0x77, 0), "zlib_method"),
                                 ("fcheck-wrong", bytes([0x78, 0x02]), "zlib_check"),
                                 ("window-64k", zlib_header(0x88, 0), "zlib_window")]:
        cases.append(error_case(f"zlib-header-{label}", with_header(header, cmf_flg + good_stream[2:]), E[name]))
    dictionary = zlib_header(0x78, 0x20) + struct.pack(">I", 1) + good_stream[2:]
    cases.append(error_case("zlib-preset-dictionary", with_header(header, dictionary), E["zlib_dictionary"]))
    adler_bad = bytearray(good_stream)
    adler_bad[-1] ^= 0xFF
    cases.append(error_case("adler32-mismatch", with_header(header, bytes(adler_bad)), E["adler"]))
    cases.append(error_case("zlib-stream-cut-before-adler", with_header(header, good_stream[:-4]), E["end_of_input"]))
    cases.append(error_case("deflate-stream-cut", with_header(header, good_stream[:len(good_stream) // 2]), E["end_of_input"]))
    # DEFLATE format errors (RFC 1951), each in a 1x1 gray8 image (2 bytes of filtered data).
    cases.append(error_case("deflate-block-type-3", deflate_error_png(b"\x07\x00"), E["block_type"]))
    cases.append(error_case("deflate-stored-nlen-wrong", deflate_error_png(b"\x01\x02\x00\xfd\xfe\x00\x00", b"\x00\x00"),
                            E["stored_length"]))
    # Dynamic block whose code-length code lengths are all zero except one (incomplete code)
    # is accepted by some decoders; an over-subscribed set is an error everywhere.
    cases.append(error_case("deflate-dynamic-oversubscribed-code-lengths",
                            deflate_error_png(bits_to_bytes(dynamic_header_oversubscribed())), E["code_lengths"]))
    cases.append(error_case("deflate-dynamic-repeat-with-no-previous-length",
                            deflate_error_png(bits_to_bytes(dynamic_header_repeat_first())), E["repeat_first"]))
    cases.append(error_case("deflate-fixed-literal-symbol-286",
                            deflate_error_png(bits_to_bytes(fixed_block_with_codes([fixed_literal(286)]))), E["literal_symbol"]))
    cases.append(error_case("deflate-fixed-distance-symbol-30",
                            deflate_error_png(bits_to_bytes(fixed_block_with_codes([fixed_literal(0), fixed_literal(257),
                                                                                    [(30, 5, True)]]))),
                            E["distance_symbol"]))
    cases.append(error_case("deflate-distance-too-far-back",
                            deflate_error_png(bits_to_bytes(fixed_block_with_codes([fixed_literal(0), fixed_literal(257),
                                                                                    [(1, 5, True)]]))),
                            E["distance_far"]))
    cases.append(error_case("deflate-dynamic-incomplete-literal-code",
                            deflate_error_png(bits_to_bytes(dynamic_block({0: 1, 256: 2}, {0: 1, 1: 1}, [])), b"\x00\x00"),
                            E["incomplete"]))
    cases.append(error_case("deflate-dynamic-no-end-of-block-code",
                            deflate_error_png(bits_to_bytes(dynamic_block({0: 1, 1: 1}, {0: 1, 1: 1}, [])), b"\x00\x00"),
                            E["missing_end_of_block"]))
    cases.append(error_case("deflate-dynamic-287-literal-codes",
                            deflate_error_png(bits_to_bytes(dynamic_block({0: 1, 256: 1}, {0: 1, 1: 1}, [], hlit=287))),
                            E["too_many_codes"]))
    cases.append(error_case("deflate-dynamic-repeat-past-the-last-length",
                            deflate_error_png(bits_to_bytes(dynamic_block({0: 1, 256: 1}, {0: 1, 1: 1}, [], overflow=True))),
                            E["lengths_overflow"]))
    # Spec/deflate.md §5.3: the bit pattern an accepted incomplete distance code leaves unassigned.
    four = {0: 2, 1: 2, 256: 2, 257: 2}
    cases.append(error_case("deflate-dynamic-unassigned-distance-code",
                            deflate_error_png(bits_to_bytes(dynamic_block(four, {0: 1}, [0, 0, 257], tail=[(1, 1, True)])),
                                              b"\x00\x00", width=4),
                            E["unassigned"]))
    cases.append(error_case("deflate-dynamic-match-without-distance-codes",
                            deflate_error_png(bits_to_bytes(dynamic_block(four, {}, [0, 0, 257], tail=[(0, 1, True)])),
                                              b"\x00\x00", width=4),
                            E["unassigned"]))
    return cases


# --- hand-made DEFLATE bit streams -------------------------------------------------------------

def bits_to_bytes(bits):
    """bits: list of (value, count, msb_first). DEFLATE packs from the least significant bit;
    Huffman codes go most significant bit first."""
    out = bytearray()
    accumulator = 0
    filled = 0
    for value, count, msb_first in bits:
        for i in range(count):
            bit = (value >> (count - 1 - i)) & 1 if msb_first else (value >> i) & 1
            accumulator |= bit << filled
            filled += 1
            if filled == 8:
                out.append(accumulator)
                accumulator = 0
                filled = 0
    if filled:
        out.append(accumulator)
    return bytes(out)


def fixed_literal(symbol):
    if symbol < 144:
        return [(0x30 + symbol, 8, True)]
    if symbol < 256:
        return [(0x190 + symbol - 144, 9, True)]
    if symbol < 280:
        return [(symbol - 256, 7, True)]
    return [(0xC0 + symbol - 280, 8, True)]


def fixed_block_with_codes(codes):
    bits = [(1, 1, False), (1, 2, False)]  # BFINAL=1, BTYPE=01
    for code in codes:
        bits += code
    return bits


def dynamic_header_oversubscribed():
    # HLIT=0 (257), HDIST=0 (1), HCLEN=0 (4 code-length codes: 16, 17, 18, 0), each of length 1:
    # four codes of length 1 over-subscribe the code space.
    bits = [(1, 1, False), (2, 2, False), (0, 5, False), (0, 5, False), (0, 4, False)]
    bits += [(1, 3, False)] * 4
    return bits + [(0, 8, False)]


def dynamic_header_repeat_first():
    # Code-length codes: symbol 16 and symbol 0 get length 1 (a complete code); the first
    # code length read is 16, "repeat the previous length", with no previous length.
    bits = [(1, 1, False), (2, 2, False), (0, 5, False), (0, 5, False), (0, 4, False)]
    bits += [(1, 3, False), (0, 3, False), (0, 3, False), (1, 3, False)]  # lengths for 16, 17, 18, 0
    # Canonical codes: symbol 0 -> code 0, symbol 16 -> code 1. Emit 16, then its 2 extra bits.
    bits += [(1, 1, True), (0, 2, False)]
    return bits + [(0, 8, False)]


# The code-length code used by dynamic_block: a complete code over all 19 symbols,
# 13 of length 4 and 6 of length 5.
CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
CL_LENGTHS = {symbol: (4 if index < 13 else 5) for index, symbol in enumerate(range(19))}


def canonical_codes(lengths):
    """RFC 1951 §3.2.2: symbol -> (code, length) for the given {symbol: length}."""
    codes = {}
    code = 0
    for length in range(1, 16):
        for symbol in sorted(s for s, l in lengths.items() if l == length):
            codes[symbol] = (code, length)
            code += 1
        code <<= 1
    return codes


def dynamic_block(literal_lengths, distance_lengths, symbols, hlit=None, overflow=False, tail=()):
    """A final dynamic-Huffman block with the given code lengths ({symbol: length}), then the
    given literal/length symbols. hlit overrides the literal code count; overflow ends the
    length list with a repeat that runs past its end."""
    literal_count = hlit or max(257, max(literal_lengths) + 1)
    distance_count = max(1, max(distance_lengths) + 1) if distance_lengths else 1
    bits = [(1, 1, False), (2, 2, False), (literal_count - 257, 5, False), (distance_count - 1, 5, False), (19 - 4, 4, False)]
    for symbol in CL_ORDER:
        bits.append((CL_LENGTHS[symbol], 3, False))
    cl_codes = canonical_codes(CL_LENGTHS)
    sequence = [literal_lengths.get(i, 0) for i in range(literal_count)] + [distance_lengths.get(i, 0) for i in range(distance_count)]
    if overflow:
        sequence = sequence[:-2]
    for length in sequence:
        code, size = cl_codes[length]
        bits.append((code, size, True))
    if overflow:
        code, size = cl_codes[18]
        bits += [(code, size, True), (10, 7, False)]  # 18: 11 + 10 = 21 zeros, but 2 remain
    literal_codes = canonical_codes(literal_lengths)
    for symbol in symbols:
        code, size = literal_codes[symbol]
        bits.append((code, size, True))
    return bits + list(tail) + [(0, 16, False)]


# RFC 1951 §3.2.5: length and distance bases and extra bits.
LENGTH_BASES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
                195, 227, 258]
LENGTH_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]
DISTANCE_BASES = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                  3073, 4097, 6145, 8193, 12289, 16385, 24577]
DISTANCE_EXTRA = [0, 0, 0, 0] + [i // 2 for i in range(2, 28)]


def fixed_match(length, distance):
    """The fixed-Huffman bits of one match (RFC 1951 §3.2.6)."""
    code = max(i for i, base in enumerate(LENGTH_BASES) if base <= length)
    if length == 258:
        code = 28
    bits = fixed_literal(257 + code) + [(length - LENGTH_BASES[code], LENGTH_EXTRA[code], False)]
    dcode = max(i for i, base in enumerate(DISTANCE_BASES) if base <= distance)
    return bits + [(dcode, 5, True), (distance - DISTANCE_BASES[dcode], DISTANCE_EXTRA[dcode], False)]


def window_edge_png(width, prefix, distance):
    """A 1-row gray8 image whose zlib stream holds the first `prefix` filtered bytes in a
    stored block, then a fixed block that copies the rest with matches `distance` back
    (Spec/deflate.md §4.4: valid while distance <= the bytes produced so far). Returns the
    PNG and the filtered data a decoder must produce."""
    rng = random.Random(f"window-{width}-{prefix}-{distance}")
    data = bytearray([0] + [rng.randrange(256) for _ in range(prefix - 1)])
    total = 1 + width
    stream = bytearray(b"\x78\x01")
    for start in range(0, prefix, 65535):
        block = bytes(data[start:start + 65535])
        stream += b"\x00" + struct.pack("<HH", len(block), len(block) ^ 0xFFFF) + block
    bits = [(1, 1, False), (1, 2, False)]
    while len(data) < total:
        length = min(258, total - len(data))
        if total - len(data) - length in (1, 2):
            length -= 3  # leave a remainder a match can carry
        bits += fixed_match(length, distance)
        for _ in range(length):
            data.append(data[-distance] if distance <= len(data) else 0)
    bits += fixed_literal(256)
    stream += bits_to_bytes(bits) + struct.pack(">I", zlib.adler32(bytes(data)) & 0xFFFFFFFF)
    return w.assemble(w.ihdr(width, 1, 8, 0), bytes(stream)), bytes(data)


def boundary_cases():
    """Boundaries that tell a right reading from a near miss (issue 12)."""
    cases = []
    # Spec/deflate.md §4.4, §2.6: a distance equal to the bytes produced is valid, one more is
    # distanceTooFar; the farthest distance, 32,768, is valid whatever CINFO says.
    for label, width, prefix, distance in [("distance-equals-output-so-far", 40, 11, 11),
                                           ("distance-32768-at-the-window-edge", 40000, 32768, 32768)]:
        png, data = window_edge_png(width, prefix, distance)
        rows = [[(b,) for b in data[1:]]]
        cases.append({"name": f"decode/{label}", "steps": [step({"op": "png.decode", "png": b64(png)},
                                                                decode_expect(rows, width, 1, 0, 8, 0))]})
    png, _ = window_edge_png(40, 11, 12)
    cases.append(error_case("deflate-distance-one-past-the-output", png, E["distance_far"]))
    # Spec/png.md §4.3.5: every chunk's CRC is checked, ancillary and unknown ones too.
    rows, _ = make_image(random.Random(41), 3, 2, 0, 8)
    data = w.image_data(rows, 3, 2, 0, 8, 0, lambda y: 0)
    stream = w.compress(data, "dynamic")
    for label, bad in [("known-ancillary", w.chunk("tEXt", b"k\x00v", crc=0)),
                       ("unknown-ancillary", w.chunk("zzZz", b"x", crc=1))]:
        cases.append(error_case(f"crc-mismatch-{label}-chunk", w.assemble(w.ihdr(3, 2, 8, 0), stream, before=[bad]),
                                E["crc"]))
    # Spec/png.md §5.2: the case of the first letter decides: critical (upper) is an error,
    # ancillary (lower) is skipped, whatever the other letters.
    cases.append(error_case("unknown-critical-chunk-lower-case-rest", w.assemble(w.ihdr(3, 2, 8, 0), stream,
                                                                                 before=[w.chunk("Zzzz", b"")]), E["critical"]))
    skipped = decode_case("decode/unknown-ancillary-chunk-upper-case-rest", rows, 3, 2, 0, 8, before=[w.chunk("zZZZ", b"x")])
    cases.append(skipped)
    # Spec/png.md §5.4: whatever follows IEND is ignored, even a chunk with a bad CRC.
    png = w.assemble(w.ihdr(3, 2, 8, 0), stream) + w.chunk("IDAT", b"junk", crc=0) + b"\xff" * 5
    cases.append({"name": "decode/data-after-iend-ignored",
                  "steps": [step({"op": "png.decode", "png": b64(png)}, decode_expect(rows, 3, 2, 0, 8, 0))]})
    return cases


def png_covers(name):
    """The rules of Spec/png.md and Spec/deflate.md a case checks, from its name."""
    rules = []
    table = [
        (r"^encode/(gray|rgb|grayAlpha|rgba)", ["png §2.1", "png §2.2", "png §2.3", "png §2.4", "png §2.5", "png §2.6",
                                                 "png §2.7", "png §3", "png §1.1", "png §1.2", "png §1.3"]),
        (r"^encode/(one-|three-|two-|wide-)", ["png §2.4", "png §2.5", "png §2.7"]),
        (r"^encode/worked-example", ["png §2.9"]),
        (r"^encode/error-", ["png §2.8"]),
        (r"^decode/type", ["png §4.1", "png §4.2", "png §4.3.6", "png §5.1", "png §5.3", "png §6.1", "png §6.2", "png §6.3",
                           "png §7.1", "png §7.2", "png §8.1", "png §8.2", "png §9", "deflate §1.1", "deflate §2.1",
                           "deflate §2.3", "deflate §2.4", "deflate §3.1", "deflate §4.1", "deflate §4.3.1",
                           "deflate §4.3.2", "deflate §4.3.3", "deflate §4.3.4", "deflate §4.3.5", "deflate §4.3.6",
                           "deflate §4.4", "deflate §5.1", "deflate §5.2", "deflate §5.3", "deflate §6.3"]),
        (r"-adam7-", ["png §6.4"]),
        (r"^decode/filter-", ["png §6.3"]),
        (r"^decode/deflate-stored", ["deflate §4.2"]),
        (r"^decode/deflate-", ["deflate §4.1", "deflate §4.4", "deflate §5.1"]),
        (r"^decode/(trns|palette)", ["png §5.1", "png §8.2", "png §7.2"]),
        (r"^decode/bytes-after-the-zlib", ["deflate §2.5", "png §6.2"]),
        (r"^decode/idat-split", ["png §6.1"]),
        (r"^decode/(ancillary|unknown-ancillary)", ["png §5.2"]),
        (r"^decode/rgba16", ["png §8.1", "png §1.1"]),
        (r"^decode/data-after-iend", ["png §5.4"]),
        (r"^decode/distance-", ["deflate §4.4", "deflate §2.6"]),
        (r"^error/(signature|empty-file)", ["png §4.1"]),
        (r"^error/crc-mismatch", ["png §4.3.5", "png §1.3"]),
        (r"^error/truncated", ["png §4.3.1", "png §4.3.4"]),
        (r"^error/missing-iend|^error/idat-missing", ["png §4.3", "png §5.3"]),
        (r"^error/ihdr", ["png §4.2"]),
        (r"^error/(iend|plte|trns|idat-not|ihdr-twice)", ["png §5.1"]),
        (r"^error/chunk-length", ["png §4.3.3"]),
        (r"^error/chunk-type", ["png §4.3.2"]),
        (r"^error/unknown-critical", ["png §5.2"]),
        (r"^error/filter-type", ["png §6.3"]),
        (r"^error/(image-data|interlaced-data)", ["png §6.2"]),
        (r"^error/limit", ["png §10.1"]),
        (r"^error/zlib-header", ["deflate §2.1", "deflate §7.1"]),
        (r"^error/zlib-preset", ["deflate §2.2"]),
        (r"^error/adler", ["deflate §2.4"]),
        (r"^error/(zlib-stream-cut|deflate-stream-cut)", ["deflate §3.2"]),
        (r"^error/deflate-block-type", ["deflate §4.1"]),
        (r"^error/deflate-stored", ["deflate §4.2"]),
        (r"^error/deflate-dynamic-(oversubscribed|incomplete)", ["deflate §5.2"]),
        (r"^error/deflate-dynamic-(repeat|287)", ["deflate §4.3"]),
        (r"^error/deflate-dynamic-no-end", ["deflate §4.3"]),
        (r"^error/deflate-fixed", ["deflate §4.4", "deflate §5.3"]),
        (r"^error/deflate-distance", ["deflate §4.4"]),
        (r"^error/deflate-dynamic-(unassigned|match-without)", ["deflate §5.3"]),
        (r"^error/", ["png §9", "deflate §7.1", "deflate §7.2", "deflate §1.5", "png §4.3"]),
    ]
    for pattern, covered in table:
        if re.search(pattern, name):
            rules += [rule for rule in covered if rule not in rules]
    return rules


def with_covers(cases):
    for case in cases:
        case["covers"] = png_covers(case["name"])
        assert case["covers"], case["name"]
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    boundaries = boundary_cases()
    write("encode.json", "Canonical encoding (Spec/png.md): pixels to the exact expected bytes.", with_covers(encode_cases()))
    write("decode.json", "Decoding: a file to its native samples and its RGBA conversion.",
          with_covers(decode_cases() + [c for c in boundaries if c["name"].startswith("decode/")]))
    write("errors.json", "Decoding errors: a file to the expected error name.",
          with_covers(error_cases() + [c for c in boundaries if c["name"].startswith("error/")]))


if __name__ == "__main__":
    main()
