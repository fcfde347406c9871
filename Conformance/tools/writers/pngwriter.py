"""An independent PNG writer for the conformance cases (Spec/conformance.md §7).

Written from the PNG standard and the canonical encoding in Spec/png.md, not from the Swift
code. It builds the raw samples itself, so it knows every pixel a decoder must produce.
Python's zlib supplies CRC-32, Adler-32 and the compressed (fixed and dynamic Huffman) streams.
"""
import struct
import zlib

SIGNATURE = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

# Pixel formats of the canonical encoder: name -> (colour type, bit depth, channels).
FORMATS = {
    "gray8": (0, 8, 1), "grayAlpha8": (4, 8, 2), "rgb8": (2, 8, 3), "rgba8": (6, 8, 4),
    "gray16": (0, 16, 1), "grayAlpha16": (4, 16, 2), "rgb16": (2, 16, 3), "rgba16": (6, 16, 4),
}

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data, crc=None):
    """A chunk: length, type, data, CRC over type and data (or the given wrong CRC)."""
    kind = kind.encode("latin-1") if isinstance(kind, str) else kind
    if crc is None:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def ihdr(width, height, depth, colour_type, interlace=0, compression=0, filter_method=0):
    return struct.pack(">IIBBBBB", width, height, depth, colour_type, compression, filter_method, interlace)


# --- canonical encoding (Spec/png.md §2) ---------------------------------------------------

def canonical_zlib(filtered):
    """78 01, stored blocks of 65,535 bytes (the last holds the rest), Adler-32 big-endian."""
    out = bytearray(b"\x78\x01")
    offset = 0
    while True:
        block = filtered[offset:offset + 65535]
        offset += len(block)
        last = offset >= len(filtered)
        out.append(1 if last else 0)
        out += struct.pack("<HH", len(block), len(block) ^ 0xFFFF)
        out += block
        if last:
            break
    out += struct.pack(">I", zlib.adler32(filtered) & 0xFFFFFFFF)
    return bytes(out)


def canonical_encode(width, height, format_name, pixels):
    colour_type, depth, channels = FORMATS[format_name]
    row_length = width * channels * depth // 8
    assert len(pixels) == row_length * height
    filtered = bytearray()
    for y in range(height):
        filtered.append(0)
        filtered += pixels[y * row_length:(y + 1) * row_length]
    stream = canonical_zlib(bytes(filtered))
    out = bytearray(SIGNATURE)
    out += chunk("IHDR", ihdr(width, height, depth, colour_type))
    for start in range(0, len(stream), 1 << 20):
        out += chunk("IDAT", stream[start:start + (1 << 20)])
    out += chunk("IEND", b"")
    return bytes(out)


# --- general writer: any colour type, depth, filter, interlace, compression ---------------

def pack_row(samples, depth):
    """Samples (ints) of one row into bytes: packed MSB first below 8 bits, big-endian at 16."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    per_byte = 8 // depth
    out = bytearray()
    for start in range(0, len(samples), per_byte):
        byte = 0
        group = samples[start:start + per_byte]
        for index in range(per_byte):
            value = group[index] if index < len(group) else 0
            byte |= value << (8 - depth * (index + 1))
        out.append(byte)
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, previous, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = previous[i] if previous is not None else 0
        c = previous[i - bpp] if previous is not None and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def filtered_image(image_rows, colour_type, depth, filter_for_row):
    """image_rows: rows of sample ints (channels interleaved). Returns filter bytes + data."""
    bpp = max(1, CHANNELS[colour_type] * depth // 8)
    out = bytearray()
    previous = None
    for y, samples in enumerate(image_rows):
        row = pack_row(samples, depth)
        out += filter_row(filter_for_row(y), row, previous, bpp)
        previous = row
    return bytes(out)


def adam7_passes(width, height):
    for x0, y0, dx, dy in ADAM7:
        columns = range(x0, width, dx)
        rows = range(y0, height, dy)
        if len(columns) and len(rows):
            yield columns, rows


def image_data(rows, width, height, colour_type, depth, interlace, filter_for_row):
    """The uncompressed filtered data. rows[y] is a list of pixels, each a tuple of samples."""
    if not interlace:
        return filtered_image([[s for p in row for s in p] for row in rows], colour_type, depth, filter_for_row)
    out = bytearray()
    line = 0
    for columns, pass_rows in adam7_passes(width, height):
        sub = [[s for x in columns for s in rows[y][x]] for y in pass_rows]
        out += filtered_image(sub, colour_type, depth, lambda y, base=line: filter_for_row(base + y))
        line += len(sub)
    return bytes(out)


def compress(data, mode):
    """A zlib stream of data. mode: 'stored', 'fixed', 'dynamic', or 'mixed' (stored, fixed and
    dynamic blocks in one stream, each part flushed to a byte boundary)."""
    if mode == "stored":
        return zlib.compress(data, 0)
    if mode == "fixed":
        c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED)
        return c.compress(data) + c.flush()
    if mode == "dynamic":
        c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY)
        return c.compress(data) + c.flush()
    if mode == "mixed":
        third = len(data) // 3
        parts = []
        for index, (level, strategy, piece) in enumerate([
                (0, zlib.Z_DEFAULT_STRATEGY, data[:third]),
                (9, zlib.Z_FIXED, data[third:2 * third]),
                (9, zlib.Z_DEFAULT_STRATEGY, data[2 * third:])]):
            c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
            last = index == 2
            parts.append(c.compress(piece) + c.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH))
        raw = b"".join(parts)
        stream = b"\x78\x9c" + raw + struct.pack(">I", zlib.adler32(data) & 0xFFFFFFFF)
        assert zlib.decompress(stream) == data
        return stream
    raise ValueError(mode)


def assemble(header, stream, idat_sizes=None, before=(), between=(), after=(), plte=None, trns=None):
    """A PNG file: IHDR, extra chunks, PLTE, tRNS, IDAT chunks (cut by idat_sizes: a list of
    chunk lengths, 0 allowed; the last chunk takes the rest), IEND."""
    out = bytearray(SIGNATURE)
    out += chunk("IHDR", header)
    for extra in before:
        out += extra
    if plte is not None:
        out += chunk("PLTE", plte)
    if trns is not None:
        out += chunk("tRNS", trns)
    for extra in between:
        out += extra
    offset = 0
    for size in idat_sizes or []:
        out += chunk("IDAT", stream[offset:offset + size])
        offset += size
    out += chunk("IDAT", stream[offset:])
    for extra in after:
        out += extra
    out += chunk("IEND", b"")
    return bytes(out)


# --- what a decoder must produce (Spec/png.md: native samples and the RGBA conversion) -----

def native_samples(rows, depth):
    """One byte per sample at depth <= 8 (the unscaled value or palette index), two bytes
    big-endian at 16; rows top to bottom, channels interleaved."""
    out = bytearray()
    for row in rows:
        for pixel in row:
            for s in pixel:
                out += struct.pack(">H", s) if depth == 16 else bytes([s])
    return bytes(out)


def rgba(rows, colour_type, depth, palette=None, trns=None):
    """The RGBA conversion: rgba8 for depth <= 8, rgba16 for depth 16. Gray below 8 bits is
    scaled to 0...255 by v * 255 / (2^depth - 1); tRNS gives alpha 0 to the matching colour,
    a palette's alpha comes from tRNS (255 beyond its end); an index beyond the palette is
    black (Spec/png.md §8.2). A gray or RGB key's bits above the bit depth are masked to 0
    before the comparison (PNG Third Edition, #11tRNS)."""
    maximum = (1 << depth) - 1
    if trns is not None and colour_type in (0, 2):
        trns = [k & maximum for k in trns]
    wide = depth == 16

    def scale(v):
        return v if depth >= 8 else v * 255 // maximum

    out = bytearray()
    for row in rows:
        for p in row:
            if colour_type == 0:
                g = scale(p[0])
                a = 0 if trns is not None and p[0] == trns[0] else (65535 if wide else 255)
                pixel = (g, g, g, a)
            elif colour_type == 2:
                a = 0 if trns is not None and tuple(p) == tuple(trns) else (65535 if wide else 255)
                pixel = (p[0], p[1], p[2], a)
            elif colour_type == 3:
                r, g, b = palette[p[0]] if p[0] < len(palette) else (0, 0, 0)
                a = trns[p[0]] if trns is not None and p[0] < len(trns) else 255
                pixel = (r, g, b, a)
            elif colour_type == 4:
                pixel = (p[0], p[0], p[0], p[1])
            else:
                pixel = tuple(p)
            for s in pixel:
                out += struct.pack(">H", s) if wide else bytes([s])
    return bytes(out)
