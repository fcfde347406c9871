#!/usr/bin/env python3
"""Conformance driver for libpng with zlib (Spec/conformance.md §2–§5): a JSON shim in front
of the C program libpng_driver.c, which it runs once per request.

Run: .build/debug/conformance --area png -- python3 Conformance/drivers/libpng_driver.py [PROGRAM]
PROGRAM defaults to .build/peers/libpng_driver, which run_peers.py builds against the system's
libpng (Debian: libpng-dev).

What libpng is asked, and how, is described in libpng_driver.c. Its warnings are passed on in
a `warnings` field (the runner ignores fields a case does not name). libpng has no pixel-count
or decompressed-size limit, so a request with `limits` is answered `unsupported`.

Errors: libpng's message gets a spec name only where it states the same condition (MESSAGES
below); otherwise `unmapped` with libpng's words. A program that dies on a signal is answered
`crashed`.
"""
import os
import re
import subprocess
import sys

from peer_protocol import FORMATS, Answer, b64, decoded, serve, unb64, zlib_name

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", ".build", "peers",
                                                             "libpng_driver")

# libpng 1.6 message (a regular expression matched at the start) -> the spec name it states.
# Each was checked against the condition libpng tests before raising it (pngrutil.c, png.c).
MESSAGES = [
    (r"(\w{4}: )?CRC error$", "chunkChecksumMismatch"),  # png_crc_finish on a critical chunk
    (r"Not a PNG file$", "invalidSignature"),  # png_sig_cmp found a byte that differs
    (r"PNG file corrupted by ASCII conversion$", "invalidSignature"),  # ditto, bytes 4-7
    (r"\w{4}: missing IHDR$", "missingHeader"),  # a chunk before IHDR
    (r"(\w{4}: )?Missing IHDR before IDAT$", "missingHeader"),
    (r"IHDR: out of place$", "duplicateChunk"),  # png_handle_IHDR: IHDR seen before
    (r"IHDR: invalid$", "invalidChunkLength"),  # png_handle_IHDR: length != 13
    (r"PLTE: duplicate$", "duplicateChunk"),
    (r"PLTE: invalid$", "invalidPalette"),  # length over 768 or not a multiple of 3
    (r"Invalid palette$", "invalidPalette"),  # png_set_PLTE: no entries
    (r"(\w{4}: )?Missing PLTE before IDAT$", "missingPalette"),
    (r".{4,}: invalid chunk type$", "invalidChunkType"),  # png_check_chunk_name: not a letter
    (r"\w{4}: unhandled critical chunk$", "unknownCriticalChunk"),
    (r"(\w{4}: )?missing LZ dictionary$", "presetDictionaryUnsupported"),  # zlib Z_NEED_DICT
    (r"bad adaptive filter value$", "invalidFilterType"),
]


def answer_for_error(text, warnings):
    evidence = f"libpng: {text}" + (f" (warnings: {'; '.join(warnings)})" if warnings else "")
    if text == "Invalid IHDR data":
        # png_check_IHDR warns once per bad field, then fails with this message.
        limits = [w for w in warnings if "exceeds user limit" in w]
        if limits and len(limits) == len([w for w in warnings if "IHDR" in w]):
            return Answer("limitExceeded", evidence)
        return Answer("invalidHeader", evidence)
    for pattern, name in MESSAGES:
        if re.match(pattern, text):
            return Answer(name, evidence)
    # libpng passes zlib's message on, after the chunk name: "IDAT: invalid block type".
    name = zlib_name(text)
    if name:
        return Answer(name, evidence)
    return Answer("unmapped", evidence)


def run(arguments, data):
    try:
        result = subprocess.run([PROGRAM, *arguments], input=data, capture_output=True, timeout=15)
    except FileNotFoundError:
        raise Answer("unsupported", f"{PROGRAM} is not built (run Conformance/drivers/run_peers.py)")
    except subprocess.TimeoutExpired:
        raise Answer("crashed", "libpng_driver ran for more than 15 s")
    if result.returncode < 0:
        raise Answer("crashed", f"libpng_driver died on signal {-result.returncode}")
    out = result.stdout
    warnings = []
    while True:
        line, _, rest = out.partition(b"\n")
        text = line.decode("utf-8", "replace")
        if text.startswith("warning "):
            warnings.append(text[len("warning "):])
            out = rest
            continue
        return text, rest, warnings


def hello():
    try:
        version = subprocess.run([PROGRAM, "version"], capture_output=True, timeout=15).stdout
        name = version.decode().strip()
    except OSError:
        name = "libpng (not built)"
    return {"protocol": 1, "implementation": name, "areas": ["png"], "backends": []}


def decode(request):
    if "limits" in request:
        raise Answer("unsupported", "libpng has no pixel-count or decompressed-size limit")
    head, body, warnings = run(["decode"], unb64(request["png"]))
    if head.startswith("error "):
        raise answer_for_error(head[len("error "):], warnings)
    fields = head.split()
    if not fields or fields[0] != "decoded":
        raise Answer("unmapped", f"libpng_driver: unexpected output {head!r}")
    width, height, color_type, bit_depth, interlaced, rgba_depth, n_samples, n_rgba = map(int, fields[1:])
    extra = {"warnings": warnings} if warnings else {}
    return decoded(width, height, color_type, bit_depth, interlaced, body[:n_samples],
                   body[n_samples:n_samples + n_rgba], rgba_depth, **extra)


def encode(request):
    colour_type, depth, _ = FORMATS[request["format"]]
    arguments = ["encode", str(request["width"]), str(request["height"]), str(colour_type), str(depth)]
    head, body, warnings = run(arguments, unb64(request["pixels"]))
    if head.startswith("error "):
        text = head[len("error "):]
        evidence = f"libpng: {text}" + (f" (warnings: {'; '.join(warnings)})" if warnings else "")
        dimension_warnings = {"Image width is zero in IHDR", "Image height is zero in IHDR",
                              "Invalid image width in IHDR", "Invalid image height in IHDR"}
        if text == "Invalid IHDR data" and warnings and set(warnings) <= dimension_warnings:
            raise Answer("invalidDimensions", evidence)
        raise Answer("unmapped", evidence)
    if head.startswith("unsupported "):
        raise Answer("unsupported", "libpng_driver: " + head[len("unsupported "):])
    fields = head.split()
    if len(fields) != 2 or fields[0] != "encoded":
        raise Answer("unmapped", f"libpng_driver: unexpected output {head!r}")
    return {"png": b64(body[:int(fields[1])])}


if __name__ == "__main__":
    serve(hello, {"png.decode": decode, "png.encode": encode})
