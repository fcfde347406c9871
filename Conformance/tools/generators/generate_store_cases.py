#!/usr/bin/env python3
"""Writes Conformance/store/*.json: store files built by the independent writer in
writers/storewriter.py, each with the live entries (or the error) a reader must report.
Run: python3 Conformance/tools/generators/generate_store_cases.py
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from shared.casefiles import CONFORMANCE, b64, write_case_file  # noqa: E402
from writers import storewriter as s  # noqa: E402

OUT = os.path.join(CONFORMANCE, "store")
T = 1_700_000_000_000


def log_file(data):
    """An expected log file: exact bytes but the random generation (Spec/conformance.md §4, rule 5)."""
    return {"$bytes": b64(data), "$ignore": s.GENERATION_RANGES}


def marked(length):
    """An expected sync mark (Spec/store.md §4.1): the log durable up to `length`, exactly; its
    generation (the log's) and the checksum over it are a writer's choice, as in the log."""
    return {"$bytes": b64(s.sync_mark(length, generation=0, mark_checksum=0)), "$ignore": s.SYNC_GENERATION_RANGES}


def mark(length, **fields):
    """A sync mark given beside the log (store.read's `sync`), for the log of s.GENERATION."""
    return b64(s.sync_mark(length, **fields))


def build(operations, v1=False):
    """operations: tuples ('put', key, value[, created, expires, sequence]), ('remove', key),
    ('touch', key, created, expires, sequence), ('clear',). Returns (file, model, offsets).
    With v1, the file is of format 1 (Spec/store.md §11.1)."""
    header, put, remove, touch, clear = (
        (s.v1_file_header, s.v1_put, s.v1_remove, s.v1_touch, s.v1_clear) if v1
        else (s.file_header, s.put, s.remove, s.touch, s.clear))
    data = bytearray(header())
    model = s.Model()
    offsets = []
    for operation in operations:
        offsets.append(len(data))
        kind = operation[0]
        if kind == "put":
            key, value = operation[1], operation[2]
            created, expires, sequence = operation[3:6] if len(operation) > 3 else (T, s.NEVER, len(offsets))
            data += put(key, value, created, expires, sequence)
            model.apply(s.PUT, key, value, created, expires, sequence)
        elif kind == "remove":
            data += remove(operation[1])
            model.apply(s.REMOVE, operation[1])
        elif kind == "touch":
            data += touch(*operation[1:])
            model.apply(s.TOUCH, *operation[1:2], b"", *operation[2:])
        elif kind == "clear":
            data += clear()
            model.apply(s.CLEAR, None)
    return bytes(data), model, offsets


def entries(model, unreadable=()):
    out = []
    for key in sorted(model.entries, key=lambda k: k.encode()):
        value, created, expires, sequence = model.entries[key]
        entry = {"key": key, "createdAt": created, "expiresAt": expires, "accessSequence": sequence}
        if key in unreadable:
            entry["valueError"] = unreadable[key]
        else:
            entry["value"] = b64(value)
        out.append(entry)
    return out


def read_case(name, note, data, expect, covers, **extra):
    if "error" in expect:
        covers = covers + ["store §9", "store §5.1.3"]
    request = {"op": "store.read", "file": b64(data)}
    request.update(extra)
    return {"name": name, "note": note, "covers": covers, "steps": [{"request": request, "expect": expect}]}


BASE = [
    ("put", "alpha", b"first value"),
    ("put", "beta", bytes(range(256))),
    ("put", "gamma", b""),
    ("put", "ключ🙂", b"unicode key"),
    ("put", "nul\u0000key", b"key with NUL"),
    ("put", "../../etc/passwd", b"path-like key"),
]

FORMAT = ["store §1", "store §2", "store §3.1"]


def valid_cases():
    cases = []
    data, model, _ = build([])
    cases.append(read_case("valid/empty-store", "A header and no records.", data, {"entries": []}, FORMAT))
    cases.append(read_case("valid/zero-length-file", "An empty file opens as an empty store; a writable open writes a header.",
                           b"", {"entries": [], "file": log_file(s.file_header()), "sync": marked(32)},
                           ["store §2.1.7", "store §4.1"], returnFile=True))
    cases.append(read_case("valid/zero-length-file-read-only", "A read-only open of an empty file is notAStore.",
                           b"", {"error": "notAStore"}, ["store §2.1.7"], readOnly=True))
    data, model, _ = build(BASE)
    cases.append(read_case("valid/puts", "Puts of several keys, an empty value, Unicode and NUL keys.", data, {"entries": entries(model)},
                           FORMAT + ["store §3.3.1", "store §6"]))
    data, model, _ = build(BASE + [("put", "alpha", b"second value", T + 5, T + 1000, 77)])
    cases.append(read_case("valid/overwrite", "The last put of a key wins, metadata included.", data, {"entries": entries(model)},
                           ["store §3.3.1"]))
    data, model, _ = build(BASE + [("remove", "beta"), ("remove", "not-there")])
    cases.append(read_case("valid/remove", "A remove record deletes its key; removing a missing key changes nothing.", data,
                           {"entries": entries(model)}, ["store §3.3.2", "store §3.2"]))
    data, model, _ = build(BASE + [("touch", "alpha", T, T + 9000, 1234), ("touch", "missing", T, T, 1)])
    cases.append(read_case("valid/touch", "A touch record replaces the metadata and keeps the value; a touch of a missing key is ignored.",
                           data, {"entries": entries(model)}, ["store §3.3.3", "store §3.2"]))
    data, model, _ = build(BASE + [("clear",), ("put", "after", b"after clear")])
    cases.append(read_case("valid/clear", "A clear record deletes every earlier entry.", data, {"entries": entries(model)},
                           ["store §3.3.4", "store §3.2"]))
    data, model, _ = build([("put", "past", b"p", -5, 0, 0), ("put", "max", b"m", s.NEVER, s.NEVER, 2 ** 62),
                            ("put", "k" * 65535, b"longest key", T, T, 3)])
    cases.append(read_case("valid/extreme-metadata", "Negative and maximal times, a large access sequence and a 65,535-byte key.",
                           data, {"entries": entries(model)}, ["store §1", "store §3.1", "store §6"]))
    rng = random.Random(3)
    big = bytes(rng.randrange(256) for _ in range(200_000))
    data, model, _ = build([("put", "big", big), ("put", "small", b"s")])
    cases.append(read_case("valid/large-value", "A 200,000-byte value (the checksum's long-input path).", data,
                           {"entries": entries(model)}, ["store §3.1", "store §1"]))
    # Spec/checksum.md: values of every length from 0 to 260 and 1,000 take every path of the
    # record checksum (0, 1-3, 4-8, 9-16, 17-128, 129-240, more than 240 bytes: one stripe
    # block, several, and a partial last stripe); a wrong path gives a checksum a reader rejects.
    lengths = list(range(0, 261)) + [1000, 1024 + 64, 16 * 1024 + 1]
    data, model, _ = build([("put", f"length-{n:05d}", bytes((n * 7 + i * 13) & 0xFF for i in range(n))) for n in lengths])
    cases.append(read_case("valid/checksum-every-path", "Values of every length take every path of the record checksum.",
                           data, {"entries": entries(model)},
                           ["checksum §1", "checksum §2.1", "checksum §2.2", "checksum §2.3", "checksum §2.4", "checksum §2.5",
                            "checksum §2.6", "checksum §3.1", "checksum §3.2", "checksum §3.3", "checksum §3.4", "checksum §4",
                            "checksum §5", "checksum §6.1", "checksum §6.2", "checksum §6.3", "checksum §6.4", "checksum §6.5",
                            "checksum §8", "store §1"]))
    data, model, _ = build(BASE)
    # The sync mark covers the zeros: they are synchronized space (a crash allocated it, nothing
    # was written), not a torn write, and not damage (Spec/store.md §5.3 rule 3).
    cases.append(read_case("valid/zero-tail", "Zero bytes after the last record, before the durable length, are an unwritten tail, not damage; a writable open cuts them and marks the length it kept.",
                           data + bytes(100), {"entries": entries(model), "file": b64(data), "sync": marked(len(data))},
                           ["store §5.3.2", "store §5.3.4"], returnFile=True, sync=mark(len(data) + 100)))
    cases.append(read_case("valid/zero-tail-read-only", "A read-only open ignores an unwritten tail and leaves the file and its mark alone.",
                           data + bytes(100), {"entries": entries(model), "file": b64(data + bytes(100)),
                                               "sync": mark(len(data) + 100)},
                           ["store §5.3.2", "store §5.3.4"], readOnly=True, returnFile=True, sync=mark(len(data) + 100)))
    # Spec/store.md §3.3: removing or touching an absent key appends nothing.
    operations = [
        {"put": "a", "value": b64(b"one"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 1},
        {"remove": "absent"},
        {"touch": "also-absent", "createdAt": T, "expiresAt": T + 5, "accessSequence": 2},
        {"remove": "a"},
        {"remove": "a"},
        {"touch": "a", "createdAt": T, "expiresAt": T + 5, "accessSequence": 3},
    ]
    expected_file = s.file_header() + s.put("a", b"one", T, s.NEVER, 1) + s.remove("a")
    cases.append({"name": "write/absent-remove-and-touch-append-nothing",
                  "note": "Removing or touching a key the store does not hold appends no record (Spec/store.md §3.3).",
                  "covers": ["store §3.3.5", "store §3.3.2"],
                  "steps": [{"request": {"op": "store.write", "operations": operations},
                             "expect": {"file": log_file(expected_file), "sync": marked(len(expected_file)),
                                        "entries": []}}]})
    return cases


def torn_cases():
    cases = []
    operations = BASE + [("put", "last-key", b"the last value, torn")]
    data, _, offsets = build(operations)
    before, _, _ = build(BASE)
    _, survivors, _ = build(BASE)
    last = offsets[-1]
    key_start = last + s.RECORD_HEADER_SIZE
    value_start = key_start + len("last-key")
    for label, cut in [("inside-the-header-checksum", last + 2), ("inside-the-value-checksum", last + 12),
                       ("inside-the-header", last + 30), ("at-the-end-of-the-header", last + s.RECORD_HEADER_SIZE),
                       ("inside-the-key", key_start + 3), ("inside-the-value", value_start + 5),
                       ("one-byte-short", len(data) - 1)]:
        cases.append(read_case(f"torn/cut-{label}",
                               "A crash left the last record, appended after the last synchronize, incomplete: a writable open cuts it off (the file ends at the last complete record) and marks that length, the rest is intact.",
                               data[:cut], {"entries": entries(survivors), "file": b64(before), "sync": marked(len(before))},
                               ["store §5.3.1", "store §5.3.4"], returnFile=True, sync=mark(len(before))))
    cases.append(read_case("torn/cut-inside-the-value-read-only", "A read-only open ignores the incomplete tail.",
                           data[:value_start + 5], {"entries": entries(survivors)}, ["store §5.3.1", "store §5.3.4"], readOnly=True,
                           sync=mark(len(before))))
    cases.append(read_case("torn/cut-after-a-complete-record", "A cut exactly between records loses nothing.", before,
                           {"entries": entries(survivors)}, ["store §5.3"]))
    cases.append(read_case("torn/cut-inside-the-file-header", "A file shorter than its header but with the magic is corrupt.",
                           data[:20], {"error": "corruptFileHeader"}, ["store §2.1.2"]))
    cases.append(read_case("torn/cut-inside-the-magic", "A file that does not start with the whole magic is not a store.",
                           data[:5], {"error": "notAStore"}, ["store §2.1.1"]))
    # A torn remove: the key stays.
    data, _, offsets = build(BASE + [("remove", "alpha")])
    cases.append(read_case("torn/cut-inside-a-remove", "An incomplete remove record is cut off, so the key is still there.",
                           data[:offsets[-1] + 40], {"entries": entries(survivors)}, ["store §5.3.1"]))
    return cases


def flip(data, offset, mask=0x01):
    out = bytearray(data)
    out[offset] ^= mask
    return bytes(out)


def corrupt_cases():
    cases = []
    data, model, offsets = build(BASE + [("put", "tail", b"tail value")])
    cases.append(read_case("corrupt/wrong-magic", "Not a store: it is never overwritten.", b"PNG\x00" + data[4:], {"error": "notAStore"},
                           ["store §2.1.1"]))
    cases.append(read_case("corrupt/file-header-checksum", "A damaged file header (a generation bit).", flip(data, 17),
                           {"error": "corruptFileHeader"}, ["store §2.1.5"]))
    cases.append(read_case("corrupt/file-header-major-zero", "Major version 0 is corrupt even with a matching checksum.",
                           s.file_header(major=0) + data[32:], {"error": "corruptFileHeader"}, ["store §2.1.5"]))
    cases.append(read_case("corrupt/newer-major-version", "A newer major version is refused.", s.file_header(major=4) + data[32:],
                           {"error": "unsupportedVersion"}, ["store §2.1.4"]))
    cases.append(read_case("corrupt/newer-major-version-bad-checksum",
                           "A newer major version is refused whether or not its header checksum matches.",
                           s.file_header(major=4, header_checksum=0) + data[32:], {"error": "unsupportedVersion"}, ["store §2.1.4"]))
    newer_minor = s.file_header(minor=1) + data[32:]
    with_flagged = s.Model()
    with_flagged.entries = dict(model.entries)
    with_flagged.entries["flagged"] = (b"f", 0, s.NEVER, 0)
    cases.append(read_case("corrupt/newer-minor-version-writable", "A newer minor version is refused for writing.", newer_minor,
                           {"error": "newerMinorVersion"}, ["store §2.1.6"]))
    cases.append(read_case("corrupt/newer-minor-version-read-only",
                           "A newer minor version opens read-only; records of unknown types, non-zero flags and the header flags are skipped or ignored.",
                           s.file_header(minor=1, flags=7) + data[32:offsets[-1]] + s.record(9, "future", b"x")
                           + s.put("flagged", b"f", flags=1, reserved=5) + data[offsets[-1]:],
                           {"entries": entries(with_flagged)}, ["store §2.1.6", "store §3.2"], readOnly=True))
    # Damage to synchronized data (before the durable length, which the sync mark gives: the
    # whole file here): open refuses rather than return wrong bytes (Spec/store.md §5.3 rule 4).
    def damaged(name, note, log, expect, covers, **extra):
        return read_case(name, note, log, expect, covers, sync=mark(len(log)), **extra)

    second = offsets[1]
    for label, offset in [("header", second + 20), ("header-checksum", second + 5),
                          ("value-checksum-field", second + 8), ("key", second + s.RECORD_HEADER_SIZE)]:
        cases.append(damaged(f"corrupt/middle-record-{label}",
                             "An invalid record before the durable length (the sync mark covers the whole file) is damage to synchronized data, not a torn tail (the header checksum covers the value checksum field).",
                             flip(data, offset), {"error": "corruptRecord"}, ["store §5.3.3", "store §3.1"]))
    cases.append(damaged("corrupt/unknown-record-type", "A record type this version does not define is damage.",
                         data[:offsets[2]] + s.record(9, "odd", b"") + data[offsets[2]:], {"error": "corruptRecord"},
                         ["store §3.2", "store §5.3.3"]))
    cases.append(damaged("corrupt/nonzero-flags", "Reserved fields must be zero.",
                         data[:offsets[2]] + s.put("odd", b"v", flags=1) + data[offsets[2]:], {"error": "corruptRecord"},
                         ["store §3.2"]))
    cases.append(damaged("corrupt/nonzero-reserved", "Reserved fields must be zero.",
                         data[:offsets[2]] + s.put("odd", b"v", reserved=1) + data[offsets[2]:], {"error": "corruptRecord"},
                         ["store §3.2"]))
    for label, record in [("remove-with-value", s.record(s.REMOVE, "alpha", b"x")),
                          ("put-with-empty-key", s.record(s.PUT, "", b"x")),
                          ("clear-with-key", s.record(s.CLEAR, "k", b""))]:
        cases.append(damaged(f"corrupt/ill-formed-{label}", "A record whose lengths break the table of Spec/store.md §3.2 is invalid.",
                             data[:offsets[2]] + record + data[offsets[2]:], {"error": "corruptRecord"}, ["store §3.2"]))
    cases.append(damaged("corrupt/last-record-header-damaged",
                         "A complete last record with a bad header checksum, before the durable length, is damage too.",
                         flip(data, offsets[-1] + 30), {"error": "corruptRecord"}, ["store §5.3.3"]))
    # A damaged value before the durable length: the header is fine, so open succeeds (it does
    # not read values there); reading that value fails and every other value is intact.
    beta_value = offsets[1] + s.RECORD_HEADER_SIZE + len("beta") + 10
    cases.append(damaged("corrupt/value-bit-flip", "A value whose checksum fails is never returned.",
                         flip(data, beta_value, 0x80), {"entries": entries(model, {"beta": "checksumMismatch"})},
                         ["store §8.2", "store §5.2"]))
    tail_value = offsets[-1] + s.RECORD_HEADER_SIZE + len("tail") + 2
    cases.append(damaged("corrupt/last-value-bit-flip",
                         "The same for the last record, synchronized (after the durable length it would be a torn tail, "
                         "sync/record-after-the-mark-whose-value-fails-is-cut).",
                         flip(data, tail_value), {"entries": entries(model, {"tail": "checksumMismatch"})}, ["store §8.2"]))
    wrong_sum = data[:offsets[0]] + s.put("alpha", b"first value", T, s.NEVER, 1, value_checksum=12345) + data[offsets[1]:]
    cases.append(damaged("corrupt/value-checksum-wrong", "A record whose value checksum (covered by a matching header checksum) does not match its value.",
                         wrong_sum, {"entries": entries(model, {"alpha": "checksumMismatch"})}, ["store §8.2", "store §3.1"]))
    return cases

def zeroed(data, start, end):
    """A page a power cut lost: the bytes from `start` to `end` read as zeros."""
    return bytes(data[:start]) + bytes(end - start) + bytes(data[end:])


# Records appended after the last synchronize (the sync mark's length): the first is large,
# so a lost 512-byte sector lies inside its value; the last rewrites a synchronized key.
LATE = [("put", "late-one", bytes((i * 31 + 7) & 0xFF for i in range(1500))),
        ("put", "late-two", b"the second late value"),
        ("put", "alpha", b"alpha rewritten late")]


def sync_cases():
    """Spec/store.md §4.1 and §5.3: the sync mark gives the durable length D; a record that
    ends after D counts only whole and intact, and the first that is not begins a torn tail,
    whatever survives after it; damage before D is damage to synchronized data."""
    cases = []
    data, model, offsets = build(BASE + LATE)
    durable = offsets[len(BASE)]
    _, synchronized, _ = build(BASE)
    first_value = durable + s.RECORD_HEADER_SIZE + len("late-one")

    def case(name, note, log, expect, covers, **extra):
        return read_case(f"sync/{name}", note, log, expect, covers, **extra)

    # A power cut lost a page of the unsynchronized part while a later one reached the disk.
    lost_sector = zeroed(data, first_value + 256, first_value + 768)
    cases.append(case("lost-sector-after-the-mark-writable",
                      "A 512-byte sector of a value written after the last synchronize was lost, the records after it "
                      "survived: the record ends after the durable length and its value fails, so it begins a torn "
                      "tail, and the intact records after it (alpha's rewrite among them) go with it. The writable open "
                      "cuts the log there and marks that length.",
                      lost_sector, {"entries": entries(synchronized), "file": b64(data[:durable]), "sync": marked(durable)},
                      ["store §5.3.5", "store §5.3.4", "store §4.1"], returnFile=True, sync=mark(durable)))
    cases.append(case("lost-sector-after-the-mark-read-only",
                      "The same log read-only: the torn tail is ignored, the file and its mark are left as they are.",
                      lost_sector, {"entries": entries(synchronized), "file": b64(lost_sector), "sync": mark(durable)},
                      ["store §5.3.5", "store §5.3.4", "store §4.1"], readOnly=True, returnFile=True, sync=mark(durable)))
    lost_header = zeroed(data, durable, durable + s.RECORD_HEADER_SIZE)
    cases.append(case("lost-header-after-the-mark-later-records-survive",
                      "The page holding the header of the first record written after the last synchronize was lost "
                      "(zeros), later records survived (not all zero): at or after the durable length that is a torn "
                      "tail, not damage, and nothing after it is applied.",
                      lost_header, {"entries": entries(synchronized), "file": b64(data[:durable]), "sync": marked(durable)},
                      ["store §5.3.5", "store §5.3.4"], returnFile=True, sync=mark(durable)))
    last_value = offsets[-1] + s.RECORD_HEADER_SIZE + len("alpha") + 3
    _, all_but_last, _ = build(BASE + LATE[:-1])
    cases.append(case("record-after-the-mark-whose-value-fails-is-cut",
                      "A whole record after the durable length whose header is valid but whose value fails its checksum "
                      "is torn, not a damaged value: it is cut (alpha keeps its synchronized value) instead of being "
                      "listed as checksumMismatch (compare corrupt/last-value-bit-flip, before the mark).",
                      flip(data, last_value, 0x08), {"entries": entries(all_but_last), "file": b64(data[:offsets[-1]]),
                                                     "sync": marked(offsets[-1])},
                      ["store §5.3.5", "store §5.3.4"], returnFile=True, sync=mark(durable)))
    cases.append(case("intact-records-after-the-mark-are-kept-and-marked",
                      "Whole, intact records after the durable length (a killed writer's, left in the page cache) are "
                      "kept; the writable open makes them durable and marks the whole log.",
                      data, {"entries": entries(model), "file": b64(data), "sync": marked(len(data))},
                      ["store §5.3", "store §5.3.4", "store §4.1"], returnFile=True, sync=mark(durable)))
    # Without a usable mark (none, another log's, damaged) D is 32: damage anywhere is a torn
    # tail. The same damage with a usable mark is corruptRecord.
    second = offsets[1]
    damaged_header = flip(data, second + 40, 0x10)
    _, first_only, _ = build(BASE[:1])
    torn_at_second = {"entries": entries(first_only), "file": b64(data[:second]), "sync": marked(second)}
    cases.append(case("no-mark-damage-is-a-torn-tail",
                      "Without a sync mark (a store written before the mark existed) the durable length is 32: a record "
                      "with a damaged header is the start of a torn tail, cut with everything after it.",
                      damaged_header, torn_at_second, ["store §5.3.5", "store §5.3.4", "store §4.1"], returnFile=True))
    for label, note, given in [
            ("mark-of-another-generation-is-ignored", "A mark of another log (another generation)",
             s.sync_mark(len(data), generation=s.GENERATION ^ 1)),
            ("mark-with-a-damaged-checksum-is-ignored", "A mark whose checksum fails",
             s.sync_mark(len(data), mark_checksum=s.checksum(s.sync_mark(len(data))[:24]) ^ 1)),
            ("mark-with-another-magic-is-ignored", "A mark whose magic differs (a snapshot's, with a matching checksum)",
             s.sync_mark(len(data), magic=s.HINT_MAGIC)),
            ("torn-mark-is-ignored", "A mark cut short (20 of its 32 bytes)", s.sync_mark(len(data))[:20])]:
        cases.append(case(label, note + " is ignored: the durable length is 32, so the damaged header is a torn "
                          "tail, not corruptRecord; the writable open writes its own mark.",
                          damaged_header, torn_at_second, ["store §4.1", "store §5.3.5"], returnFile=True, sync=b64(given)))
    cases.append(case("usable-mark-damage-is-refused",
                      "The same damage with a usable mark covering it is damage to synchronized data: corruptRecord, "
                      "and the file is not modified.",
                      damaged_header, {"error": "corruptRecord"}, ["store §5.3.3", "store §4.1"], sync=mark(len(data))))
    cases.append(case("mark-beyond-the-file-counts-as-the-whole-file",
                      "A mark longer than the file (the file was cut after it was written) is taken as the file's "
                      "length: damage anywhere is synchronized data.",
                      damaged_header, {"error": "corruptRecord"}, ["store §4.1", "store §5.3.3"], sync=mark(len(data) + 4096)))
    cut = offsets[-1] + 30
    _, before_last, _ = build(BASE + LATE[:-1])
    cases.append(case("mark-beyond-the-file-incomplete-tail-is-cut",
                      "A record cut short at the end of the file is an incomplete tail whatever the mark says: with a "
                      "mark beyond the file it is cut, not refused.",
                      data[:cut], {"entries": entries(before_last), "file": b64(data[:offsets[-1]]),
                                   "sync": marked(offsets[-1])},
                      ["store §5.3.1", "store §5.3.4", "store §4.1"], returnFile=True, sync=mark(len(data))))
    # The snapshot's logLength counts as durable: its records were durable when it was written.
    snapshot = s.snapshot(s.GENERATION, durable, snapshot_entries(BASE, offsets[:len(BASE)]))
    cases.append(case("after-the-snapshot-a-torn-record-is-cut",
                      "With a snapshot of the synchronized part and no mark, the records after its logLength are the "
                      "unsynchronized part: a record there whose value fails begins a torn tail and is cut.",
                      lost_sector, {"entries": entries(synchronized), "file": b64(data[:durable]), "sync": marked(durable)},
                      ["store §5.3", "store §5.3.5", "store §4"], returnFile=True, hint=b64(snapshot)))
    # Zero bytes before the durable length: all zero to the end is space never written;
    # followed by records it is a lost page of synchronized data.
    lost_page = zeroed(data, second, offsets[2])
    cases.append(case("zeros-before-the-mark-then-records-are-damage",
                      "A synchronized record read as zeros with records after it is not an unwritten tail (the bytes "
                      "after it are not all zero): damage to synchronized data, corruptRecord.",
                      lost_page, {"error": "corruptRecord"}, ["store §5.3.2", "store §5.3.3"], sync=mark(len(data))))
    # Repair (repairsDamage): damage to synchronized data is cut off as a tail.
    cases.append(case("repair-cuts-damage-as-a-tail",
                      "With repairsDamage, damage to synchronized data is treated as a tail: the writable open cuts the "
                      "log at the damaged record and marks that length.",
                      damaged_header, torn_at_second, ["store §5.3.3", "store §5.3.4"], returnFile=True,
                      sync=mark(len(data)), repairsDamage=True))
    cases.append(case("repair-read-only-ignores-from-the-damage",
                      "Read-only, repairsDamage ignores everything from the damaged record and changes nothing.",
                      damaged_header, {"entries": entries(first_only), "file": b64(damaged_header), "sync": mark(len(data))},
                      ["store §5.3.3", "store §5.3.4"], returnFile=True, readOnly=True, sync=mark(len(data)),
                      repairsDamage=True))
    return cases


def skip_cases():
    """Spec/store.md §5.4: with skipsDamagedRecords, damage to synchronized data costs the
    damaged records, reported in `damaged`, never the store; the file is not modified."""
    cases = []

    def case(name, note, operations, damage, expect, covers, durable=None, **extra):
        """operations are built into a log; damage(data, offsets) damages it; the mark covers
        `durable(offsets)` bytes (the whole log when None). Unless the case says otherwise, the
        open leaves the file as it was (skipping modifies nothing), and a writable one marks it."""
        data, _, offsets = build(operations)
        log = damage(bytearray(data), offsets)
        given = mark(len(log) if durable is None else durable(offsets))
        expect = dict(expect)
        expect.setdefault("file", b64(log))
        expect.setdefault("sync", given if extra.get("readOnly") else marked(len(log)))
        return read_case(f"skip/{name}", note, bytes(log), expect, covers + ["store §5.3.3"], skipsDamage=True,
                         returnFile=True, sync=given, **extra)

    def flipped(index, field, mask=0x04):
        def damage(data, offsets):
            data[offsets[index] + field] ^= mask
            return data
        return damage

    def span(offsets, index, key=None, end=None):
        found = {"offset": offsets[index], "length": (offsets[index + 1] if end is None else end) - offsets[index]}
        if key is not None:
            found["keyBytes"] = b64(key.encode())
        return found

    def explicit(operations):
        """The operations with the metadata build() gives them in this order, so that a subset
        of them builds the state with the same metadata."""
        return [operation + (T, s.NEVER, index + 1) if operation[0] == "put" and len(operation) == 3 else operation
                for index, operation in enumerate(operations)]

    def state(operations):
        return entries(build(operations)[1])

    three = explicit([("put", "alpha", b"alpha one"), ("put", "beta", b"beta"), ("put", "alpha", b"alpha two"),
                      ("put", "gamma", b"gamma")])
    _, _, o = build(three)
    cases.append(case("damaged-put-removes-its-key",
                      "A synchronized put whose header fails (its value checksum field) and whose lengths lead to the "
                      "next record is skipped alone; its key is removed, so alpha's earlier value does not come back. "
                      "The span is reported with the key, and the file is not modified.",
                      three, flipped(2, 9), {"entries": state([three[1], three[3]]), "damaged": [span(o, 2, "alpha")]},
                      ["store §5.4.1"]))
    cases.append(case("damaged-put-removes-its-key-read-only",
                      "The same read-only: the same entries and report, the file and its mark untouched.",
                      three, flipped(2, 9), {"entries": state([three[1], three[3]]), "damaged": [span(o, 2, "alpha")]},
                      ["store §5.4.1"], readOnly=True))
    removal = explicit([("put", "alpha", b"alpha"), ("put", "beta", b"beta"), ("remove", "alpha"), ("put", "gamma", b"gamma")])
    _, _, o = build(removal)
    cases.append(case("damaged-remove-keeps-its-key-removed",
                      "A damaged remove record whose lengths lead on removes its key: the put before it does not come back.",
                      removal, flipped(2, 33, 0x01), {"entries": state(removal), "damaged": [span(o, 2, "alpha")]},
                      ["store §5.4.1"]))
    cleared = explicit([("put", "alpha", b"alpha"), ("put", "beta", b"beta"), ("clear",), ("put", "gamma", b"gamma")])
    _, _, o = build(cleared)
    cases.append(case("damaged-clear-clears",
                      "A damaged clear record whose lengths lead on clears: only what follows it is held. It names no "
                      "key, so its span has none.",
                      cleared, flipped(2, 0, 0x01), {"entries": state(cleared), "damaged": [span(o, 2)]}, ["store §5.4.1"]))
    touched = explicit([("put", "alpha", b"alpha"), ("touch", "alpha", T, T + 500, 2), ("put", "beta", b"beta")])
    _, _, o = build(touched)
    cases.append(case("damaged-touch-changes-nothing",
                      "A damaged touch record changes nothing: alpha keeps the metadata of its put.",
                      touched, flipped(1, 44, 0x01), {"entries": state([touched[0], touched[2]]),
                                                      "damaged": [span(o, 1, "alpha")]}, ["store §5.4.1"]))
    typed = explicit([("put", "alpha", b"alpha"), ("put", "beta", b"beta one"), ("put", "beta", b"beta two"),
                      ("put", "gamma", b"gamma")])
    _, _, o = build(typed)

    def retyped(data, offsets):
        data[offsets[2] + 16] = 9
        return data
    cases.append(case("damaged-type-byte-removes-its-key",
                      "A record whose type byte names no known type, before the durable length, is damaged; its "
                      "lengths lead on, so it is skipped alone and reported with its key, and, since the damage "
                      "may have hit a put's type byte, the key is removed: beta's earlier value does not come back.",
                      typed, retyped, {"entries": state([typed[0], typed[3]]), "damaged": [span(o, 2, "beta")]},
                      ["store §5.4.1"]))
    last = explicit([("put", "alpha", b"alpha one"), ("put", "beta", b"beta"), ("put", "alpha", b"alpha two")])
    data, _, o = build(last)
    cases.append(case("damaged-last-synchronized-record",
                      "A damaged record whose lengths end exactly at the durable length is skipped alone.",
                      last, flipped(2, 36, 0x01), {"entries": state([last[1]]), "damaged": [span(o, 2, "alpha", len(data))]},
                      ["store §5.4.1"]))
    several = explicit([("put", f"key-{n}", f"value {n}".encode()) for n in range(6)])
    _, _, o = build(several)

    def twice(data, offsets):
        data[offsets[1] + 9] ^= 0x01
        data[offsets[4] + 40] ^= 0x01
        return data
    cases.append(case("each-damaged-record-is-reported",
                      "Two damaged records are skipped and reported one by one, in file order.",
                      several, twice, {"entries": state([several[n] for n in (0, 2, 3, 5)]),
                                       "damaged": [span(o, 1, "key-1"), span(o, 4, "key-4")]}, ["store §5.4.1"]))
    # Rule 2: the damaged lengths lead nowhere; the scan goes on where valid records chain.
    lengths = explicit([("put", "alpha", b"alpha one"), ("put", "beta", b"beta"), ("put", "alpha", b"alpha two"),
                        ("put", "gamma", b"gamma"), ("put", "delta", b"delta")])
    _, _, o = build(lengths)
    cases.append(case("damaged-lengths-skip-to-the-next-chain",
                      "A damaged record whose value length leads into the middle of the next record: the scan goes on "
                      "at the next offset where valid records chain to the durable length. The lost record was alpha's "
                      "latest, so alpha reads its previous value; the span names no key.",
                      lengths, flipped(2, 24, 0x03), {"entries": state([lengths[n] for n in (0, 1, 3, 4)]),
                                                      "damaged": [span(o, 2)]}, ["store §5.4.2"]))
    ghost = s.put("ghost", b"a record inside a value", T, s.NEVER, 99)
    carrier = explicit([("put", "alpha", b"alpha"), ("put", "carrier", ghost + b" and bytes that are no record"),
                        ("put", "beta", b"beta"), ("put", "gamma", b"gamma")])
    _, _, o = build(carrier)
    cases.append(case("a-value-that-looks-like-a-record-starts-no-chain",
                      "A damaged record whose value holds a valid record (ghost) followed by other bytes: the ghost "
                      "is a valid header but starts no chain to the durable length, so the scan goes on at the next "
                      "real record and ghost is never applied.",
                      carrier, flipped(1, 26, 0x40), {"entries": state([carrier[n] for n in (0, 2, 3)]),
                                                      "damaged": [span(o, 1)]}, ["store §5.4.2"]))
    # Rule 3: no chain reaches the durable length, so everything to it is lost; the records
    # after it (written since the last synchronize, whole and intact) are kept.
    lost = explicit([("put", f"key-{n}", f"value {n}".encode()) for n in range(8)])
    _, _, o = build(lost)

    def no_chain(data, offsets):
        data[offsets[2] + 26] ^= 0x40  # key-2's value length: leads nowhere
        data[offsets[5] + 40] ^= 0x01  # key-5, the last record before the durable length
        return data
    cases.append(case("no-chain-loses-everything-to-the-durable-length",
                      "The last record before the durable length is damaged too, so no chain of valid records from "
                      "after the first damage reaches it: everything from the first damage to the durable length is "
                      "lost, one span, and the scan goes on there: the two records after it are kept.",
                      lost, no_chain, {"entries": state([lost[n] for n in (0, 1, 6, 7)]),
                                       "damaged": [span(o, 2, end=o[6])]}, ["store §5.4.3", "store §5.3"],
                      durable=lambda offsets: offsets[6]))
    # Damage after the durable length is still a torn tail, never skipped.
    mixed = explicit([("put", f"key-{n}", f"value {n}".encode()) for n in range(7)])
    data, _, o = build(mixed)

    def both_sides(data, offsets):
        data[offsets[1] + 9] ^= 0x01  # before the mark: skipped
        data[offsets[5] + 40] ^= 0x01  # after it: a torn tail
        return data
    torn = both_sides(bytearray(data), o)
    cases.append(case("damage-after-the-mark-is-a-torn-tail",
                      "With skipping, damage before the durable length is skipped, damage after it is still a torn "
                      "tail: cut with the intact record after it, and not reported.",
                      mixed, both_sides, {"entries": state([mixed[n] for n in (0, 2, 3, 4)]), "damaged": [span(o, 1, "key-1")],
                                          "file": b64(torn[:o[5]]), "sync": marked(o[5])},
                      ["store §5.4.1", "store §5.3.5"], durable=lambda offsets: offsets[4]))
    # Compaction drops the skipped bytes.
    _, _, o = build(three)
    compacted = s.file_header() + s.put("beta", b"beta", T, s.NEVER, 2) + s.put("gamma", b"gamma", T, s.NEVER, 4)
    cases.append(case("compaction-drops-the-skipped-record",
                      "The file keeps a skipped record until a compaction, which writes only the live entries: the "
                      "compacted log has no trace of alpha.",
                      three, flipped(2, 9), {"entries": state([three[1], three[3]]), "damaged": [span(o, 2, "alpha")],
                                             "file": log_file(compacted), "sync": marked(len(compacted))},
                      ["store §5.4.1", "store §7.1.1"], compactAt=T))
    return cases


def compaction_cases():
    cases = []
    operations = BASE + [
        ("put", "alpha", b"alpha v2", T, T + 500, 20),
        ("put", "expired", b"old", T - 10, T, 21),
        ("put", "expires-later", b"later", T, T + 1, 22),
        ("remove", "beta"),
        ("touch", "gamma", T, T + 100, 30),
        ("put", "beta", b"beta is back", T, s.NEVER, 31),
        ("remove", "nul\u0000key"),
    ]
    data, model, _ = build(operations)
    cases.append(read_case("compact/before", "The store before compaction.", data, {"entries": entries(model)}, ["store §3.3"]))
    # The compacted log: one put per live key, in log order of their put records, copied, or
    # rewritten with the current metadata when a touch changed it.
    def compacted_file(now):
        out = bytearray(s.file_header())
        order = []
        for operation in operations:
            if operation[0] == "put":
                if operation[1] in order:
                    order.remove(operation[1])
                order.append(operation[1])
        for key in order:
            if key in model.entries and model.entries[key][2] > now:
                value, created, expires, sequence = model.entries[key]
                out += s.put(key, value, created, expires, sequence)
        return bytes(out)
    cases.append(read_case("compact/after", "Compaction at T keeps live records with expiresAt > T, their latest metadata, and never a removed key; the new log holds one put per live key in log order.",
                           data, {"entries": entries(model.compacted(T)),
                                  "file": log_file(compacted_file(T)), "sync": marked(len(compacted_file(T)))},
                           ["store §7", "store §7.1.1", "store §7.3", "store §4.1"], compactAt=T, returnFile=True))
    cases.append(read_case("compact/after-later", "Compaction at T + 100 also drops what expired by then.",
                           data, {"entries": entries(model.compacted(T + 100)),
                                  "file": log_file(compacted_file(T + 100)), "sync": marked(len(compacted_file(T + 100)))},
                           ["store §7.1.1", "store §4.1"], compactAt=T + 100, returnFile=True))
    # Spec/store.md §7.1: damage survives compaction, whether the record is copied or rewritten.
    damaged, model, offsets = build(BASE + [("touch", "beta", T, T + 10_000, 40)])
    beta_value = offsets[1] + s.RECORD_HEADER_SIZE + len("beta") + 3
    damaged = flip(damaged, beta_value, 0x10)
    cases.append(read_case("compact/damaged-rewritten-value-stays-detectable",
                           "A touched record is rewritten by compaction with the old value checksum; a damaged value keeps failing its check.",
                           damaged, {"entries": entries(model, {"beta": "checksumMismatch"})}, ["store §7.1.1"], compactAt=T,
                           sync=mark(len(damaged))))
    damaged, model, offsets = build(BASE)
    alpha_value = offsets[0] + s.RECORD_HEADER_SIZE + len("alpha") + 1
    cases.append(read_case("compact/damaged-copied-value-stays-detectable",
                           "An untouched record is copied byte for byte; a damaged value keeps failing its check.",
                           flip(damaged, alpha_value, 0x04), {"entries": entries(model, {"alpha": "checksumMismatch"})},
                           ["store §7.1.1"], compactAt=T, sync=mark(len(damaged))))
    # Spec/store.md §7.1 step 1: opened through a snapshot, the store never scanned the damaged
    # header; compaction checks it before it rewrites a touched record.
    operations = BASE + [("touch", "beta", T, T + 10_000, 40)]
    damaged, model, offsets = build(operations)
    hint = s.snapshot(s.GENERATION, len(damaged), snapshot_entries(operations, offsets))
    damaged = flip(damaged, offsets[1] + 36, 0x02)  # createdAt of beta's put, under its header checksum
    beta = bytes(range(256))
    compacted = bytearray(s.file_header())
    for key, value in [(op[1], op[2]) for op in BASE]:
        _, created, expires, sequence = model.entries[key]
        complement = s.checksum(value) ^ 0xFFFFFFFFFFFFFFFF if key == "beta" else None
        compacted += s.put(key, value, created, expires, sequence, value_checksum=complement)
    assert model.entries["beta"][0] == beta
    cases.append(read_case("compact/damaged-header-of-a-touched-record-through-a-snapshot",
                           "Opened through a snapshot, a store has not checked the header of a touched record, which is "
                           "damaged; compaction checks it before rewriting the record with the touch's metadata and gives "
                           "the new record the complement of the value's checksum, so the value reads as checksumMismatch "
                           "instead of being blessed by a fresh or copied checksum.",
                           damaged, {"entries": entries(model, {"beta": "checksumMismatch"}), "file": log_file(bytes(compacted)),
                                     "sync": marked(len(compacted))},
                           ["store §7.1.1", "store §4"], compactAt=T, returnFile=True, hint=b64(hint)))
    # Writing: operations applied by the implementation, then its file and entries.
    write_operations = [
        {"put": "a", "value": b64(b"one"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 1},
        {"put": "b", "value": b64(b"two"), "createdAt": T, "expiresAt": T + 10, "accessSequence": 2},
        {"touch": "a", "createdAt": T, "expiresAt": T + 50, "accessSequence": 3},
        {"remove": "b"},
        {"put": "c", "value": b64(b""), "createdAt": T + 1, "expiresAt": s.NEVER, "accessSequence": 4},
        {"removeAll": True},
        {"put": "d", "value": b64(b"four"), "createdAt": T + 2, "expiresAt": s.NEVER, "accessSequence": 5},
    ]
    expected_file = (s.file_header() + s.put("a", b"one", T, s.NEVER, 1) + s.put("b", b"two", T, T + 10, 2)
                     + s.touch("a", T, T + 50, 3) + s.remove("b") + s.put("c", b"", T + 1, s.NEVER, 4) + s.clear()
                     + s.put("d", b"four", T + 2, s.NEVER, 5))
    cases.append({"name": "write/records-byte-for-byte",
                  "note": "An implementation writes each operation as exactly one record of Spec/store.md (the generation is free).",
                  "covers": ["store §1", "store §2", "store §3.1", "store §3.3.6", "store §5.1.1"],
                  "steps": [{"request": {"op": "store.write", "operations": write_operations},
                             "expect": {"file": log_file(expected_file), "sync": marked(len(expected_file)),
                                        "entries": [{"key": "d", "value": b64(b"four"), "createdAt": T + 2,
                                                     "expiresAt": s.NEVER, "accessSequence": 5}]}}]})
    removed_then_compacted = [
        {"put": "keep", "value": b64(b"kept"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 1},
        {"put": "gone", "value": b64(b"removed"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 2},
        {"remove": "gone"},
        {"compact": T},
        {"put": "late", "value": b64(b"after compaction"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 3},
        {"compact": T + 1},
    ]
    expected_entries = [
        {"key": "keep", "value": b64(b"kept"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 1},
        {"key": "late", "value": b64(b"after compaction"), "createdAt": T, "expiresAt": s.NEVER, "accessSequence": 3},
    ]
    expected_file = s.file_header() + s.put("keep", b"kept", T, s.NEVER, 1) + s.put("late", b"after compaction", T, s.NEVER, 3)
    cases.append({"name": "write/removed-key-stays-removed-after-compaction",
                  "note": "A key removed before a compaction never comes back; the compacted file reads back the same.",
                  "covers": ["store §7.3"],
                  "steps": [{"request": {"op": "store.write", "operations": removed_then_compacted},
                             "expect": {"entries": expected_entries,
                                        "file": log_file(expected_file), "sync": marked(len(expected_file))}}]})
    return cases


def snapshot_entries(operations, offsets):
    """The index after the operations, as snapshot entries (latest put offset per key)."""
    index = {}
    for operation, offset in zip(operations, offsets):
        kind = operation[0]
        if kind == "put":
            created, expires, sequence = operation[3:6] if len(operation) > 3 else (T, s.NEVER, offsets.index(offset) + 1)
            index[operation[1]] = [1, offset, len(operation[2]), created, expires, sequence]
        elif kind == "remove":
            index.pop(operation[1], None)
        elif kind == "touch" and operation[1] in index:
            index[operation[1]][0] = 0
            index[operation[1]][3:6] = operation[2:5]
        elif kind == "clear":
            index.clear()
    return [(key, *fields) for key, fields in sorted(index.items())]


def snapshot_cases():
    """Spec/store.md §4: a snapshot is an optimisation; a stale or damaged one is never trusted."""
    cases = []
    prefix = BASE + [("touch", "alpha", T, T + 7, 50)]
    operations = prefix + [("put", "appended", b"after the snapshot"), ("remove", "beta")]
    data, model, offsets = build(operations)
    prefix_length = offsets[len(prefix)]
    good = snapshot_entries(prefix, offsets[:len(prefix)])
    generation = s.GENERATION

    def case(name, note, hint):
        return read_case(name, note, data, {"entries": entries(model)}, ["store §4", "store §5.1.4"], hint=b64(hint))

    cases.append(case("snapshot/valid-then-scan-the-tail", "A valid snapshot of a prefix, then the records appended after it.",
                      s.snapshot(generation, prefix_length, good)))
    # A valid snapshot is used: it can be told from a scan when it lists what the log does not.
    trusted = read_case("snapshot/valid-snapshot-is-used",
                        "A valid snapshot is the index up to its logLength: an entry it lists that the log's records do not (metadata differs) shows.",
                        data, {"entries": entries_with_metadata(model, "gamma", (T + 1, T + 2, 99))}, ["store §4", "store §5.1"],
                        hint=b64(s.snapshot(generation, prefix_length,
                                            [e if e[0] != "gamma" else (e[0], 0, e[2], e[3], T + 1, T + 2, 99) for e in good])),
                        readOnly=True)
    cases.append(trusted)
    ghost = good + [("ghost", 1, offsets[0], len(BASE[0][2]), T, s.NEVER, 1)]
    for label, note, hint in [
            ("wrong-generation", "A snapshot of another log (another generation) is ignored.",
             s.snapshot(generation ^ 1, prefix_length, ghost)),
            ("damaged-header", "A snapshot whose header checksum fails is ignored.",
             s.snapshot(generation, prefix_length, ghost, header_checksum=0)),
            ("damaged-entries", "A snapshot whose entries checksum fails is ignored.",
             s.snapshot(generation, prefix_length, ghost, entries_checksum=0)),
            ("longer-than-the-log", "A snapshot describing more log than the file holds (the log was cut) is ignored.",
             s.snapshot(generation, len(data) + 100, ghost)),
            ("entry-outside-its-log-length", "A snapshot entry whose record lies beyond logLength is ignored.",
             s.snapshot(generation, offsets[1], ghost)),
            ("format-1-snapshot", "A format-1 snapshot (major 1, CRC-32) beside a format-2 log is ignored.",
             s.v1_snapshot(generation, prefix_length, ghost)),
            ("major-mismatch", "A snapshot whose major is not 2 is ignored even with matching checksums.",
             s.snapshot(generation, prefix_length, ghost, major=3)),
    ]:
        cases.append(case(f"snapshot/{label}", note, hint))
    return cases


def entries_with_metadata(model, key, metadata):
    changed = s.Model()
    changed.entries = dict(model.entries)
    changed.entries[key] = (model.entries[key][0], *metadata)
    return entries(changed)


def migration_cases():
    """Spec/store.md §11: format 1 is migrated by a writable open, refused read-only."""
    cases = []
    operations = BASE + [("touch", "alpha", T, T + 9000, 40), ("remove", "beta"), ("put", "late", b"late value", T, T + 5, 41)]
    v1, model, offsets = build(operations, v1=True)

    def migrated(model, order, damaged=()):
        out = bytearray(s.file_header())
        for key in order:
            if key in model.entries:
                value, created, expires, sequence = model.entries[key]
                stored = damaged[key] if key in damaged else value
                vsum = s.checksum(stored) ^ 0xFFFFFFFFFFFFFFFF if key in damaged else None
                out += s.put(key, stored, created, expires, sequence, value_checksum=vsum)
        return bytes(out)

    order = [op[1] for op in BASE] + ["late"]
    cases.append(read_case("migrate/writable-open-rewrites-as-format-2",
                           "A writable open of a format-1 store rewrites it as format 2: one put per live entry in log order, with the current metadata.",
                           v1, {"entries": entries(model),
                                "file": log_file(migrated(model, order)), "sync": marked(len(migrated(model, order)))},
                           ["store §2.1.3", "store §11.1", "store §11.2.1", "store §11.2.2", "store §11.2.4", "store §4.1"],
                           returnFile=True))
    cases.append(read_case("migrate/read-only-open-refuses", "A read-only open of a format-1 store fails with migrationRequired.",
                           v1, {"error": "migrationRequired"}, ["store §2.1.3", "store §11.2", "store §9"], readOnly=True))
    cases.append(read_case("migrate/format-1-header-crc", "A format-1 header whose CRC-32 fails is corruptFileHeader.",
                           flip(v1, 17), {"error": "corruptFileHeader"}, ["store §2.1.3"]))
    torn = v1[:offsets[-1] + 30]
    _, torn_model, _ = build(operations[:-1], v1=True)
    cases.append(read_case("migrate/torn-tail-is-left-behind", "An incomplete format-1 tail is not migrated.",
                           torn, {"entries": entries(torn_model),
                                  "file": log_file(migrated(torn_model, order)), "sync": marked(len(migrated(torn_model, order)))},
                           ["store §11.2.1", "store §11.2.2"], returnFile=True))
    cases.append(read_case("migrate/middle-damage-refuses", "Damage in the middle of a format-1 log fails the migration with corruptRecord.",
                           flip(v1, offsets[1] + 20), {"error": "corruptRecord"}, ["store §11.2.1"]))
    damaged_at = offsets[3] + s.V1_RECORD_HEADER_SIZE + len("ключ🙂".encode()) + 2
    damaged = flip(v1, damaged_at, 0x20)
    bad_value = bytearray(b"unicode key")
    bad_value[2] ^= 0x20
    cases.append(read_case("migrate/damaged-value-stays-detectable",
                           "A format-1 value whose record CRC-32 fails is migrated with the complement of its checksum, so it reads as checksumMismatch.",
                           damaged, {"entries": entries(model, {"ключ🙂": "checksumMismatch"}),
                                     "file": log_file(migrated(model, order, {"ключ🙂": bytes(bad_value)})),
                                     "sync": marked(len(migrated(model, order)))},
                           ["store §11.2.1", "store §11.2.2"], returnFile=True))
    hint = s.v1_snapshot(s.GENERATION, len(v1), [("ghost", 1, offsets[0], 11, T, s.NEVER, 1)])
    cases.append(read_case("migrate/format-1-snapshot-ignored", "A format-1 snapshot is not used by the migration.",
                           v1, {"entries": entries(model)}, ["store §11.1", "store §11.2.1"], hint=b64(hint)))
    cases.append(read_case("migrate/format-1-header-crc-read-only",
                           "A read-only open checks a format-1 header before it refuses the migration: a header whose "
                           "CRC-32 fails is corruptFileHeader, as for a writable open, not migrationRequired.",
                           flip(v1, 17), {"error": "corruptFileHeader"}, ["store §2.1.8", "store §2.1.3"], readOnly=True))
    empty, _, _ = build([], v1=True)
    cases.append(read_case("migrate/empty-store", "An empty format-1 store migrates to a format-2 header.",
                           empty, {"entries": [], "file": log_file(s.file_header()), "sync": marked(32)},
                           ["store §11.2.1", "store §11.2.2"], returnFile=True))
    return cases


# -- format 3: user metadata (Spec/store.md §13) --------------------------------------------------
ETAG = b'"etag-1"'
MODIFIED = b"Last-Modified: Tue, 24 Nov 2026 21:00:00 GMT"
LONGEST = bytes((i * 7 + 3) & 0xFF for i in range(4096))
FORMAT3 = ["storeFormat3"]


def v3(records):
    """A format-3 log of the given records; returns (file, offsets of the records)."""
    data, offsets = bytearray(s.file_header(major=3)), []
    for record in records:
        offsets.append(len(data))
        data += record
    return bytes(data), offsets


def entry3(key, value, created, expires, sequence, user_metadata=b"", error=None):
    """An entry as store.read lists it with its user metadata (Spec/conformance.md §5.4)."""
    entry = {"key": key, "value": b64(value), "createdAt": created, "expiresAt": expires, "accessSequence": sequence}
    if error is None:
        entry["userMetadata"] = b64(user_metadata)
    else:
        entry["userMetadataError"] = error
    return entry


def format3_case(case):
    case["requires"] = FORMAT3
    return case


def format3_cases():
    """Format-3 files read, written, damaged and compacted (Spec/store.md §13)."""
    cases = []
    n = s.NEVER
    records = [s.put3("a", b"first", T, n, 1), s.put3("b", b"beta", T, n, 2, ETAG),
               s.put3("c", b"gamma", T, n, 3, LONGEST), s.put3("d", b"", T, n, 4, b"x")]
    data, _ = v3(records)
    cases.append(read_case(
        "format3/put-with-user-metadata",
        "Format 3: a put with m > 0 is followed by its user-metadata block (checksum, bytes), up to 4,096 bytes, "
        "after an empty value too; m = 0 has none. A writable open keeps the file as it is.",
        data, {"entries": [entry3("a", b"first", T, n, 1), entry3("b", b"beta", T, n, 2, ETAG),
                           entry3("c", b"gamma", T, n, 3, LONGEST), entry3("d", b"", T, n, 4, b"x")],
               "file": log_file(data), "sync": marked(len(data))},
        ["store §13.1", "store §13.4", "store §2.1"], returnFile=True))
    data, _ = v3([s.put3("a", b"alpha", T, n, 1, ETAG), s.put3("b", b"beta", T, n, 2),
                  s.set_user_metadata3("a", MODIFIED, T, n, 1), s.set_user_metadata3("b", ETAG, T, n, 2),
                  s.set_user_metadata3("zz", ETAG, T, n, 9), s.record3(s.TOUCH, "a", b"", T, T + 50, 7),
                  s.set_user_metadata3("b", b"", T, n, 2)])
    cases.append(read_case(
        "format3/type-5-replaces",
        "A type-5 record replaces the user metadata of a held key (m = 0: none), leaving value and metadata; "
        "one for an absent key does nothing; a touch keeps the user metadata.",
        data, {"entries": [entry3("a", b"alpha", T, T + 50, 7, MODIFIED), entry3("b", b"beta", T, n, 2)]},
        ["store §13.1", "store §13.4"], readOnly=True))
    records = [s.put3("a", b"alpha", T, n, 1, ETAG), s.put3("b", b"beta", T, n, 2),
               s.set_user_metadata3("b", MODIFIED, T, n, 2)]
    data, offsets = v3(records)
    block_a = offsets[0] + 56 + 1 + 5  # after a's key and value: the block's checksum, then the bytes
    block_b = offsets[2] + 56 + 1
    for label, where, key in [("bytes", block_a + 8 + 2, "a"), ("checksum", block_a + 3, "a"),
                              ("type-5-block", block_b + 8 + 5, "b")]:
        damaged = flip(data, where)
        expect = [entry3("a", b"alpha", T, n, 1, ETAG, error="checksumMismatch" if key == "a" else None),
                  entry3("b", b"beta", T, n, 2, MODIFIED, error="checksumMismatch" if key == "b" else None)]
        cases.append(read_case(
            f"format3/damaged-user-metadata-{label}",
            "Synchronized data (a sync mark over the whole file): a user-metadata block that fails its checksum "
            "is found when the user metadata is read (checksumMismatch); the value and the other entries read well.",
            damaged, {"entries": expect}, ["store §13.1", "store §13.4", "store §8.2"],
            sync=mark(len(data)), readOnly=True))
    head, offsets = v3(records[:1])
    data = flip(v3(records[:1] + [s.put3("b", b"beta", T, n, 2, MODIFIED)])[0], len(head) + 56 + 1 + 4 + 8 + 3)
    cases.append(read_case(
        "format3/damaged-user-metadata-in-the-tail",
        "Past the durable length (no sync mark), a put whose user-metadata block fails its checksum is a torn "
        "tail: cut by a writable open, the log kept as format 3.",
        data, {"entries": [entry3("a", b"alpha", T, n, 1, ETAG)], "file": log_file(head), "sync": marked(len(head))},
        ["store §13.1", "store §5.3"], returnFile=True))
    # A format-3 snapshot: used (its metadata for a differs from the record, and b's user metadata is
    # found through the offset of the type-5 record); one of major 2 beside a format-3 log is ignored.
    data, offsets = v3(records)
    snapshot = s.snapshot3(s.GENERATION, len(data), [
        ("a", 0, offsets[0], 5, T + 1, T + 2, 99, len(ETAG), len(ETAG), offsets[0]),
        ("b", 0, offsets[1], 4, T, n, 2, 0, len(MODIFIED), offsets[2])])
    cases.append(read_case(
        "format3/snapshot-is-used",
        "The snapshot of a format-3 log has major 3 and entries of 56 + keyLength bytes (the put's m, the current "
        "m and the offset of the record holding the user metadata); a valid one is used.",
        data, {"entries": [entry3("a", b"alpha", T + 1, T + 2, 99, ETAG), entry3("b", b"beta", T, n, 2, MODIFIED)]},
        ["store §13.3", "store §13.4"], hint=b64(snapshot), readOnly=True))
    ghost = [("a", 0, offsets[0], 5, T + 1, T + 2, 99), ("ghost", 0, offsets[1], 4, T, n, 5)]
    cases.append(read_case(
        "format3/snapshot-of-major-2-ignored",
        "A snapshot is used only when its major equals the log's: a major-2 snapshot beside a format-3 log is ignored.",
        data, {"entries": [entry3("a", b"alpha", T, n, 1, ETAG), entry3("b", b"beta", T, n, 2, MODIFIED)]},
        ["store §13.3"], hint=b64(s.snapshot(s.GENERATION, len(data), ghost)), readOnly=True))
    cases += format3_write_cases()
    return [format3_case(case) for case in cases]


def write_case(name, note, operations, expect, covers):
    return {"name": name, "note": note, "covers": covers,
            "steps": [{"request": {"op": "store.write", "operations": operations}, "expect": expect}]}


def put_op(key, value, created, expires, sequence, user_metadata=None):
    operation = {"put": key, "value": b64(value), "createdAt": created, "expiresAt": expires, "accessSequence": sequence}
    if user_metadata is not None:
        operation["userMetadata"] = b64(user_metadata)
    return operation


def set_op(key, user_metadata):
    return {"setUserMetadata": key, "userMetadata": b64(user_metadata)}


def format3_write_cases():
    """Writers (Spec/store.md §13.2): format 2 until user metadata must be written, then a
    compaction to format 3 keeping every entry; one record per change; compaction of format 3."""
    n = s.NEVER
    cases = []
    operations = [put_op("a", b"alpha", T, n, 1), put_op("x", b"expired", T - 100, T - 50, 2),
                  put_op("b", b"beta", T, n, 3), {"remove": "b"}, put_op("c", b"gamma", T, n, 4, ETAG),
                  set_op("a", MODIFIED), set_op("zz", ETAG)]
    data, _ = v3([s.put3("a", b"alpha", T, n, 1), s.put3("x", b"expired", T - 100, T - 50, 2),
                  s.put3("c", b"gamma", T, n, 4, ETAG), s.set_user_metadata3("a", MODIFIED, T, n, 1)])
    cases.append(write_case(
        "format3/write-upgrades-to-format-3",
        "The first user metadata a format-2 store must write makes it format 3 first, by a compaction keeping "
        "every entry, expired or not (a removed key's records dropped); then the put with its block. Replacing "
        "user metadata appends one type-5 record with the entry's current metadata, and nothing for an absent key.",
        operations,
        {"file": log_file(data), "sync": marked(len(data)),
         "entries": [entry3("a", b"alpha", T, n, 1, MODIFIED), entry3("c", b"gamma", T, n, 4, ETAG),
                     entry3("x", b"expired", T - 100, T - 50, 2)]},
        ["store §13.2.1", "store §13.2.2", "store §13.1"]))
    plain = s.file_header() + s.put("a", b"alpha", T, n, 1) + s.put("b", b"beta", T, n, 2)
    cases.append(write_case(
        "format3/write-without-user-metadata-stays-format-2",
        "A store that never writes user metadata stays format 2: empty user metadata on a put writes a plain "
        "put, and clearing user metadata a format-2 log cannot hold writes nothing.",
        [put_op("a", b"alpha", T, n, 1), set_op("a", b""), put_op("b", b"beta", T, n, 2, b"")],
        {"file": log_file(plain), "sync": marked(len(plain)),
         "entries": [entry3("a", b"alpha", T, n, 1), entry3("b", b"beta", T, n, 2)]},
        ["store §13.2.2"]))
    operations = [put_op("a", b"one", T, n, 1, ETAG), put_op("a", b"two", T, n, 2, MODIFIED),
                  put_op("b", b"beta", T, n, 3), set_op("b", ETAG), {"touch": "b", "createdAt": T, "expiresAt": T + 99,
                                                                    "accessSequence": 9},
                  put_op("c", b"gamma", T, n, 4, LONGEST), {"compact": T + 1}]
    b_put = s.put("b", b"beta", T, n, 3)
    data, _ = v3([s.put3("a", b"two", T, n, 2, MODIFIED),
                  s.put3("b", b"beta", T, T + 99, 9, ETAG, value_checksum=struct.unpack_from("<Q", b_put, 8)[0]),
                  s.put3("c", b"gamma", T, n, 4, LONGEST)])
    cases.append(write_case(
        "format3/compaction-keeps-user-metadata",
        "Compaction of a format-3 log writes format 3: a put holding the entry's current metadata and user "
        "metadata is copied; otherwise a new put with the current metadata, the value and the current "
        "user-metadata block (here from a type-5 record, then touched).",
        operations,
        {"file": log_file(data), "sync": marked(len(data)),
         "entries": [entry3("a", b"two", T, n, 2, MODIFIED), entry3("b", b"beta", T, T + 99, 9, ETAG),
                     entry3("c", b"gamma", T, n, 4, LONGEST)]},
        ["store §13.2.3", "store §7"]))
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for file_name, cases in [("valid.json", valid_cases()), ("torn.json", torn_cases()),
                             ("corrupt.json", corrupt_cases()), ("compaction.json", compaction_cases()),
                             ("snapshot.json", snapshot_cases()), ("sync.json", sync_cases()),
                             ("skip.json", skip_cases()), ("format3.json", format3_cases()),
                             ("migration.json", migration_cases())]:
        write_case_file(os.path.join(OUT, file_name), "store", "Store files (Spec/store.md).", cases, ascii_only=False)


if __name__ == "__main__":
    main()
