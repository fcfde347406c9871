#!/usr/bin/env python3
"""Cross-checks Conformance/png/downsample.json against Pillow's Image.reduce, a third
implementation independent of both downsampler.py and the Swift code.

Image.reduce((fx, fy)) averages blocks of fx x fy pixels, which for a reduction by integer
factors on both axes are exactly the areas of Spec/thumbnail.md §2.1. Pillow rounds its means in
its own way (8-bit modes use a fixed-point reciprocal), so the exact check uses Pillow as a box
*summer*: every value is split into 16-bit digits, each digit multiplied by n = fx x fy and
reduced in Pillow's 32-bit "I" mode, where the rounded mean of the multiplied values is the exact
sum of the block. Those sums are the P, A and Q of §2.4 and §2.5 (Q from the products c x a,
premultiplied alpha); the spec's single division R of §2.6 then gives the expected samples, which
must equal the case's. Separately, gray8 and rgb8 cases are compared with Pillow's own 8-bit L and
RGB reduce: its differences are counted, and each must be the known effect of its fixed-point
rounding (one lower, where the exact half-up rounding lands on a whole number), else it is a
problem.

Optional: needs Pillow (python3 -m pip install pillow); without it the script says so and
exits 0. Run: python3 Conformance/tools/checks/check_thumbnail_cases.py [--verbose]
"""
import base64
import json
import os
import sys
import warnings

try:
    from PIL import Image
except ImportError:
    print("check_thumbnail_cases: Pillow is not installed (python3 -m pip install pillow); skipped")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "..", "png", "downsample.json")
FORMATS = {  # name: (channels, bytes per sample, has alpha)
    "gray8": (1, 1, False), "grayAlpha8": (2, 1, True), "rgb8": (3, 1, False), "rgba8": (4, 1, True),
    "gray16": (1, 2, False), "grayAlpha16": (2, 2, True), "rgb16": (3, 2, False), "rgba16": (4, 2, True),
}
warnings.simplefilter("ignore")


def planes(data, width, height, format_name):
    """The samples as one list per channel, row-major."""
    channels, size, _ = FORMATS[format_name]
    if size == 2:
        data = [data[k] << 8 | data[k + 1] for k in range(0, len(data), 2)]
    return [list(data[c::channels]) for c in range(channels)]


def block_sums(values, width, height, fx, fy):
    """The sum of every fx x fy block of `values`, computed by Pillow's reduce."""
    n = fx * fy
    assert n < 1 << 15, "a digit times n must fit Pillow's 32-bit I mode"
    sums = [0] * ((width // fx) * (height // fy))
    for shift in range(0, 64, 16):
        digits = [(v >> shift) & 0xFFFF for v in values]
        if not any(digits):
            continue
        image = Image.new("I", (width, height))
        image.putdata([digit * n for digit in digits])
        reduced = image.reduce((fx, fy))
        for index, mean in enumerate(reduced.getdata()):
            sums[index] += mean << shift
    return sums


def rounded(p, q):
    """R(p, q) of Spec/thumbnail.md §2.6."""
    n, r = divmod(p, q)
    return n + 1 if 2 * r >= q else n


def expected_from_pillow(width, height, format_name, data, fx, fy):
    channels, _, alpha = FORMATS[format_name]
    n = fx * fy
    channel_planes = planes(data, width, height, format_name)
    if not alpha:
        outs = [[rounded(s, n) for s in block_sums(p, width, height, fx, fy)] for p in channel_planes]
    else:
        alpha_plane = channel_planes[-1]
        a_sums = block_sums(alpha_plane, width, height, fx, fy)
        outs = []
        for colour in channel_planes[:-1]:
            q_sums = block_sums([c * a for c, a in zip(colour, alpha_plane)], width, height, fx, fy)
            outs.append([rounded(q, a) if a else 0 for q, a in zip(q_sums, a_sums)])
        outs.append([rounded(a, n) for a in a_sums])
    return [list(pixel) for pixel in zip(*outs)]


def native_reduce(width, height, format_name, data, fx, fy):
    mode = {"gray8": "L", "rgb8": "RGB"}[format_name]
    return Image.frombytes(mode, (width, height), bytes(data)).reduce((fx, fy)).tobytes()


def main():
    with open(CASES) as f:
        cases = json.load(f)["cases"]
    checked = problems = native_checked = native_differences = 0
    for case in cases:
        request, expect = case["steps"][0]["request"], case["steps"][0]["expect"]
        if "error" in expect:
            continue
        width, height, format_name = request["width"], request["height"], request["format"]
        w, h = expect["width"], expect["height"]
        if (w, h) == (width, height) or width % w or height % h:
            continue  # identity (§2.8) or not integer factors: Pillow's reduce cannot compute it
        fx, fy = width // w, height // h
        data = base64.b64decode(request["pixels"])
        want = planes(base64.b64decode(expect["pixels"]), w, h, format_name)
        want_pixels = [list(pixel) for pixel in zip(*want)]
        checked += 1
        if expected_from_pillow(width, height, format_name, data, fx, fy) != want_pixels:
            problems += 1
            print("mismatch with Pillow's block sums:", case["name"])
        if format_name in ("gray8", "rgb8"):
            native_checked += 1
            got = native_reduce(width, height, format_name, data, fx, fy)
            wanted = base64.b64decode(expect["pixels"])
            n = fx * fy
            sums = [s for p in planes(data, width, height, format_name)
                    for s in block_sums(p, width, height, fx, fy)]
            channels = FORMATS[format_name][0]
            per_sample = [sums[(k % channels) * (w * h) + k // channels] for k in range(len(wanted))]
            for k, (g, e) in enumerate(zip(got, wanted)):
                if g == e:
                    continue
                if g == e - 1 and (per_sample[k] + n // 2) % n == 0:
                    native_differences += 1
                    if "--verbose" in sys.argv:
                        print(f"Pillow's fixed-point rounding: {case['name']} sample {k}: "
                              f"sum {per_sample[k]} / {n} gives {e}, Pillow {g}")
                else:
                    problems += 1
                    print(f"unexplained difference from Pillow's {format_name} reduce: {case['name']} sample {k}")
    print(f"{checked} integer-factor cases checked against Pillow's block sums, {problems} problems; "
          f"{native_checked} gray8/rgb8 cases against Pillow's own reduce: {native_differences} samples "
          f"one lower from its fixed-point rounding, none otherwise different" if not problems else
          f"{checked} checked, {problems} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
