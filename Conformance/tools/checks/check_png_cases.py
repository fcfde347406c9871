#!/usr/bin/env python3
"""Cross-checks Conformance/png/*.json against Pillow (libpng-style decoding), a third
implementation independent of both pngwriter.py and the Swift decoder.

Checks that every valid 8-bit-or-less decode case gives the expected RGBA in Pillow (with the
two tRNS workarounds below, each stated where it is applied), every
encode case's expected PNG decodes in Pillow to its input pixels (8-bit formats), and every
error case Pillow tolerates is counted (Pillow is lenient about chunk rules, so that is
information, not a problem; --verbose lists them). Optional: needs Pillow (python3 -m pip install pillow).
"""
import base64
import io
import json
import os
import struct
import sys
import warnings
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
PNG = os.path.join(HERE, "..", "..", "png")
warnings.simplefilter("ignore")


def load(name):
    with open(os.path.join(PNG, name)) as f:
        return json.load(f)["cases"]


def with_masked_transparency_key(data):
    """The file with its tRNS gray/RGB key masked to the bit depth (Spec/png.md §7.2, PNG Third
    Edition #11tRNS). Pillow compares the key unmasked, so for keys with bits above the depth
    it disagrees with the spec; decoding the masked file keeps the check independent."""
    out, position = bytearray(data[:8]), 8
    bit_depth = color_type = None
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = bytearray(data[position + 8:position + 8 + length])
        if kind == b"IHDR":
            bit_depth, color_type = body[8], body[9]
        if kind == b"tRNS" and color_type in (0, 2) and bit_depth < 16:
            for i in range(0, len(body), 2):
                sample = struct.unpack(">H", body[i:i + 2])[0] & ((1 << bit_depth) - 1)
                body[i:i + 2] = struct.pack(">H", sample)
        crc = zlib.crc32(kind + bytes(body))
        out += struct.pack(">I4s", length, kind) + body + struct.pack(">I", crc)
        position += 12 + length
        if kind == b"IEND":
            break
    return bytes(out + data[position:])


def pillow_rgba(data):
    image = Image.open(io.BytesIO(data))
    image.load()
    bit_depth, color_type = data[24], data[25]
    if color_type == 0 and bit_depth in (2, 4) and "transparency" in image.info:
        # Pillow widens 2- and 4-bit gray to 8 bits but keeps the key unscaled; §7.2 compares
        # the key with the unscaled sample, which is the widened key against the widened sample.
        image.info["transparency"] *= 255 // ((1 << bit_depth) - 1)
    return image.convert("RGBA").tobytes()


problems = 0
checked = 0
tolerated = []
for case in load("decode.json"):
    request, expect = case["steps"][0]["request"], case["steps"][0]["expect"]
    if expect["bitDepth"] == 16:
        continue
    got = pillow_rgba(with_masked_transparency_key(base64.b64decode(request["png"])))
    checked += 1
    if got != base64.b64decode(expect["rgba"]):
        problems += 1
        print("decode mismatch:", case["name"])
format_modes = {"gray8": "L", "rgb8": "RGB", "rgba8": "RGBA", "grayAlpha8": "LA"}
for case in load("encode.json"):
    request, expect = case["steps"][0]["request"], case["steps"][0]["expect"]
    if "png" not in expect or request["format"] not in format_modes:
        continue
    image = Image.open(io.BytesIO(base64.b64decode(expect["png"])))
    checked += 1
    if image.convert(format_modes[request["format"]]).tobytes() != base64.b64decode(request["pixels"]):
        problems += 1
        print("encode mismatch:", case["name"])
for case in load("errors.json"):
    request = case["steps"][0]["request"]
    if "limits" in request or "limit-pixel" in case["name"]:
        continue
    checked += 1
    try:
        image = Image.open(io.BytesIO(base64.b64decode(request["png"])))
        image.load()
        image.convert("RGBA")
        tolerated.append(case["name"])
    except Exception:
        pass
if "--verbose" in sys.argv:
    for name in tolerated:
        print("Pillow tolerates:", name)
print(f"{checked} checked, {problems} problems; Pillow tolerates {len(tolerated)} of the error cases")
sys.exit(1 if problems else 0)
