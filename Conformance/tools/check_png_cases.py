#!/usr/bin/env python3
"""Cross-checks Conformance/png/*.json against Pillow (libpng-style decoding), a third
implementation independent of both pngwriter.py and the Swift decoder.

Checks that every valid 8-bit-or-less decode case gives the expected RGBA in Pillow, every
encode case's expected PNG decodes in Pillow to its input pixels (8-bit formats), and every
error case Pillow tolerates is counted (Pillow is lenient about chunk rules, so that is
information, not a problem; --verbose lists them). Optional: needs Pillow (python3 -m pip install pillow).
"""
import base64
import io
import json
import os
import sys
import warnings
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
PNG = os.path.join(HERE, "..", "png")
warnings.simplefilter("ignore")


def load(name):
    with open(os.path.join(PNG, name)) as f:
        return json.load(f)["cases"]


def pillow_rgba(data):
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGBA").tobytes()


problems = 0
checked = 0
tolerated = []
for case in load("decode.json"):
    request, expect = case["steps"][0]["request"], case["steps"][0]["expect"]
    if expect["bitDepth"] == 16:
        continue
    got = pillow_rgba(base64.b64decode(request["png"]))
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
