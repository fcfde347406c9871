#!/usr/bin/env python3
"""Writes pngsuite-rgba8.sha256: the oracle the PngSuite tests check the decoder against.

For every valid PngSuite file (every name not starting with 'x') it prints
    <sha256 hex>  <file name>  <width>x<height>
where the digest is over the file's RGBA conversion as 8-bit samples, rows top to bottom:
Spec/png.md §8, with 16-bit samples reduced to their high byte (Pillow keeps only 8 bits of a
16-bit truecolour image, so the oracle compares the high bytes; the interlaced/non-interlaced
twin test compares all 16 bits).

The pixels come from Pillow (libpng-compatible, written in C), which shares no code with the
decoder under test. Pillow drops the low byte of 16-bit truecolour samples before it applies a
tRNS colour key, so for 16-bit truecolour files with tRNS the alpha comes from the exact 16-bit
comparison done here on Pillow-independent data (zlib + a minimal unfilter). Pillow also
scales 1/2/4-bit gray to 0-255 but keeps the tRNS gray key unscaled, so no pixel ever matches
it (tbbn0g04); the key is scaled here the same way as the samples before comparing.

Run from the package root, and commit the output (the folder defaults to the committed
suite, Tests/Fixtures/PngSuite):
    pip install pillow
    python3 Tests/Fixtures/PNG/make_pngsuite_digests.py > Tests/Fixtures/PNG/pngsuite-rgba8.sha256
"""
import hashlib
import os
import struct
import sys
import zlib

from PIL import Image


def raw_rows_16bit_truecolour(path):
    """Exact 16-bit RGB samples of a non-interlaced colour-type-2, depth-16 PNG."""
    data = open(path, "rb").read()
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, ctype, interlace) == (16, 2, 0), path
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    bpp, stride = 6, width * 6
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def rgba8(path):
    image = Image.open(path)
    image.load()
    width, height = image.size
    key = image.info.get("transparency")
    if image.mode in ("I;16", "I;16B", "I"):
        values = image.tobytes("raw", "I;16")  # little-endian 16-bit gray
        out = bytearray()
        for i in range(0, len(values), 2):
            value = values[i] | values[i + 1] << 8
            high = value >> 8
            out += bytes((high, high, high, 0 if value == key else 255))
        return width, height, bytes(out)
    if image.mode == "RGB" and isinstance(key, tuple) and max(key) > 255:
        # A 16-bit truecolour key: compare all 16 bits, on data Pillow did not touch.
        w, h, rows = raw_rows_16bit_truecolour(path)
        out = bytearray()
        for row in rows:
            for x in range(w):
                r, g, b = struct.unpack(">HHH", row[6 * x:6 * x + 6])
                out += bytes((r >> 8, g >> 8, b >> 8, 0 if (r, g, b) == key else 255))
        return w, h, bytes(out)
    depth = open(path, "rb").read()[24]
    if image.mode == "L" and isinstance(key, int) and depth < 8:
        scaled = key * 255 // ((1 << depth) - 1)
        out = bytearray()
        for value in image.tobytes():
            out += bytes((value, value, value, 0 if value == scaled else 255))
        return width, height, bytes(out)
    return width, height, image.convert("RGBA").tobytes()


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Tests", "Fixtures", "PngSuite")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".png") or name.startswith("x"):
            continue
        width, height, pixels = rgba8(os.path.join(folder, name))
        assert len(pixels) == width * height * 4, name
        print(f"{hashlib.sha256(pixels).hexdigest()}  {name}  {width}x{height}")


if __name__ == "__main__":
    main()
