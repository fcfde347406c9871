"""Writes Conformance/drivers/RESULTS.md from the classified results (run_peers.py calls it)."""
from collections import OrderedDict

from peer_evidence import BY_CASE, BY_ERROR, QUESTIONED, TRNS_16
from peer_results import MARKS, case_kind

FILES = (("decode", "png/decode.json: valid files to samples and RGBA"),
         ("errors", "png/errors.json: broken files to an error"),
         ("encode", "png/encode.json: pixels to the canonical bytes, and encoder errors"))

# (peer, class) or class -> why the peer deviates. Peer-specific texts first.
WHY = {
    ("Pillow", "samples-scaled"): "Pillow opens 2- and 4-bit gray as its 8-bit mode L, scaling every sample at load (× 85, × 17); its API has no unscaled samples. Its RGBA conversion is the expected one.",
    ("Pillow", "rgba-16-to-8:high byte"): "Pillow has no 16-bit RGB, gray+alpha or RGBA modes: it reads such files as 8-bit images, keeping the high byte of each sample (its raw modes RGB;16B, LA;16B, RGBA;16B; gray+alpha becomes RGBA), so its samples and its convert('RGBA') are 8-bit. The RGBA is the high byte of the expected 16-bit values.",
    ("Pillow", "rgba-16-to-8:clip"): "Pillow keeps 16-bit gray (mode I;16), but its convert('RGBA') clips every value above 255 to 255 instead of rescaling it, so a 16-bit gray image comes out almost white. PNG3 #13Sample-depth-rescaling maps the whole input range onto the output range (output = floor(input × MAXOUT / MAXIN + 0.5)); a clip is no rescaling.",
    ("Pillow", "rgba-16-to-8:clip, tRNS key lost"): "As above (16-bit gray clipped to 255), and the 16-bit tRNS key no longer matches the clipped samples, so the transparent pixels come out opaque. " + TRNS_16,
    ("Pillow", "rgba-16-to-8:high byte, tRNS key lost"): "Pillow reads 16-bit RGB as 8-bit (the high bytes) and then compares the 16-bit tRNS key with the 8-bit samples, so the transparent pixels come out opaque. " + TRNS_16,
    ("Pillow", "encode-accepts"): "Pillow's Image.frombytes refuses too few bytes but ignores bytes beyond width × height × pixel size, so a buffer that is too long is encoded without its tail.",
    ("Pillow", "non-canonical"): "Asked for compress_level=0, Pillow's encoder writes stored deflate blocks through zlib, but it still chooses a filter per row and cuts IDAT chunks at its 64 KiB output buffer; the canonical encoding (Spec/png.md §2) uses filter 0 on every row, 65,535-byte stored blocks and 1 MiB IDATs. Each file was checked to decode to the request's pixels with another library.",
    ("pypng", "non-canonical"): "pypng writes filter 0 on every row and 1 MiB IDAT chunks, as the canonical encoding does, and asked for compression=0 it hands its data to zlib at level 0; zlib then cuts the stored blocks where its own buffers end (65,531 bytes and less), not every 65,535 bytes. Every smaller case comes out byte for byte canonical. Each file was checked to decode to the request's pixels with another library.",
    ("libpng", "non-canonical"): "Asked for level 0, filter None and a 1 MiB buffer, libpng writes stored blocks, but it shrinks the zlib window for small images (so the zlib header is not 78 01) and zlib cuts its stored blocks at its own buffer sizes. Each file was checked to decode to the request's pixels with another library.",
    ("pypng", "encode-accepts"): "pypng's write_array takes a flat buffer and does not check its length against width × height: a wrong buffer gives a wrong file, or (for an image of 2^62 pixels) an endless write.",
    ("pypng", "hang"): "pypng's write_array does not check the buffer against the dimensions: for a 2^31−1 × 2^31−1 image it starts writing 2^31−1 empty rows, and the runner kills it at the case's time limit.",
    ("pypng", "exception"): "pypng raises an exception it does not declare (not png.Error): a bug in pypng's handling of this malformed or unusual input.",
    ("pypng", "refuses"): "pypng refuses the file.",
    "samples-scaled": "The library gives sub-byte gray samples scaled to 8 bits.",
    "rgba-16-to-8:high byte": "The library has no 16-bit RGBA: its 8-bit RGBA is the high byte of the expected value.",
    "rgba": "The library's RGBA differs from the expected one.",
    "header": "The library reports other header fields.",
    "accepts": "The library decodes a file the standard makes invalid; Spec/png.md requires the error. Lenient decoding is common and the standard lets a decoder recover from some errors (#13Decoders.Errors), so this is a deviation from our spec; the texts below show the file is invalid.",
    "other-error": "The library refuses the file, as expected, but its error does not name the spec's condition (or names another one); see the messages.",
    "unsupported": "The library offers no way to do what the request asks.",
    "refuses": "The library refuses a valid input.",
    "exception": "The library fails with an exception it does not declare.",
    "hang": "The driver gave no answer within the runner's time limit.",
    "driver-died": "The driver process died.",
    "non-canonical": "The library writes a valid PNG of the same pixels, but not the canonical bytes of Spec/png.md §2.",
    "non-canonical-unverified": "The library writes other bytes than the canonical ones; no second decoder was available to check the file.",
    "invalid-file": "The library writes a file that does not decode to the given pixels.",
    "encode-accepts": "The library encodes pixels the spec rejects.",
}


def why(peer, kind):
    if kind.startswith("rgba-16-to-8:") and " or " in kind:
        return ("The library's RGBA is 8-bit. These images hold values that reduce to the same 8 bits in each of the "
                "ways named, so they cannot tell which reduction the library makes; its other 16-bit classes show it.")
    return WHY.get((peer, kind)) or WHY.get(kind) or WHY.get(kind.split(":")[0], kind)


def cell(mark):
    return MARKS[mark][0]


def write(path, cases, peers, results, skipped, command):
    """cases: the ordered list of case dicts (with 'file'); peers: [(peer, implementation)];
    results[peer][name] = (mark, kind, detail); skipped: [(peer, reason)]."""
    lines = ["# Third-party PNG implementations through the conformance suite", ""]
    lines += [
        "Generated by `" + command + "`; do not edit by hand.",
        "Each peer is a driver in this folder that answers the protocol of Spec/conformance.md with what its library",
        "gives; the verdicts are the conformance runner's own. `imagecache` is this project's driver, the reference column.",
        "Nothing in Conformance/png was changed to make a peer pass.", ""]
    lines += ["| peer | implementation |", "| --- | --- |"]
    lines += [f"| {peer} | {implementation} |" for peer, implementation in peers]
    lines += [f"| {peer} | skipped: {reason} |" for peer, reason in skipped]
    lines += ["", "## Summary", ""]
    names = [peer for peer, _ in peers]
    lines += ["| | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    for file, title in FILES:
        file_cases = [c for c in cases if c["file"] == file]
        row = [sum(results[p][c["name"]][0] == "pass" for c in file_cases) for p in names]
        lines.append(f"| {file} ({len(file_cases)} cases) passed | " + " | ".join(map(str, row)) + " |")
    totals = [sum(r[0] == "pass" for r in results[p].values()) for p in names]
    lines.append(f"| **all ({len(cases)}) passed** | " + " | ".join(f"**{t}**" for t in totals) + " |")
    lines.append("| failed | " + " | ".join(str(len(cases) - t) for t in totals) + " |")
    for mark, (symbol, meaning) in MARKS.items():
        if mark == "pass":
            continue
        counts = [sum(r[0] == mark for r in results[p].values()) for p in names]
        if any(counts):
            lines.append(f"| {symbol} {meaning} | " + " | ".join(str(n) if n else "" for n in counts) + " |")
    lines += ["", "## Deviation classes", "",
              "Every failed cell belongs to one class below: what the library does, why, and the evidence that the",
              "expected value is right (the standard's text, or independent decoders that agree with it).", ""]
    questioned = [c for c in cases if c["name"] in QUESTIONED]
    if questioned:
        lines += ["### Expectations the peers call into question (reported to the lead, not changed)", ""]
        for c in questioned:
            lines.append(f"- `{c['name']}`: {BY_CASE[c['name']]}")
            lines.append("  Results: " + ", ".join(f"{p} {cell(results[p][c['name']][0])}" for p in names) + ".")
        lines.append("")
    for peer in names:
        classes = OrderedDict()
        for c in cases:
            mark, kind, detail = results[peer][c["name"]]
            if mark != "pass":
                classes.setdefault(kind, []).append((c, mark, detail))
        if not classes:
            continue
        lines += [f"### {peer}", ""]
        for kind, members in classes.items():
            lines += [f"**{cell(members[0][1])} {kind}** ({len(members)} cases). {why(peer, kind)}", ""]
            lines += class_members(kind, members, results, names, peer)
            lines.append("")
    legend = OrderedDict()
    for symbol, meaning in MARKS.values():
        legend.setdefault(symbol, []).append(meaning)
    lines += ["## Results by case", "",
              "Legend: " + "; ".join(f"{symbol} {' or '.join(meanings)}" for symbol, meanings in legend.items()) + ".", ""]
    for file, title in FILES:
        lines += [f"### {title}", "", "| case | " + " | ".join(names) + " |", "| --- |" + " :-: |" * len(names)]
        for c in (c for c in cases if c["file"] == file):
            expected = c["steps"][0]["expect"].get("error")
            label = c["name"] + (f" → `{expected}`" if expected else "")
            lines.append(f"| {label} | " + " | ".join(cell(results[p][c['name']][0]) for p in names) + " |")
        lines.append("")
    with open(path, "w") as out:
        out.write("\n".join(lines).rstrip() + "\n")


def agreeing(name, results, names, peer):
    return [p for p in names if p != peer and results[p][name][0] == "pass"]


def class_members(kind, members, results, names, peer):
    lines = []
    if kind in ("accepts", "other-error", "encode-accepts"):
        by_error = OrderedDict()
        for c, mark, detail in members:
            by_error.setdefault(c["steps"][0]["expect"]["error"], []).append((c, detail))
        for error, group in by_error.items():
            lines.append(f"- expected `{error}`: " + ", ".join(
                f"`{c['name']}`" + (f" ({detail})" if kind != "accepts" else "") for c, detail in group))
            lines.append(f"  Why the case is right: {BY_CASE.get(group[0][0]['name']) or BY_ERROR.get(error, 'Spec/png.md §9.')}")
        return lines
    if kind.startswith("non-canonical") or kind == "invalid-file":
        by_note = OrderedDict()
        for c, mark, detail in members:
            by_note.setdefault(detail, []).append(c["name"])
        for note, group in by_note.items():
            lines.append(f"- {note}: " + ", ".join(f"`{n}`" for n in group))
        return lines
    for c, mark, detail in members:
        text = f"- `{c['name']}`" + (f": {detail}" if detail else "")
        if case_kind(c) == "decode":
            others = agreeing(c["name"], results, names, peer)
            text += (". Independent decoders that give exactly the expected result: " + ", ".join(others)
                     if others else ". No other decoder here passes this case")
            text += " (and the case generator, a model written from the standard)."
        elif case_kind(c) in ("error", "encode-error"):
            error = c["steps"][0]["expect"]["error"]
            text += f" (expected `{error}`: {BY_ERROR.get(error, 'Spec/png.md §9.')})"
        if c["name"] in BY_CASE:
            text += " " + BY_CASE[c["name"]]
        lines.append(text)
    return lines
