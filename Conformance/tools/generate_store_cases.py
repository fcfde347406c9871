#!/usr/bin/env python3
"""Writes Conformance/store/*.json: store files built by the independent writer in
storewriter.py, each with the live entries (or the error) a reader must report.
Run: python3 Conformance/tools/generate_store_cases.py
"""
import base64
import json
import os
import random

import storewriter as s

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "store")
T = 1_700_000_000_000


def b64(data):
    return base64.b64encode(data).decode("ascii")


def build(operations):
    """operations: tuples ('put', key, value[, created, expires, sequence]), ('remove', key),
    ('touch', key, created, expires, sequence), ('clear',). Returns (file, model, offsets)."""
    data = bytearray(s.file_header())
    model = s.Model()
    offsets = []
    for operation in operations:
        offsets.append(len(data))
        kind = operation[0]
        if kind == "put":
            key, value = operation[1], operation[2]
            created, expires, sequence = operation[3:6] if len(operation) > 3 else (T, s.NEVER, len(offsets))
            data += s.put(key, value, created, expires, sequence)
            model.apply(s.PUT, key, value, created, expires, sequence)
        elif kind == "remove":
            data += s.remove(operation[1])
            model.apply(s.REMOVE, operation[1])
        elif kind == "touch":
            data += s.touch(*operation[1:])
            model.apply(s.TOUCH, *operation[1:2], b"", *operation[2:])
        elif kind == "clear":
            data += s.clear()
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


def read_case(name, note, data, expect, **extra):
    request = {"op": "store.read", "file": b64(data)}
    request.update(extra)
    return {"name": name, "note": note, "steps": [{"request": request, "expect": expect}]}


BASE = [
    ("put", "alpha", b"first value"),
    ("put", "beta", bytes(range(256))),
    ("put", "gamma", b""),
    ("put", "ключ🙂", b"unicode key"),
    ("put", "nul\u0000key", b"key with NUL"),
    ("put", "../../etc/passwd", b"path-like key"),
]


def valid_cases():
    cases = []
    data, model, _ = build([])
    cases.append(read_case("valid/empty-store", "A header and no records.", data, {"entries": []}))
    cases.append(read_case("valid/zero-length-file", "An empty file opens as an empty store.", b"", {"entries": []}))
    data, model, _ = build(BASE)
    cases.append(read_case("valid/puts", "Puts of several keys, an empty value, Unicode and NUL keys.", data, {"entries": entries(model)}))
    data, model, _ = build(BASE + [("put", "alpha", b"second value", T + 5, T + 1000, 77)])
    cases.append(read_case("valid/overwrite", "The last put of a key wins, metadata included.", data, {"entries": entries(model)}))
    data, model, _ = build(BASE + [("remove", "beta"), ("remove", "not-there")])
    cases.append(read_case("valid/remove", "A remove record deletes its key; removing a missing key changes nothing.", data,
                           {"entries": entries(model)}))
    data, model, _ = build(BASE + [("touch", "alpha", T, T + 9000, 1234), ("touch", "missing", T, T, 1)])
    cases.append(read_case("valid/touch", "A touch record replaces the metadata and keeps the value; a touch of a missing key is ignored.",
                           data, {"entries": entries(model)}))
    data, model, _ = build(BASE + [("clear",), ("put", "after", b"after clear")])
    cases.append(read_case("valid/clear", "A clear record deletes every earlier entry.", data, {"entries": entries(model)}))
    data, model, _ = build([("put", "past", b"p", -5, 0, 0), ("put", "max", b"m", s.NEVER, s.NEVER, 2 ** 62),
                            ("put", "k" * 65535, b"longest key", T, T, 3)])
    cases.append(read_case("valid/extreme-metadata", "Negative and maximal times, a large access sequence and a 65,535-byte key.",
                           data, {"entries": entries(model)}))
    rng = random.Random(3)
    big = bytes(rng.randrange(256) for _ in range(200_000))
    data, model, _ = build([("put", "big", big), ("put", "small", b"s")])
    cases.append(read_case("valid/large-value", "A 200,000-byte value.", data, {"entries": entries(model)}))
    data, model, _ = build(BASE)
    cases.append(read_case("valid/zero-tail", "Zero bytes after the last record are an unwritten tail, not damage.",
                           data + bytes(100), {"entries": entries(model)}))
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
    for label, cut in [("inside-the-record-crc", last + 2), ("inside-the-header-crc", last + 6),
                       ("inside-the-header", last + 30), ("at-the-end-of-the-header", last + 48),
                       ("inside-the-key", key_start + 3), ("inside-the-value", value_start + 5),
                       ("one-byte-short", len(data) - 1)]:
        cases.append(read_case(f"torn/cut-{label}", "A crash left the last record incomplete: it is cut off, the rest is intact.",
                               data[:cut], {"entries": entries(survivors)}))
    cases.append(read_case("torn/cut-after-a-complete-record", "A cut exactly between records loses nothing.", before,
                           {"entries": entries(survivors)}))
    cases.append(read_case("torn/cut-inside-the-file-header", "A file shorter than its header but with the magic is corrupt.",
                           data[:20], {"error": "corruptFileHeader"}))
    cases.append(read_case("torn/cut-inside-the-magic", "A file that does not start with the whole magic is not a store.",
                           data[:5], {"error": "notAStore"}))
    # A torn remove: the key stays.
    data, _, offsets = build(BASE + [("remove", "alpha")])
    cases.append(read_case("torn/cut-inside-a-remove", "An incomplete remove record is cut off, so the key is still there.",
                           data[:offsets[-1] + 40], {"entries": entries(survivors)}))
    return cases


def flip(data, offset, mask=0x01):
    out = bytearray(data)
    out[offset] ^= mask
    return bytes(out)


def corrupt_cases():
    cases = []
    data, model, offsets = build(BASE + [("put", "tail", b"tail value")])
    cases.append(read_case("corrupt/wrong-magic", "Not a store: it is never overwritten.", b"PNG\x00" + data[4:], {"error": "notAStore"}))
    cases.append(read_case("corrupt/file-header-crc", "A damaged file header.", flip(data, 17), {"error": "corruptFileHeader"}))
    newer_major = s.file_header(major=2) + data[32:]
    cases.append(read_case("corrupt/newer-major-version", "A newer major version is refused.", newer_major,
                           {"error": "unsupportedVersion"}))
    newer_minor = s.file_header(minor=1) + data[32:]
    cases.append(read_case("corrupt/newer-minor-version-writable", "A newer minor version is refused for writing.", newer_minor,
                           {"error": "newerMinorVersion"}))
    cases.append(read_case("corrupt/newer-minor-version-read-only",
                           "A newer minor version opens read-only; records of unknown types are skipped.",
                           s.file_header(minor=1) + data[32:offsets[-1]] + s.record(9, "future", b"x") + data[offsets[-1]:],
                           {"entries": entries(model)}, readOnly=True))
    # Damage in the middle of the file: open refuses rather than return wrong bytes.
    second = offsets[1]
    for label, offset in [("header", second + 20), ("header-crc", second + 5), ("key", second + s.RECORD_HEADER_SIZE)]:
        cases.append(read_case(f"corrupt/middle-record-{label}", "An invalid record followed by more data is damage, not a torn tail.",
                               flip(data, offset), {"error": "corruptRecord"}))
    cases.append(read_case("corrupt/unknown-record-type", "A record type this version does not define is damage.",
                           data[:offsets[2]] + s.record(9, "odd", b"") + data[offsets[2]:], {"error": "corruptRecord"}))
    cases.append(read_case("corrupt/nonzero-flags", "Reserved fields must be zero.",
                           data[:offsets[2]] + s.put("odd", b"v", flags=1) + data[offsets[2]:], {"error": "corruptRecord"}))
    cases.append(read_case("corrupt/last-record-header-damaged", "A complete last record with a bad header CRC is damage too.",
                           flip(data, offsets[-1] + 30), {"error": "corruptRecord"}))
    # A damaged value: the header is fine, so open succeeds; reading that value fails and
    # every other value is intact.
    beta_value = offsets[1] + s.RECORD_HEADER_SIZE + len("beta") + 10
    cases.append(read_case("corrupt/value-bit-flip", "A value whose record CRC fails is never returned.",
                           flip(data, beta_value, 0x80), {"entries": entries(model, {"beta": "checksumMismatch"})}))
    tail_value = offsets[-1] + s.RECORD_HEADER_SIZE + len("tail") + 2
    cases.append(read_case("corrupt/last-value-bit-flip", "The same for the last record.",
                           flip(data, tail_value), {"entries": entries(model, {"tail": "checksumMismatch"})}))
    cases.append(read_case("corrupt/record-crc-field", "A wrong record CRC field fails the value read.",
                           flip(data, offsets[0]), {"entries": entries(model, {"alpha": "checksumMismatch"})}))
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
    cases.append(read_case("compact/before", "The store before compaction.", data, {"entries": entries(model)}))
    cases.append(read_case("compact/after", "Compaction at T keeps live records with expiresAt > T, their latest metadata, and never a removed key.",
                           data, {"entries": entries(model.compacted(T))}, compactAt=T))
    cases.append(read_case("compact/after-later", "Compaction at T + 100 also drops what expired by then.",
                           data, {"entries": entries(model.compacted(T + 100))}, compactAt=T + 100))
    # Spec/store.md §7.1: damage survives compaction, whether the record is copied or rewritten.
    damaged, model, offsets = build(BASE + [("touch", "beta", T, T + 10_000, 40)])
    beta_value = offsets[1] + s.RECORD_HEADER_SIZE + len("beta") + 3
    damaged = flip(damaged, beta_value, 0x10)
    cases.append(read_case("compact/damaged-rewritten-value-stays-detectable",
                           "A touched record is rewritten by compaction; a damaged value keeps failing its check.",
                           damaged, {"entries": entries(model, {"beta": "checksumMismatch"})}, compactAt=T))
    damaged, model, offsets = build(BASE)
    alpha_value = offsets[0] + s.RECORD_HEADER_SIZE + len("alpha") + 1
    cases.append(read_case("compact/damaged-copied-value-stays-detectable",
                           "An untouched record is copied byte for byte; a damaged value keeps failing its check.",
                           flip(damaged, alpha_value, 0x04), {"entries": entries(model, {"alpha": "checksumMismatch"})},
                           compactAt=T))
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
                  "steps": [{"request": {"op": "store.write", "operations": write_operations},
                             "expect": {"file": {"$bytes": b64(expected_file), "$ignore": s.GENERATION_RANGES},
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
    cases.append({"name": "write/removed-key-stays-removed-after-compaction",
                  "note": "A key removed before a compaction never comes back; the compacted file reads back the same.",
                  "steps": [{"request": {"op": "store.write", "operations": removed_then_compacted},
                             "expect": {"entries": expected_entries}}]})
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
    generation = 0x0123456789ABCDEF

    def case(name, note, hint):
        return read_case(name, note, data, {"entries": entries(model)}, hint=b64(hint))

    cases.append(case("snapshot/valid-then-scan-the-tail", "A valid snapshot of a prefix, then the records appended after it.",
                      s.snapshot(generation, prefix_length, good)))
    ghost = good + [("ghost", 1, offsets[0], len(BASE[0][2]), T, s.NEVER, 1)]
    for label, note, hint in [
            ("wrong-generation", "A snapshot of another log (another generation) is ignored.",
             s.snapshot(generation ^ 1, prefix_length, ghost)),
            ("damaged-header", "A snapshot whose header CRC fails is ignored.",
             s.snapshot(generation, prefix_length, ghost, header_crc=0)),
            ("damaged-entries", "A snapshot whose entries CRC fails is ignored.",
             s.snapshot(generation, prefix_length, ghost, entries_crc=0)),
            ("longer-than-the-log", "A snapshot describing more log than the file holds (the log was cut) is ignored.",
             s.snapshot(generation, len(data) + 100, ghost)),
            ("entry-outside-its-log-length", "A snapshot entry whose record lies beyond logLength is ignored.",
             s.snapshot(generation, offsets[1], ghost)),
    ]:
        cases.append(case(f"snapshot/{label}", note, hint))
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    for file_name, cases in [("valid.json", valid_cases()), ("torn.json", torn_cases()),
                             ("corrupt.json", corrupt_cases()), ("compaction.json", compaction_cases()),
                             ("snapshot.json", snapshot_cases())]:
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), names
        with open(os.path.join(OUT, file_name), "w") as f:
            json.dump({"area": "store", "description": "Store files (Spec/store.md).", "cases": cases},
                      f, indent=1, sort_keys=True, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
