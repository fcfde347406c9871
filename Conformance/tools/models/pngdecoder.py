"""PNG decoding as Spec/png.md §4–§10 states it, written from that document alone, for the model
driver (drivers/model_driver.py): the file's structure and its errors in file order, inflate
(models/inflate.py), unfiltering, Adam7, and the RGBA conversion.

decode(png, limits) returns a Decoded image or raises PNGError with the stable name of
Spec/png.md §9 (a broken zlib stream with its Spec/deflate.md name, as the protocol reports it,
Spec/conformance.md §2.6).
"""
import struct
import zlib

from models.inflate import InflateError, zlib_decompress

SIGNATURE = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
DEFAULT_PIXELS = 1 << 28
DEFAULT_BYTES = (1 << 30) + (1 << 26)
KNOWN = {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
# The pixel formats of a bitmap (Spec/png.md §3): (colour type, bit depth) -> name.
FORMATS = {(0, 8): "gray8", (4, 8): "grayAlpha8", (2, 8): "rgb8", (6, 8): "rgba8",
           (0, 16): "gray16", (4, 16): "grayAlpha16", (2, 16): "rgb16", (6, 16): "rgba16"}


class PNGError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Decoded:
    """The header, palette and tRNS, and the samples: rows of one value per sample (unscaled)."""

    def __init__(self, width, height, colour_type, depth, interlaced, palette, transparency, samples):
        self.width, self.height = width, height
        self.colour_type, self.depth, self.interlaced = colour_type, depth, interlaced
        self.palette, self.transparency = palette, transparency
        self.samples = samples  # a flat list, channels interleaved, rows top to bottom

    def native_bytes(self):
        """One byte per sample at depths 1–8, two big-endian bytes at 16 (the protocol's
        `samples`, Spec/conformance.md §5.3)."""
        if self.depth == 16:
            return b"".join(struct.pack(">H", s) for s in self.samples)
        return bytes(self.samples)

    def rgba(self):
        """The RGBA conversion of §8: (samples as bytes, 8 or 16)."""
        top = 65535 if self.depth == 16 else 255
        channels = CHANNELS[self.colour_type]
        out = []
        mask = (1 << self.depth) - 1
        key = None
        if self.transparency is not None and self.colour_type in (0, 2):
            words = struct.unpack(">" + "H" * (len(self.transparency) // 2), self.transparency)
            key = tuple(w & mask for w in words)
        scale = {1: 255, 2: 85, 4: 17}.get(self.depth, 1)
        for index in range(self.width * self.height):
            pixel = self.samples[index * channels:(index + 1) * channels]
            if self.colour_type == 0:
                gray = pixel[0] * scale if self.depth < 8 else pixel[0]
                alpha = 0 if key is not None and key[0] == pixel[0] else top
                out += [gray, gray, gray, alpha]
            elif self.colour_type == 2:
                alpha = 0 if key is not None and key == tuple(pixel) else top
                out += list(pixel) + [alpha]
            elif self.colour_type == 3:
                entry = pixel[0]
                colour = list(self.palette[entry * 3:entry * 3 + 3]) if entry * 3 < len(self.palette) else [0, 0, 0]
                trns = self.transparency or b""
                out += colour + [trns[entry] if entry < len(trns) else 255]
            elif self.colour_type == 4:
                out += [pixel[0], pixel[0], pixel[0], pixel[1]]
            else:
                out += list(pixel)
        if self.depth == 16:
            return b"".join(struct.pack(">H", s) for s in out), 16
        return bytes(out), 8

    def bitmap(self):
        """decodeBitmap (§7.2): (width, height, format, pixels), the native samples when they are
        a pixel format and there is no tRNS, else the RGBA conversion."""
        native = FORMATS.get((self.colour_type, self.depth))
        if native is not None and self.transparency is None:
            return self.width, self.height, native, self.native_bytes()
        pixels, depth = self.rgba()
        return self.width, self.height, "rgba8" if depth == 8 else "rgba16", pixels


def passes(width, height, interlaced):
    """(x0, y0, dx, dy, pass width, pass height) of each pass with pixels (§6.4)."""
    shapes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    result = []
    for x0, y0, dx, dy in shapes:
        w = 0 if width <= x0 else (width - x0 + dx - 1) // dx
        h = 0 if height <= y0 else (height - y0 + dy - 1) // dy
        if w and h:
            result.append((x0, y0, dx, dy, w, h))
    return result


def decode(png, maximum_pixels=DEFAULT_PIXELS, maximum_bytes=DEFAULT_BYTES):
    if len(png) < 8:
        raise PNGError("truncatedData" if png == SIGNATURE[:len(png)] else "invalidSignature")
    if png[:8] != SIGNATURE:
        raise PNGError("invalidSignature")
    header = palette = transparency = None
    idat = bytearray()
    seen_idat = idat_ended = False
    offset = 8
    while True:
        left = len(png) - offset
        if left == 0:
            if header is None:
                raise PNGError("missingHeader")
            raise PNGError("missingEnd" if seen_idat else "missingImageData")
        if left < 8:
            raise PNGError("truncatedData")
        length = struct.unpack(">I", png[offset:offset + 4])[0]
        kind = png[offset + 4:offset + 8]
        if not all(65 <= c <= 90 or 97 <= c <= 122 for c in kind):
            raise PNGError("invalidChunkType")
        if length > 0x7FFFFFFF:
            raise PNGError("invalidChunkLength")
        if offset + 12 + length > len(png):
            raise PNGError("truncatedData")
        data = png[offset + 8:offset + 8 + length]
        declared = struct.unpack(">I", png[offset + 8 + length:offset + 12 + length])[0]
        if zlib.crc32(kind + data) & 0xFFFFFFFF != declared:
            raise PNGError("chunkChecksumMismatch")
        offset += 12 + length
        if header is None:
            if kind != b"IHDR":
                raise PNGError("missingHeader")
            header = read_header(data, maximum_pixels, maximum_bytes)
            continue
        colour_type, depth = header[2], header[3]
        if kind == b"IDAT":
            if colour_type == 3 and palette is None:
                raise PNGError("missingPalette")
            if idat_ended:
                raise PNGError("misplacedChunk")
            idat += data
            seen_idat = True
            continue
        if seen_idat:
            idat_ended = True
        if kind == b"IHDR":
            raise PNGError("duplicateChunk")
        if kind == b"PLTE":
            if colour_type in (0, 4):
                raise PNGError("paletteNotAllowed")
            if palette is not None:
                raise PNGError("duplicateChunk")
            if seen_idat or transparency is not None:
                raise PNGError("misplacedChunk")
            entries = length // 3
            if length == 0 or length % 3 or entries > 256 or (colour_type == 3 and entries > 1 << depth):
                raise PNGError("invalidPalette")
            palette = bytes(data)
        elif kind == b"tRNS":
            if colour_type in (4, 6):
                raise PNGError("transparencyNotAllowed")
            if transparency is not None:
                raise PNGError("duplicateChunk")
            if seen_idat or (colour_type == 3 and palette is None):
                raise PNGError("misplacedChunk")
            allowed = {0: length == 2, 2: length == 6, 3: palette is not None and length <= len(palette) // 3}
            if not allowed[colour_type]:
                raise PNGError("invalidTransparency")
            transparency = bytes(data)
        elif kind == b"IEND":
            if length != 0:
                raise PNGError("invalidChunkLength")
            if not seen_idat:
                raise PNGError("missingImageData")
            break
        elif not kind[0] & 0x20:
            raise PNGError("unknownCriticalChunk")
    width, height, colour_type, depth, interlaced = header
    return Decoded(width, height, colour_type, depth, interlaced, palette, transparency,
                   image_samples(bytes(idat), width, height, colour_type, depth, interlaced))


def read_header(data, maximum_pixels, maximum_bytes):
    if len(data) != 13:
        raise PNGError("invalidChunkLength")
    width, height, depth, colour_type, compression, filter_method, interlace = struct.unpack(">IIBBBBB", data)
    checks = [1 <= width <= 0x7FFFFFFF, 1 <= height <= 0x7FFFFFFF, colour_type in DEPTHS,
              colour_type in DEPTHS and depth in DEPTHS[colour_type], compression == 0, filter_method == 0,
              interlace in (0, 1)]
    if not all(checks):
        raise PNGError("invalidHeader")
    if width * height > maximum_pixels:
        raise PNGError("limitExceeded")
    if expected_size(width, height, colour_type, depth, interlace) > maximum_bytes:
        raise PNGError("limitExceeded")
    return width, height, colour_type, depth, interlace == 1


def expected_size(width, height, colour_type, depth, interlaced):
    """S of §6.2."""
    bits = CHANNELS[colour_type] * depth
    return sum(h * (1 + (w * bits + 7) // 8) for _, _, _, _, w, h in passes(width, height, interlaced))


def image_samples(stream, width, height, colour_type, depth, interlaced):
    """Inflate, unfilter and deinterlace (§6): the flat list of samples."""
    size = expected_size(width, height, colour_type, depth, interlaced)
    try:
        data = zlib_decompress(stream, size)
    except InflateError as error:
        raise PNGError("imageDataTooLong" if error.name == "outputLimitExceeded" else error.name)
    if len(data) < size:
        raise PNGError("imageDataTooShort")
    channels = CHANNELS[colour_type]
    bits = channels * depth
    bpp = max(1, bits // 8)
    samples = [0] * (width * height * channels)
    position = 0
    row_number = 0
    for x0, y0, dx, dy, w, h in passes(width, height, interlaced):
        stride = (w * bits + 7) // 8
        previous = bytearray(stride)
        for j in range(h):
            kind = data[position]
            row = bytearray(data[position + 1:position + 1 + stride])
            position += 1 + stride
            if kind > 4:
                raise PNGError("invalidFilterType")
            unfilter(kind, row, previous, bpp)
            row_number += 1
            values = unpack(row, w * channels, depth)
            y = y0 + j * dy
            for i in range(w):
                target = ((y * width) + x0 + i * dx) * channels
                samples[target:target + channels] = values[i * channels:(i + 1) * channels]
            previous = row
    return samples


def unfilter(kind, row, above, bpp):
    if kind == 0:
        return
    for i in range(len(row)):
        a = row[i - bpp] if i >= bpp else 0
        b = above[i]
        if kind == 1:
            row[i] = (row[i] + a) & 0xFF
        elif kind == 2:
            row[i] = (row[i] + b) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + (a + b) // 2) & 0xFF
        else:
            c = above[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            row[i] = (row[i] + predictor) & 0xFF


def unpack(row, count, depth):
    """`count` samples of a row, most significant bits first (§7.1)."""
    if depth == 8:
        return list(row[:count])
    if depth == 16:
        return [row[2 * i] << 8 | row[2 * i + 1] for i in range(count)]
    per_byte = 8 // depth
    mask = (1 << depth) - 1
    return [(row[i // per_byte] >> (8 - depth * (i % per_byte + 1))) & mask for i in range(count)]
