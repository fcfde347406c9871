#!/usr/bin/env python3
"""Conformance driver for pypng, the pure-Python PNG codec (Spec/conformance.md §2–§5).

Run: .build/debug/conformance --area png -- python3 Conformance/drivers/pypng_driver.py
Needs: python3 -m pip install --user pypng (run_peers.py installs it).

Decode: `png.Reader.read()` gives the header fields and the native samples (sub-byte samples
unpacked, unscaled; palette indices); a second reader's `asRGBA8()` (bit depth ≤ 8) or
`asRGBA()` (16) gives the RGBA conversion. pypng has no size limits, so a request with
`limits` is answered `unsupported`.

Encode: `png.Writer(..., compression=0).write_array()`, pypng's own writer asked for zlib
level 0 (the canonical encoding stores its data uncompressed); IDAT chunks are pypng's default
`chunk_limit` of 2^20 bytes. pypng writes every row with filter type 0.

Errors: pypng's messages are mapped to a spec name only where the message names the same
condition (MESSAGES below); everything else is `unmapped` with pypng's words.
"""
import io
import re
import zlib

import png

from peer_protocol import FORMATS, Answer, b64, decoded, serve, unb64, unmapped, zlib_name

# pypng message (a regular expression matched at the start) -> the spec name it states.
# Each entry was checked against the condition pypng tests before raising it (png.py 0.20220715).
MESSAGES = [
    (r"PNG file has invalid signature", "invalidSignature"),
    (r"Checksum error in \w+ chunk", "chunkChecksumMismatch"),
    (r"IHDR chunk has incorrect length", "invalidChunkLength"),
    (r"(invalid bit depth|invalid colour type|Unknown compression method"
     r"|Unknown filter method|Unknown interlace method)", "invalidHeader"),
    (r"Invalid PNG Filter Type", "invalidFilterType"),
    (r"Chunk \S+ is too large", "invalidChunkLength"),
    (r"tRNS chunk is not valid with colour type", "transparencyNotAllowed"),
    (r"tRNS chunk has incorrect length", "invalidTransparency"),
    (r"tRNS chunk is too long", "invalidTransparency"),
    (r"PLTE chunk's length should be a multiple of 3", "invalidPalette"),
    (r"Empty PLTE is not allowed", "invalidPalette"),
    (r"PLTE chunk is too long", "invalidPalette"),
    (r"This PNG file has no IDAT chunks", "missingImageData"),
    (r"Chunk \S+ too short for (required|checksum)", "truncatedData"),
    (r"End of file whilst reading chunk length and type", "truncatedData"),
    (r"Chunk .* has invalid Chunk Type", "invalidChunkType"),
    (r"Required PLTE chunk is missing", "missingPalette"),
    # Raised only by read() after the IDATs began, when the file ends at a chunk boundary.
    (r"No more chunks", "missingEnd"),
    (r"(Indexed images \(colour type \d+\) cannot have bitdepth"
     r"|Illegal combination of bit depth)", "invalidHeader"),
]


def message_of(error):
    """pypng's own words: its Error.__str__ puts the class name in front of them."""
    return str(error.args[0]) if error.args else str(error)


def answer_for(error):
    text = message_of(error)
    if isinstance(error, zlib.error):  # pypng hands IDAT data to Python's zlib
        name = zlib_name(text)
        return Answer(name, f"zlib: {text}") if name else unmapped("zlib", error)
    for pattern, name in MESSAGES:
        if re.match(pattern, text):
            return Answer(name, f"pypng: {type(error).__name__}: {text}")
    return Answer("unmapped", f"pypng: {type(error).__name__}: {text}")


def hello():
    return {"protocol": 1, "implementation": f"pypng {png.__version__}", "areas": ["png"],
            "backends": []}


def sixteen_bit_bytes(values):
    return b"".join(value.to_bytes(2, "big") for value in values)


def flatten(rows, bit_depth):
    out = bytearray()
    for row in rows:
        if bit_depth == 16:
            out += sixteen_bit_bytes(row)
        else:
            out += bytes(row)
    return out


def decode(request):
    if "limits" in request:
        raise Answer("unsupported", "pypng has no pixel-count or decompressed-size limit")
    data = unb64(request["png"])
    try:
        reader = png.Reader(bytes=data)
        width, height, rows, info = reader.read()
        samples = flatten(rows, info["bitdepth"])
        color_type = reader.color_type
        bit_depth = info["bitdepth"]
        interlaced = bool(info["interlace"])
        converter = png.Reader(bytes=data)
        if bit_depth == 16:
            _, _, rgba_rows, _ = converter.asRGBA()
        else:
            _, _, rgba_rows, _ = converter.asRGBA8()
        rgba = flatten(rgba_rows, bit_depth)
    except (png.Error, EOFError, zlib.error) as error:
        raise answer_for(error)
    return decoded(width, height, color_type, bit_depth, interlaced, samples, rgba,
                   16 if bit_depth == 16 else 8)


def encode(request):
    colour_type, depth, channels = FORMATS[request["format"]]
    pixels = unb64(request["pixels"])
    if depth == 16:
        if len(pixels) % 2:
            raise Answer("unsupported", "pypng takes 16-bit samples as integers: "
                                        "an odd byte count is no sequence of samples")
        values = [int.from_bytes(pixels[i:i + 2], "big") for i in range(0, len(pixels), 2)]
    else:
        values = pixels
    try:
        writer = png.Writer(request["width"], request["height"], greyscale=colour_type in (0, 4),
                            alpha=colour_type in (4, 6), bitdepth=depth, compression=0)
        out = io.BytesIO()
        writer.write_array(out, values)
    except png.ProtocolError as error:
        text = message_of(error)
        if text.startswith(("width and height must be greater than zero",
                            "width and height cannot exceed 2**31-1")):
            raise Answer("invalidDimensions", f"pypng: {text}")
        raise Answer("unmapped", f"pypng: {type(error).__name__}: {text}")
    except png.Error as error:
        raise Answer("unmapped", f"pypng: {type(error).__name__}: {message_of(error)}")
    return {"png": b64(out.getvalue())}


if __name__ == "__main__":
    serve(hello, {"png.decode": decode, "png.encode": encode})
