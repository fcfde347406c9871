#!/usr/bin/env python3
"""Writes Conformance/png/downsample.json: thumbnail cases (Spec/thumbnail.md, request png.downsample
of Spec/conformance.md §5.7), every expected pixel computed by the model in models/downsampler.py.

Run from anywhere: python3 Conformance/tools/generators/generate_thumbnail_cases.py
The output is deterministic (fixed seeds), so re-running it must leave git clean.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from models import downsampler as d  # noqa: E402
from shared.casefiles import CONFORMANCE, b64, unb64, write_case_file  # noqa: E402

OUT = os.path.join(CONFORMANCE, "png", "downsample.json")
ALPHA_FORMATS = [name for name, (_, _, alpha) in d.FORMATS.items() if alpha]


def maximum_of(format_name):
    return 255 if d.FORMATS[format_name][1] == 1 else 65535


def random_rows(rng, width, height, format_name):
    """Random samples with the extremes 0 and max mixed in, and alpha spread over 0, max,
    1 and everything between."""
    channels, _, alpha = d.FORMATS[format_name]
    top = maximum_of(format_name)
    rows = []
    for _ in range(height):
        row = []
        for _ in range(width):
            pixel = [rng.choice([0, top, rng.randrange(top + 1)]) for _ in range(channels)]
            if alpha:
                pixel[-1] = rng.choice([0, top, 1, top, rng.randrange(top + 1), rng.randrange(top + 1)])
            row.append(tuple(pixel))
        rows.append(row)
    return rows


# Spec/thumbnail.md §1.4: the examples small enough to send.
SIZE_EXAMPLES = {(3, 2, 2), (5, 2, 4), (4, 2, 3), (1, 7, 3), (10000, 3, 100)}


def covers(width, height, format_name, pixels, maximum, expect):
    """The rules of Spec/thumbnail.md a case checks (Spec/conformance.md §10)."""
    rules = ["thumbnail §4", "thumbnail §1.1", "thumbnail §1.2"]
    if (width, height, maximum) in SIZE_EXAMPLES:
        rules.append("thumbnail §1.4")
    if "error" in expect:
        return rules + ["thumbnail §2.9"]
    if (expect["width"], expect["height"]) == (width, height):
        return rules + ["thumbnail §2.8", "thumbnail §2.9"]  # nothing to reduce: the input returned
    rules += ["thumbnail §2.1", "thumbnail §2.2", "thumbnail §2.3", "thumbnail §2.6", "thumbnail §2.8"]
    rules.append("thumbnail §2.5" if d.FORMATS[format_name][2] else "thumbnail §2.4")
    if past_32_bits(width, height, format_name, pixels):
        rules.append("thumbnail §2.7")
    return rules


def past_32_bits(width, height, format_name, pixels):
    """Whether some target pixel's sum Q of §2.5 reaches 2^32, so that 32-bit arithmetic fails
    the case. Every source pixel's weights add up to w × h, so the Q of all target pixels add
    up to w × h × Σ c·a, and the largest is at least Σ c·a over the whole image."""
    channels, size, alpha = d.FORMATS[format_name]
    if not alpha:
        return False  # P ≤ T × 65535 stays far below 2^32 at the sizes of these cases
    rows = d.samples(pixels, width, height, format_name)
    return any(sum(p[c] * p[-1] for row in rows for p in row) >= 1 << 32 for c in range(channels - 1))


def case(name, width, height, format_name, pixels, maximum, note=None):
    """A case whose expectation the model computes: the output bitmap or the error name."""
    request = {"op": "png.downsample", "width": width, "height": height, "format": format_name,
               "pixels": b64(pixels), "maximumPixelSize": maximum}
    try:
        w, h, out = d.downsample(width, height, format_name, pixels, maximum)
        expect = {"width": w, "height": h, "format": format_name, "pixels": b64(out)}
    except d.DownsampleError as error:
        expect = {"error": str(error)}
    result = {"name": "downsample/" + name, "steps": [{"request": request, "expect": expect}],
              "covers": covers(width, height, format_name, pixels, maximum, expect)}
    if note:
        result["note"] = note
    return result


def spec_example():
    """Spec/thumbnail.md §3, with the bytes the spec states (checked against the model)."""
    pixels = bytes([200, 255, 50, 128, 0, 0, 100, 255, 77, 0, 9, 0])
    result = case("spec-example-grayAlpha8-3x2-to-2", 3, 2, "grayAlpha8", pixels, 2,
                  "the worked example of Spec/thumbnail.md §3")
    assert result["steps"][0]["expect"]["pixels"] == b64(bytes([139, 191, 50, 21]))
    result["covers"].append("thumbnail §3")
    return [result]


def size_examples():
    """Spec/thumbnail.md §1.4: the examples not already among the size cases (with their own
    seed, so the cases before them keep their pixels)."""
    rng = random.Random(14)
    cases = []
    for width, height, maximum, expected in [(1, 7, 3, (1, 3)), (10000, 3, 100, (100, 1))]:
        assert d.target_size(width, height, maximum) == expected
        pixels = d.to_bytes(random_rows(rng, width, height, "gray8"), "gray8")
        cases.append(case(f"spec-size-example-{width}x{height}-to-{maximum}", width, height, "gray8", pixels, maximum,
                          "an example of Spec/thumbnail.md §1.4"))
    return cases


def size_rule_cases(rng):
    """Spec/thumbnail.md §1: the target size, on gray8 images (the size rule ignores the format)."""
    cases = []
    for label, width, height, maximum, expected in [
            ("landscape", 40, 30, 12, (12, 9)), ("portrait", 30, 40, 12, (9, 12)),
            ("square", 16, 16, 5, (5, 5)), ("half-rounds-up", 4, 2, 3, (3, 2)),
            ("rounds-up", 5, 2, 4, (4, 2)), ("rounds-down", 3, 2, 2, (2, 1)),
            ("portrait-half-rounds-up", 2, 4, 3, (2, 3)),
            ("fits-no-upscale", 7, 5, 100, (7, 5)), ("exact-fit", 8, 6, 8, (8, 6)),
            ("fits-on-the-long-side", 6, 8, 8, (6, 8)),
            ("maximum-1", 7, 5, 1, (1, 1)), ("maximum-1-of-1x1", 1, 1, 1, (1, 1)),
            ("strip-1xN", 1, 1000, 10, (1, 10)), ("strip-Nx1", 1000, 1, 10, (10, 1)),
            ("strip-1xN-non-integer", 1, 997, 13, (1, 13)), ("strip-Nx1-non-integer", 997, 1, 13, (13, 1)),
            ("short-side-raised-to-1-landscape", 1000, 3, 100, (100, 1)),
            ("short-side-raised-to-1-portrait", 3, 1000, 100, (1, 100)),
            ("wide-2-rows", 2049, 2, 256, (256, 1)), ("tall-2-columns", 2, 2049, 256, (1, 256)),
            ("one-side-reduced-landscape", 9, 2, 8, (8, 2)), ("one-side-reduced-portrait", 2, 9, 8, (2, 8))]:
        assert d.target_size(width, height, maximum) == expected, label
        pixels = d.to_bytes(random_rows(rng, width, height, "gray8"), "gray8")
        cases.append(case(f"size-{label}-{width}x{height}-to-{maximum}", width, height, "gray8", pixels, maximum))
    return cases


# (label, width, height, maximum): integer factors, odd sizes, non-integer ratios, one axis alone.
SHAPES = [
    ("factor-2", 8, 6, 4),            # 4 x 3, factors 2 and 2
    ("factor-3-odd", 9, 15, 5),       # 3 x 5, factors 3 and 3
    ("factors-3-and-2", 9, 2, 3),     # 3 x 1
    ("factor-4", 16, 16, 4),
    ("ratio-7x5-to-3", 7, 5, 3),      # 3 x 2: 7/3 and 5/2
    ("ratio-23x17-to-10", 23, 17, 10),  # 10 x 7
    ("ratio-31x29-to-30", 31, 29, 30),  # 30 x 28: barely reduced, every target spans 2 sources
    ("one-axis-9x2-to-8", 9, 2, 8),   # 8 x 2: only the width shrinks
    ("strip-1x37-to-10", 1, 37, 10),
    ("strip-37x1-to-10", 37, 1, 10),
]


def format_cases(rng):
    cases = []
    for format_name in d.FORMATS:
        for label, width, height, maximum in SHAPES:
            pixels = d.to_bytes(random_rows(rng, width, height, format_name), format_name)
            cases.append(case(f"{format_name}-{label}-{width}x{height}-to-{maximum}", width, height,
                              format_name, pixels, maximum))
        # All samples at max: the rounding must give max again, never max + 1.
        channels = d.FORMATS[format_name][0]
        top = maximum_of(format_name)
        rows = [[(top,) * channels] * 13 for _ in range(11)]
        cases.append(case(f"{format_name}-all-max-13x11-to-5", 13, 11, format_name,
                          d.to_bytes(rows, format_name), 5))
        # A larger random image with a non-integer ratio.
        pixels = d.to_bytes(random_rows(rng, 40, 30, format_name), format_name)
        cases.append(case(f"{format_name}-random-40x30-to-13", 40, 30, format_name, pixels, 13))
    return cases


def alpha_cases(rng):
    cases = []
    for format_name in ALPHA_FORMATS:
        channels = d.FORMATS[format_name][0]
        top = maximum_of(format_name)
        colour = (top * 3 // 4,) if channels == 2 else (top, top // 3, 7)

        # An opaque square in a transparent black border: the border must not darken the colour.
        rows = [[colour + (top,) if 2 <= x < 6 and 2 <= y < 6 else (0,) * channels for x in range(8)]
                for y in range(8)]
        result = case(f"{format_name}-transparent-edge-8x8-to-3", 8, 8, format_name, d.to_bytes(rows, format_name), 3,
                      "an opaque square in a transparent black border keeps its colour wherever alpha > 0")
        cases.append(result)
        out = d.samples(unb64(result["steps"][0]["expect"]["pixels"]), 3, 3, format_name)
        assert all(p[:-1] == colour for row in out for p in row if p[-1] > 0)

        # The same with a transparent white border, factor 2.
        white = (top,) * (channels - 1) + (0,)
        rows = [[colour + (top,) if x < 3 and y < 3 else white for x in range(6)] for y in range(6)]
        cases.append(case(f"{format_name}-transparent-white-edge-6x6-to-3", 6, 6, format_name,
                          d.to_bytes(rows, format_name), 3))

        # Every pixel transparent, with colours: every output colour is 0 (A = 0).
        rows = [[tuple(rng.randrange(top + 1) for _ in range(channels - 1)) + (0,) for _ in range(7)]
                for _ in range(5)]
        result = case(f"{format_name}-all-transparent-7x5-to-3", 7, 5, format_name, d.to_bytes(rows, format_name), 3,
                      "an area with A = 0 has colour 0")
        cases.append(result)
        assert set(unb64(result["steps"][0]["expect"]["pixels"])) == {0}

        # Part transparent: the left half of each target is transparent, the right half opaque.
        rows = [[(tuple(rng.randrange(top + 1) for _ in range(channels - 1)) + (0 if x % 4 < 2 else top,))
                 for x in range(8)] for y in range(4)]
        cases.append(case(f"{format_name}-half-transparent-8x4-to-2", 8, 4, format_name,
                          d.to_bytes(rows, format_name), 2))

        # Nearly transparent pixels (alpha 1) beside opaque ones, non-integer ratio.
        rows = [[(tuple(rng.randrange(top + 1) for _ in range(channels - 1)) + (1 if (x + y) % 3 else top,))
                 for x in range(10)] for y in range(7)]
        cases.append(case(f"{format_name}-alpha-1-10x7-to-4", 10, 7, format_name, d.to_bytes(rows, format_name), 4))

    # A fully opaque RGBA image gives the RGB result (Spec/thumbnail.md §2.5).
    for alpha_format, plain_format in [("rgba8", "rgb8"), ("rgba16", "rgb16"),
                                       ("grayAlpha8", "gray8"), ("grayAlpha16", "gray16")]:
        top = maximum_of(alpha_format)
        rows = random_rows(rng, 11, 9, plain_format)
        opaque = [[p + (top,) for p in row] for row in rows]
        a = case(f"{alpha_format}-opaque-equals-{plain_format}-11x9-to-4", 11, 9, alpha_format,
                 d.to_bytes(opaque, alpha_format), 4)
        b = case(f"{plain_format}-same-colours-as-opaque-{alpha_format}-11x9-to-4", 11, 9, plain_format,
                 d.to_bytes(rows, plain_format), 4)
        out_a = d.samples(unb64(a["steps"][0]["expect"]["pixels"]), 4, 3, alpha_format)
        out_b = d.samples(unb64(b["steps"][0]["expect"]["pixels"]), 4, 3, plain_format)
        assert [[p[:-1] for p in row] for row in out_a] == out_b
        assert all(p[-1] == top for row in out_a for p in row)
        cases += [a, b]
    return cases


def identity_cases(rng):
    cases = []
    for format_name in ["rgba8", "grayAlpha16", "rgb16", "gray8"]:
        rows = random_rows(rng, 5, 4, format_name)
        pixels = d.to_bytes(rows, format_name)
        for maximum in (5, 1000):
            result = case(f"identity-{format_name}-5x4-to-{maximum}", 5, 4, format_name, pixels, maximum,
                          "nothing to reduce: the input comes back byte for byte, transparent colours kept")
            assert result["steps"][0]["expect"]["pixels"] == b64(pixels)
            cases.append(result)
    return cases


def error_cases():
    good = bytes(range(24))  # 3 x 2 rgba8
    return [
        case("error-maximum-0", 3, 2, "rgba8", good, 0),
        case("error-maximum-negative", 3, 2, "rgba8", good, -7),
        case("error-maximum-0-even-when-it-would-fit", 1, 1, "gray8", b"\x00", 0),
        case("error-pixels-short", 3, 2, "rgba8", good[:-1], 2),
        case("error-pixels-long", 3, 2, "rgba8", good + b"\x00", 2),
        case("error-pixels-16bit-counted-as-8bit", 3, 2, "rgb16", bytes(18), 2),
        case("error-pixels-checked-before-maximum", 3, 2, "rgba8", good[:-1], 0),
        case("error-zero-width", 0, 2, "gray8", b"", 2),
        case("error-zero-height", 2, 0, "gray8", b"", 2),
        case("error-width-too-large", 1 << 31, 1, "gray8", b"", 2),
    ]


def main():
    rng = random.Random(13)
    cases = (spec_example() + size_rule_cases(rng) + format_cases(rng) + alpha_cases(rng)
             + identity_cases(rng) + error_cases() + size_examples())
    write_case_file(OUT, "png", "Thumbnails (Spec/thumbnail.md): a bitmap and a maximum pixel size to the exact "
                    "downsampled bitmap, or an error name.", cases)


if __name__ == "__main__":
    main()
