#!/usr/bin/env python3
"""A minimal conformance driver (Spec/conformance.md §8): the handshake and png.encode.

Run: swift run conformance --area png --filter png/encode -- python3 example_driver.py
Every other request gets the error "unsupported", which the runner reports as a failure.
"""
import base64
import json
import struct
import sys
import zlib

FORMATS = {  # name: (colour type, bit depth, channels)
    "gray8": (0, 8, 1), "grayAlpha8": (4, 8, 2), "rgb8": (2, 8, 3), "rgba8": (6, 8, 4),
    "gray16": (0, 16, 1), "grayAlpha16": (4, 16, 2), "rgb16": (2, 16, 3), "rgba16": (6, 16, 4),
}


class EncodeError(Exception):
    pass


def chunk(kind, data):
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode(width, height, format_name, pixels):
    colour_type, depth, channels = FORMATS[format_name]
    if not (1 <= width <= 0x7FFFFFFF and 1 <= height <= 0x7FFFFFFF):
        raise EncodeError("invalidDimensions")
    row = width * channels * depth // 8
    if height * (1 + row) > 2**63 - 1:  # the filtered data must fit a 64-bit Int
        raise EncodeError("imageTooLarge")
    if len(pixels) != row * height:
        raise EncodeError("invalidPixelBufferLength")
    filtered = b"".join(b"\x00" + pixels[y * row:(y + 1) * row] for y in range(height))
    stream = bytearray(b"\x78\x01")
    for start in range(0, len(filtered), 65535):
        block = filtered[start:start + 65535]
        stream.append(1 if start + 65535 >= len(filtered) else 0)
        stream += struct.pack("<HH", len(block), len(block) ^ 0xFFFF) + block
    stream += struct.pack(">I", zlib.adler32(filtered) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    for start in range(0, len(stream), 1 << 20):
        out += chunk(b"IDAT", bytes(stream[start:start + (1 << 20)]))
    return out + chunk(b"IEND", b"")


def handle(request):
    op = request["op"]
    if op == "hello":
        return {"protocol": 1, "implementation": "example (Python)", "areas": ["png"], "backends": []}
    if op == "png.encode":
        try:
            png = encode(request["width"], request["height"], request["format"],
                         base64.b64decode(request["pixels"]))
        except EncodeError as error:
            return {"error": str(error)}
        return {"png": base64.b64encode(png).decode("ascii")}
    return {"error": "unsupported"}


def main():
    for line in sys.stdin:
        request = json.loads(line)
        response = handle(request)
        response["id"] = request.get("id")
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
