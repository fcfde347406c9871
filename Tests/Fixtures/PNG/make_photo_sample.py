#!/usr/bin/env python3
"""Writes photo-768.png, the compressed sample `imagecache bench png` decodes.

A 768x768 RGBA8 image that behaves like a photograph for a PNG decoder: smooth colour
gradients plus a little deterministic noise (so the deflate stream mixes literals and
matches, unlike a pure gradient), opaque alpha, every row Paeth-filtered, compressed with
zlib level 6 (what most encoders use). Python's zlib is the only compressor involved; the
package has none. Run from the package root and commit the output:
    python3 Tests/Fixtures/PNG/make_photo_sample.py > Tests/Fixtures/PNG/photo-768.png
"""
import math
import struct
import sys
import zlib

WIDTH = HEIGHT = 768


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def main():
    state = 0x2545F491
    rows = []
    previous = bytearray(WIDTH * 4)
    for y in range(HEIGHT):
        row = bytearray(WIDTH * 4)
        for x in range(WIDTH):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (-1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)[(state >> 16) % 12]
            r = 128 + 100 * math.sin(x / 150.0) * math.cos(y / 210.0)
            g = (x + y) * 255 / (WIDTH + HEIGHT)
            b = 255 - y * 200 / HEIGHT - 40 * math.sin((x - y) / 90.0)
            row[4 * x:4 * x + 4] = bytes(max(0, min(255, int(v) + noise)) for v in (r, g, b)) + b"\xff"
        filtered = bytearray([4])
        for i in range(WIDTH * 4):
            a = row[i - 4] if i >= 4 else 0
            b_ = previous[i]
            c = previous[i - 4] if i >= 4 else 0
            p = a + b_ - c
            pa, pb, pc = abs(p - a), abs(p - b_), abs(p - c)
            predictor = a if pa <= pb and pa <= pc else b_ if pb <= pc else c
            filtered.append((row[i] - predictor) & 255)
        rows.append(bytes(filtered))
        previous = row
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b"")
    sys.stdout.buffer.write(png)


if __name__ == "__main__":
    main()
