"""The thumbnail downsampler of Spec/thumbnail.md, written from the spec alone.

Deliberately literal and slow: every target pixel sums over every source pixel of its area with
the weights of §2.1, in Python's unbounded integers, and divides once with the rounding of §2.6.
It shares no code with the Swift implementation.
"""

# name: (channels, bytes per sample, has alpha), Spec/png.md §3.
FORMATS = {
    "gray8": (1, 1, False), "grayAlpha8": (2, 1, True), "rgb8": (3, 1, False), "rgba8": (4, 1, True),
    "gray16": (1, 2, False), "grayAlpha16": (2, 2, True), "rgb16": (3, 2, False), "rgba16": (4, 2, True),
}
MAXIMUM_DIMENSION = (1 << 31) - 1
MAXIMUM_PIXEL_COUNT = 1 << 32


class DownsampleError(Exception):
    """Carries the error name of Spec/thumbnail.md §2.9."""


def round_half_up(p, q):
    """R(p, q) of §2.6."""
    n, r = divmod(p, q)
    return n + 1 if 2 * r >= q else n


def target_size(width, height, maximum):
    """§1.2."""
    if maximum < 1:
        raise DownsampleError("invalidMaximumPixelSize")
    if width <= maximum and height <= maximum:
        return width, height
    if width >= height:
        return maximum, max(1, round_half_up(height * maximum, width))
    return max(1, round_half_up(width * maximum, height)), maximum


def axis_weights(s, d):
    """§2.1: for each target pixel j, the list of (i, w(j, i)) with a non-zero weight."""
    table = []
    for j in range(d):
        row = []
        for i in range(s):
            weight = max(0, min((i + 1) * d, (j + 1) * s) - max(i * d, j * s))
            if weight:
                row.append((i, weight))
        assert sum(w for _, w in row) == s
        table.append(row)
    return table


def samples(pixels, width, height, format_name):
    """§2.2: a list of rows, each a list of pixels, each a tuple of sample values."""
    channels, size, _ = FORMATS[format_name]
    values = list(pixels) if size == 1 else [pixels[k] * 256 + pixels[k + 1] for k in range(0, len(pixels), 2)]
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            start = (y * width + x) * channels
            row.append(tuple(values[start:start + channels]))
        rows.append(row)
    return rows


def to_bytes(rows, format_name):
    _, size, _ = FORMATS[format_name]
    out = bytearray()
    for row in rows:
        for pixel in row:
            for value in pixel:
                out += bytes([value]) if size == 1 else bytes([value >> 8, value & 0xFF])
    return bytes(out)


def check_bitmap(width, height, format_name, pixels):
    """The checks of Bitmap (Spec/png.md §2.8), in that order."""
    channels, size, _ = FORMATS[format_name]
    if not (1 <= width <= MAXIMUM_DIMENSION and 1 <= height <= MAXIMUM_DIMENSION):
        raise DownsampleError("invalidDimensions")
    if width * height * channels * size > (1 << 63) - 1:
        raise DownsampleError("imageTooLarge")
    if len(pixels) != width * height * channels * size:
        raise DownsampleError("invalidPixelBufferLength")


def downsample(width, height, format_name, pixels, maximum):
    """§2: returns (width, height, pixels) or raises DownsampleError with the name of §2.9."""
    check_bitmap(width, height, format_name, pixels)
    w, h = target_size(width, height, maximum)
    if (w, h) == (width, height):
        return width, height, bytes(pixels)
    if width * height > MAXIMUM_PIXEL_COUNT:
        raise DownsampleError("imageTooLarge")
    channels, _, has_alpha = FORMATS[format_name]
    source = samples(pixels, width, height, format_name)
    wx, wy = axis_weights(width, w), axis_weights(height, h)
    total = width * height
    out = []
    for y in range(h):
        row = []
        for x in range(w):
            area = [(ly, lx, ky * kx) for ly, ky in wy[y] for lx, kx in wx[x]]
            if not has_alpha:
                pixel = tuple(round_half_up(sum(weight * source[l][i][c] for l, i, weight in area), total)
                              for c in range(channels))
            else:
                alpha_sum = sum(weight * source[l][i][-1] for l, i, weight in area)
                colours = []
                for c in range(channels - 1):
                    q = sum(weight * source[l][i][c] * source[l][i][-1] for l, i, weight in area)
                    colours.append(round_half_up(q, alpha_sum) if alpha_sum > 0 else 0)
                pixel = tuple(colours) + (round_half_up(alpha_sum, total),)
            row.append(pixel)
        out.append(row)
    return w, h, to_bytes(out, format_name)
