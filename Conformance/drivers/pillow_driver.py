#!/usr/bin/env python3
"""Conformance driver for Pillow's PNG codec (Spec/conformance.md §2–§5).

Run: .build/debug/conformance --area png -- python3 Conformance/drivers/pillow_driver.py
Needs: python3 -m pip install --user pillow (run_peers.py installs it).

Pillow reads PNG with its own chunk parser (PIL/PngImagePlugin.py), its own C unfilter and
zlib; it does not use libpng. This driver uses only Pillow's public API:

Decode: `Image.open(file, formats=["PNG"])`, then `load()`. Colour type and bit depth are read
back from the raw mode Pillow chose for the IHDR (its `_MODES` table, inverted in RAW_MODES
below: the raw mode names both), interlacing from `info["interlace"]`. The samples are the
image's bytes in Pillow's mode, changed only in layout: mode "1" is unpacked to one byte per
pixel and "I;16" is packed big-endian by Pillow's own "I;16B" packer. Values are never rescaled
here, so where Pillow keeps no native samples (2- and 4-bit gray are scaled to 8 bits, 16-bit
colour is cut to 8 bits) the samples differ and the table says why. The RGBA conversion is
`convert("RGBA")`; Pillow has no 16-bit RGBA mode, so `rgbaDepth` is always 8.

Limits: `maximumPixelCount` N is Pillow's `Image.MAX_IMAGE_PIXELS = N` with its
`DecompressionBombWarning` raised as an error (Pillow's documented way to refuse, rather than
warn about, images over the limit); without it Pillow keeps its defaults (a warning over
89,478,485 pixels, an error over twice that). Pillow has no decompressed-size limit:
`maximumDecompressedBytes` is answered `unsupported`.

Encode: `Image.frombytes(mode, size, pixels).save(file, "PNG", compress_level=0)`, Pillow's
writer asked for zlib level 0 (the canonical encoding stores its data uncompressed). Pillow
holds 16 bits only as gray ("I;16B"); the other 16-bit formats are `unsupported`.

Errors: Image.open hides the reason a file is refused behind UnidentifiedImageError; with
`Image.WARN_POSSIBLE_FORMATS = True` Pillow also warns "PNG opening failed. REASON", and that
reason is mapped. No such warning means the PNG plugin's signature test refused the file.
A message gets a spec name only where it states the same condition (MESSAGES below).
"""
import io
import re
import warnings

import PIL
from PIL import Image, features

from peer_protocol import FORMATS, Answer, b64, decoded, serve, unb64

# Pillow's raw mode for a PNG (PngImagePlugin._MODES) -> (colour type, bit depth).
RAW_MODES = {
    "1": (0, 1), "L;2": (0, 2), "L;4": (0, 4), "L": (0, 8), "I;16B": (0, 16),
    "RGB": (2, 8), "RGB;16B": (2, 16),
    "P;1": (3, 1), "P;2": (3, 2), "P;4": (3, 4), "P": (3, 8),
    "LA": (4, 8), "LA;16B": (4, 16), "RGBA": (6, 8), "RGBA;16B": (6, 16),
}

# Pillow message (a regular expression matched at the start) -> the spec name it states.
# Each entry was checked against the condition Pillow tests before raising it (Pillow 13).
MESSAGES = [
    (r"broken PNG file \(bad header checksum in", "chunkChecksumMismatch"),
    (r"broken PNG file \(incomplete checksum in", "truncatedData"),
    (r"Truncated IHDR chunk", "invalidChunkLength"),  # raised when IHDR's length is < 13
    (r"unknown filter category", "invalidHeader"),  # IHDR filter method != 0
    (r"Truncated tRNS chunk", "invalidTransparency"),  # shorter than 2 (gray) or 6 (RGB)
]

ENCODE_MODES = {"gray8": "L", "grayAlpha8": "LA", "rgb8": "RGB", "rgba8": "RGBA",
                "gray16": "I;16B"}


def name_for(text, error_type):
    for pattern, name in MESSAGES:
        if re.match(pattern, text):
            return Answer(name, f"Pillow: {error_type}: {text}")
    return Answer("unmapped", f"Pillow: {error_type}: {text}")


def hello():
    zlib = features.version("zlib")
    return {"protocol": 1, "implementation": f"Pillow {PIL.__version__} (zlib {zlib})",
            "areas": ["png"], "backends": []}


def open_png(data, strict_pixel_limit):
    """Image.open restricted to PNG; a refusal is answered with Pillow's reason. With
    `strict_pixel_limit` an image over Image.MAX_IMAGE_PIXELS is refused, not warned about."""
    Image.WARN_POSSIBLE_FORMATS = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if strict_pixel_limit:
            warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            return Image.open(io.BytesIO(data), formats=["PNG"])
        except Image.UnidentifiedImageError:
            reasons = [str(w.message) for w in caught if str(w.message).startswith("PNG opening failed. ")]
            if not reasons:  # the plugin's accept() test: the first 8 bytes are not the signature
                raise Answer("invalidSignature", "Pillow: the PNG plugin does not accept the first 8 bytes")
            raise name_for(reasons[0][len("PNG opening failed. "):], "open")


def samples_of(image, width, height):
    if image.mode == "1":  # packed 1 bit per pixel, rows padded to a byte: unpack
        packed = image.tobytes()
        stride = (width + 7) // 8
        return bytes((packed[y * stride + x // 8] >> (7 - x % 8)) & 1
                     for y in range(height) for x in range(width))
    if image.mode == "I;16":
        return image.tobytes("raw", "I;16B")
    return image.tobytes()


def decode(request):
    limits = request.get("limits", {})
    if "maximumDecompressedBytes" in limits:
        raise Answer("unsupported", "Pillow has no decompressed-size limit")
    data = unb64(request["png"])
    default_limit = Image.MAX_IMAGE_PIXELS
    try:
        if "maximumPixelCount" in limits:
            Image.MAX_IMAGE_PIXELS = limits["maximumPixelCount"]
        image = open_png(data, strict_pixel_limit="maximumPixelCount" in limits)
        raw_mode = image.tile[0].args if image.tile else None
        color_type, bit_depth = RAW_MODES.get(raw_mode, (None, None))
        interlaced = bool(image.info.get("interlace"))
        image.load()
        width, height = image.size
        samples = samples_of(image, width, height)
        rgba = image.convert("RGBA").tobytes()
    except Answer:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise Answer("limitExceeded", f"Pillow: {type(error).__name__}: {error}")
    except (OSError, ValueError, SyntaxError, EOFError) as error:
        raise name_for(str(error), type(error).__name__)
    finally:
        Image.MAX_IMAGE_PIXELS = default_limit
    return decoded(width, height, color_type, bit_depth, interlaced, samples, rgba, 8,
                   pillowMode=image.mode)


def encode(request):
    mode = ENCODE_MODES.get(request["format"])
    if mode is None:
        raise Answer("unsupported", f"Pillow has no image mode for {request['format']}")
    size = (request["width"], request["height"])
    try:
        image = Image.frombytes(mode, size, unb64(request["pixels"]))
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=0)
    except ValueError as error:
        if str(error) == "not enough image data":
            raise Answer("invalidPixelBufferLength", f"Pillow: ValueError: {error}")
        if str(error) == "cannot write empty image":  # raised when the width or height is 0
            raise Answer("invalidDimensions", f"Pillow: ValueError: {error}")
        raise Answer("unmapped", f"Pillow: ValueError: {error}")
    except (OSError, SystemError, MemoryError, OverflowError) as error:
        raise Answer("unmapped", f"Pillow: {type(error).__name__}: {error}")
    return {"png": b64(out.getvalue())}


if __name__ == "__main__":
    serve(hello, {"png.decode": decode, "png.encode": encode})
