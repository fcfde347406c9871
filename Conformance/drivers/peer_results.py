"""Classifies each peer's result on each png case and writes RESULTS.md (run_peers.py runs it).

The verdict, passed or failed, is always the runner's (Spec/conformance.md §6). For a failed
case this module looks at the peer's actual response (asked again through the same driver) to
say how it failed: which fields differ and how, whether an encoder's file is still a valid PNG
of the same pixels, and which deviation class the failure belongs to. It never changes a
verdict.
"""
import base64
import struct
import zlib

from peer_evidence import BY_CASE, BY_ERROR, QUESTIONED

HEADER_FIELDS = ("width", "height", "colorType", "bitDepth", "interlaced")

# Cell marks, in the manner of JSONTestSuite's table.
MARKS = {
    "pass": ("✅", "passes: the expected result, field for field (for encode, byte for byte)"),
    "form": ("🔶", "decodes to the expected RGBA, but gives the samples (or RGBA depth) in another form"),
    "pixels": ("❌", "decodes to other pixels or header fields than expected"),
    "refuses": ("⛔", "refuses a file the case expects to decode, or pixels it expects to encode"),
    "accepts": ("❌", "accepts input the case expects to be refused"),
    "other-error": ("🟡", "refuses, as expected, but with another or no spec error name"),
    "non-canonical": ("🔷", "writes a valid PNG of the same pixels, not the canonical bytes"),
    "invalid-file": ("❌", "writes a file that does not decode to the given pixels"),
    "unsupported": ("➖", "the library has no way to do what the request asks"),
    "crash": ("💥", "crash, hang or an exception the library does not declare"),
}


def case_kind(case):
    expect = case["steps"][0]["expect"]
    op = case["steps"][0]["request"]["op"]
    if op == "png.encode":
        return "encode-error" if "error" in expect else "encode"
    return "error" if "error" in expect else "decode"


def unb64(text):
    return base64.b64decode(text)


def chunks_of(png):
    """(type, data) of each chunk, or None if the bytes are not framed as PNG chunks."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    out, offset = [], 8
    while offset + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        out.append((kind.decode("latin-1"), png[offset + 8:offset + 8 + length]))
        offset += 12 + length
        if kind == b"IEND":
            break
    return out


def stored_block_lengths(stream):
    """The LEN of each block if the zlib stream holds only stored blocks, else None."""
    lengths, offset = [], 2
    while offset < len(stream):
        header = stream[offset]
        if (header >> 1) & 3 != 0:
            return None
        length = struct.unpack("<H", stream[offset + 1:offset + 3])[0]
        lengths.append(length)
        offset += 5 + length
        if header & 1:
            return lengths
    return None


def summarize(values, limit=4):
    text = ", ".join(str(v) for v in values[:limit])
    return text + (f", … ({len(values)} in all)" if len(values) > limit else "")


def encoding_differences(expected, actual):
    """What makes a peer's PNG differ from the canonical one, structure by structure."""
    want, got = chunks_of(expected), chunks_of(actual)
    if got is None:
        return ["not a PNG signature and chunk structure"]
    notes = []
    if [k for k, _ in got] != [k for k, _ in want]:
        notes.append(f"chunks {' '.join(k for k, _ in got)} (canonical: {' '.join(k for k, _ in want)})")
    if dict(got).get("IHDR") != dict(want).get("IHDR"):
        notes.append("a different IHDR")
    want_idat = [d for k, d in want if k == "IDAT"]
    got_idat = [d for k, d in got if k == "IDAT"]
    if [len(d) for d in got_idat] != [len(d) for d in want_idat]:
        notes.append(f"IDAT chunks of {summarize([len(d) for d in got_idat])} bytes "
                     f"(canonical: {summarize([len(d) for d in want_idat])})")
    want_stream, got_stream = b"".join(want_idat), b"".join(got_idat)
    if got_stream[:2] != want_stream[:2]:
        notes.append(f"zlib header {got_stream[:2].hex(' ')} (canonical: {want_stream[:2].hex(' ')})")
    try:
        want_data, got_data = zlib.decompress(want_stream), zlib.decompress(got_stream)
    except zlib.error as error:
        return notes + [f"a zlib stream Python's zlib cannot inflate ({error})"]
    if got_data != want_data:
        ihdr = dict(want)["IHDR"]
        width, height, depth, colour = struct.unpack(">IIBB", ihdr[:10])
        channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        stride = 1 + width * channels * depth // 8
        filters = sorted({got_data[i] for i in range(0, len(got_data), stride)}) if len(got_data) == len(want_data) else None
        if filters is not None and filters != [0]:
            notes.append(f"filter types {filters} on its rows (canonical: 0 on every row)")
        else:
            notes.append("other filtered data")
    got_blocks, want_blocks = stored_block_lengths(got_stream), stored_block_lengths(want_stream)
    if got_blocks is None:
        notes.append("compressed (not stored) deflate blocks")
    elif got_blocks != want_blocks:
        notes.append(f"stored blocks of {summarize(got_blocks)} bytes (canonical: {summarize(want_blocks)})")
    return notes or ["other bytes"]


def rgba16_to_8(expected16, how):
    values = [int.from_bytes(expected16[i:i + 2], "big") for i in range(0, len(expected16), 2)]
    if how == "high byte":
        return bytes(v >> 8 for v in values)
    if how == "clip":
        return bytes(min(v, 255) for v in values)
    return bytes((v * 255 + 32767) // 65535 for v in values)


def samples_note(want, got):
    """How 16-bit native samples came back: as expected, cut to the high byte, or otherwise."""
    if got == want:
        return "samples as expected"
    if got == want[0::2]:
        return "samples cut to their high byte"
    return f"samples of {len(got)} bytes in another layout (expected {len(want)})"


def decode_difference(case, actual):
    """(mark, class, detail) for a decode case whose response is not the expected one."""
    expect = case["steps"][0]["expect"]
    wrong_header = [f for f in HEADER_FIELDS if actual.get(f) != expect[f]]
    if wrong_header:
        detail = ", ".join(f"{f} {actual.get(f)!r} (expected {expect[f]!r})" for f in wrong_header)
        return "pixels", "header", detail
    want_rgba, got_rgba = unb64(expect["rgba"]), unb64(actual["rgba"])
    want_samples, got_samples = unb64(expect["samples"]), unb64(actual["samples"])
    notes = []
    if actual.get("rgbaDepth") != expect["rgbaDepth"]:
        reductions = ("high byte", "clip", "rounding")
        exact = [how for how in reductions
                 if expect["rgbaDepth"] == 16 and got_rgba == rgba16_to_8(want_rgba, how)]
        if exact:  # values such as 0 and 65535 reduce alike every way: name every reduction that fits
            how = " or ".join(exact)
            return ("form", f"rgba-16-to-8:{how}",
                    f"8-bit RGBA equal to the expected 16-bit RGBA by {how}; {samples_note(want_samples, got_samples)}")
        for how in reductions:
            reduced = rgba16_to_8(want_rgba, how) if expect["rgbaDepth"] == 16 else None
            if reduced is None or len(reduced) != len(got_rgba):
                continue
            if all(got_rgba[i] == reduced[i] for i in range(len(reduced)) if i % 4 != 3):
                lost = sum(1 for i in range(3, len(reduced), 4) if reduced[i] == 0 and got_rgba[i] == 255)
                return ("pixels", f"rgba-16-to-8:{how}, tRNS key lost",
                        f"colour equal to the expected by {how}, but {lost} pixels the tRNS key makes "
                        "transparent come out opaque")
        return "pixels", "rgba-16-to-8:other", "8-bit RGBA that no simple reduction of the expected 16-bit RGBA gives"
    if got_rgba != want_rgba:
        differing = [i // 4 for i in range(len(want_rgba)) if i < len(got_rgba) and got_rgba[i] != want_rgba[i]]
        pixels = sorted(set(differing))
        detail = (f"RGBA differs in {len(pixels)} of {len(want_rgba) // 4} pixels (first: pixel {pixels[0]})"
                  if pixels and len(got_rgba) == len(want_rgba)
                  else f"RGBA of {len(got_rgba)} bytes (expected {len(want_rgba)})")
        return "pixels", "rgba", detail
    depth = expect["bitDepth"]
    if depth < 8 and expect["colorType"] == 0:
        scale = 255 // ((1 << depth) - 1)
        if got_samples == bytes(v * scale for v in want_samples):
            return "form", "samples-scaled", f"samples scaled to 8 bits (× {scale}); RGBA as expected"
    if depth == 16 and got_samples == want_samples[0::2]:
        return "form", "samples-16-to-8", "samples cut to their high byte; RGBA as expected"
    if depth == 16:
        return "form", "samples-16-other", f"{len(got_samples)} bytes of samples (expected {len(want_samples)}); RGBA as expected"
    notes.append(f"samples differ ({len(got_samples)} bytes, expected {len(want_samples)}); RGBA as expected")
    return "form", "samples-other", "; ".join(notes)


def classify(case, verdict, actual, verify):
    """(mark, class, detail) of one cell. `verdict` is the runner's ("pass", text) or
    ("fail", text); `actual` the response asked again (None if it could not be asked);
    `verify(png, request)` says whether a written PNG decodes to the request's pixels."""
    status, reason = verdict
    if status == "pass":
        return "pass", None, ""
    first_line = reason.splitlines()[0] if reason else ""
    if "no response within the time limit" in reason or actual is None:
        return "crash", "hang", first_line
    if "the driver" in first_line and "restarted" in first_line:
        return "crash", "driver-died", first_line
    kind = case_kind(case)
    expect = case["steps"][0]["expect"]
    if "error" in actual:
        name, message = actual["error"], actual.get("message", "")
        if name == "crashed" or message.startswith("uncaught:"):
            return "crash", "exception", message
        if name == "unsupported":
            return "unsupported", "unsupported", message
        if kind in ("error", "encode-error"):
            return "other-error", "other-error", f"{name}: {message}" if message else name
        return "refuses", "refuses", f"{name}: {message}" if message else name
    if kind == "decode":
        return decode_difference(case, actual)
    if kind == "error":
        return "accepts", "accepts", f"decodes it (expected {expect['error']})"
    png = unb64(actual["png"])
    request = case["steps"][0]["request"]
    valid = verify(png, request)
    if kind == "encode":
        notes = "; ".join(encoding_differences(unb64(expect["png"]), png))
        if valid is True:
            return "non-canonical", "non-canonical", notes
        if valid is False:
            return "invalid-file", "invalid-file", notes
        return "non-canonical", "non-canonical-unverified", notes
    written = {True: "a valid PNG", False: "a file that does not decode to those pixels", None: "a file"}[valid]
    return "accepts", "encode-accepts", f"writes {written} (expected {expect['error']})"
