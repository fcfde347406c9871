"""What every generator shares: the folders, base64 and the writers of case files
(Spec/conformance.md §3).

A case file is written deterministically (sorted keys, fixed indentation), so running a
generator again leaves `git status` clean (Spec/conformance.md §7).
"""
import base64
import json
import os

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.dirname(TOOLS)
ROOT = os.path.dirname(CONFORMANCE)


def b64(data):
    """Binary data as the protocol carries it: standard base64 with padding (Spec/conformance.md §2.4)."""
    return base64.b64encode(bytes(data)).decode("ascii")


def unb64(text):
    return base64.b64decode(text)


def _checked(cases):
    names = [c["name"] for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"case names must be unique within a file: {duplicates}"
    return cases


def write_case_file(path, area, description, cases, ascii_only=True):
    """One case file, every case indented on its own lines. `ascii_only` escapes non-ASCII
    characters (the png files); the store and cache files keep them as UTF-8."""
    document = {"area": area, "description": description, "cases": _checked(cases)}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1, sort_keys=True, ensure_ascii=ascii_only)
        f.write("\n")


def write_case_lines(path, area, description, cases):
    """A compact case file for many generated cases: one case per line, so a diff shows the
    cases that changed."""
    lines = (json.dumps(c, sort_keys=True, ensure_ascii=False, separators=(",", ":")) for c in _checked(cases))
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"area": ' + json.dumps(area) + ', "description": ' + json.dumps(description, ensure_ascii=False)
                + ', "cases": [\n')
        f.write(",\n".join(lines))
        f.write("\n]}\n")
