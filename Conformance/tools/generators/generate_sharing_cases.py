#!/usr/bin/env python3
"""Writes Conformance/cache/sharing.json: several processes on one cache folder (Spec/backends.md
§9, Spec/store.md §12), through the sessions of Spec/conformance.md §5.8. Session A is the
case's driver; B and C are partner drivers (other processes, possibly another implementation).
Also Conformance/store/shared.json: a store opened with a coordination file beside it
(Spec/conformance.md §5.4).

The expectations are written out by hand from the rules: a shared folder behaves as one cache
whose operations come from several processes, so each step's answer is what one cache would
give, except where §9.4 says otherwise (hits applied at their process's next section). Files
are rendered by writers/backendfiles.py from the puts, in the order the sections ran.

The coordination file is version 2 (Spec/store.md §12.2): a header of 4,096 bytes of
little-endian words, then the staging area, two areas of 512 KiB that hold the log's newest
records (§12.7). Cases carry its header and the few records they stage, never the whole file: a
store case asks the driver to extend it with zeros (`sharedLength`) and to write the second
area's records at its place (`sharedArea1`), and a pattern checks the length and the header only
(`$length`, Spec/conformance.md §4).
Run: python3 Conformance/tools/generators/generate_sharing_cases.py
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from shared.casefiles import CONFORMANCE, b64, write_case_file  # noqa: E402
from writers import storewriter as sw  # noqa: E402
from writers.backendfiles import LOG_NAMES, BackendFiles, LogImage, hybrid_value  # noqa: E402

OUT = os.path.join(CONFORMANCE, "cache", "sharing.json")
STORE_OUT = os.path.join(CONFORMANCE, "store", "shared.json")
T0 = 1_700_000_000_000
NEVER = 2 ** 63 - 1
SHARED = {"sharedAcrossProcesses": True}
SHARING = ["log", "hybrid"]
MAGIC = bytes.fromhex("894943534852440A")

# The coordination file (Spec/store.md §12.2): the header, the staging area (§12.7), and the
# offsets of the header's words.
COORDINATION_HEADER = 4_096
AREA = 1 << 19  # 524,288: each of the two areas (§12.7)
COORDINATION_SIZE = COORDINATION_HEADER + 2 * AREA  # 1,052,672
LARGEST_STAGED_RECORD = AREA // 2  # 262,144: longer records go to the log file (§12.7 rule 5)
GENERATION_WORD, LENGTH_WORD, COUNTER_WORD, WRITING_WORD = [16, 24], [24, 32], [32, 40], [40, 48]
BASE_WORD, EPOCH_WORD, TOKEN_WORD, BOOT_WORD = [48, 56], [56, 64], [64, 72], [72, 80]
AREAS_WORD, INCARNATION_WORD = [80, 88], [88, 96]
LOCK_OFFSET, SECTIONS_WORD = 256, [264, 272]
FLUSH_LOCK_OFFSET, FLUSHES_WORD = 384, [392, 400]
CURRENT_AREA_BIT = 1 << 63
# A boot identity of another boot (the chance that it is the current boot's is 2^-64).
OTHER_BOOT = 0x5EED_5EED_0BAD_B007


def pattern(label, size):
    data = label.encode()
    return (data * (size // len(data) + 1))[:size]


def coordination_header(generation, length, base=None, split=None, current=0, counter=0, writing=0, epoch=1,
                        incarnation=1, next_token=1, boot=0, lock=0, sections=0, flush_lock=0, flushes=0,
                        magic=MAGIC, version=2, reserved=None):
    """The 4,096-byte header of a coordination file (Spec/store.md §12.2): magic, version,
    generation, length, counter, writing, base (the length unless given: nothing staged),
    epoch, next token, boot, areas (the current area, 0 or 1, and `split`, base unless given:
    every staged record in the current area), incarnation, the reserved words (0, or
    `reserved`: offset -> value), the lock of changes and its sections count, the flush lock
    and its count."""
    header = bytearray(COORDINATION_HEADER)
    header[0:8] = magic
    base = length if base is None else base
    areas = (base if split is None else split) | (CURRENT_AREA_BIT if current else 0)
    struct.pack_into("<QQQQQQQQQQQ", header, 8, version, generation, length, counter, writing,
                     base, epoch, next_token, boot, areas, incarnation)
    struct.pack_into("<QQ", header, LOCK_OFFSET, lock, sections)
    struct.pack_into("<QQ", header, FLUSH_LOCK_OFFSET, flush_lock, flushes)
    for offset, value in (reserved or {}).items():
        struct.pack_into("<Q", header, offset, value)
    return bytes(header)


def coordination_pattern(magic=MAGIC):
    """`<log>.shared` after every process closed (Spec/store.md §12.2): 1,052,672 bytes, of
    which the header is checked: the magic and version 2 exact, writing 0, both locks 0 and the
    reserved words 0; the generation, the length, the counter, base, epoch, next token, boot,
    areas, incarnation and both counts are the writers'. The staging area's bytes are not
    checked: what is left there after it was written out is no one's. (`magic` 0: made not
    valid, §12.9.)"""
    header = coordination_header(0, 0, magic=magic)
    return {"$bytes": b64(header), "$length": COORDINATION_SIZE,
            "$ignore": [GENERATION_WORD, LENGTH_WORD, COUNTER_WORD, [BASE_WORD[0], INCARNATION_WORD[1]],
                        SECTIONS_WORD, FLUSHES_WORD]}


def log_path():
    return {"$backend": dict(LOG_NAMES)}


def coordination_path(suffix=""):
    return {"$backend": {b: LOG_NAMES[b] + ".shared" + suffix for b in SHARING}}


class Case:
    def __init__(self, name, note, covers, backends=SHARING, **configuration):
        self.name, self.note, self.covers, self.backends = name, note, list(covers), backends
        self.configuration = dict(SHARED, **configuration)
        self.steps = []
        self.clocks = {"A": T0}

    def step(self, session, request, expect):
        if session != "A":
            request = dict(request, session=session)
        self.steps.append({"request": request, "expect": expect})
        return self

    def open(self, expect=None, configuration=None):
        return self.step("A", {"op": "cache.open", "now": T0,
                               "configuration": self.configuration if configuration is None else configuration},
                         {} if expect is None else expect)

    def join(self, session, expect=None, configuration=None):
        self.clocks[session] = self.clocks["A"]
        request = {"op": "cache.join", "now": self.clocks["A"],
                   "configuration": self.configuration if configuration is None else configuration}
        return self.step(session, request, {} if expect is None else expect)

    def advance(self, milliseconds):
        """Every session's clock together (Spec/conformance.md §5.8)."""
        for session in self.clocks:
            self.clocks[session] += milliseconds
            self.step(session, {"op": "cache.advance", "milliseconds": milliseconds}, {"now": self.clocks[session]})
        return self

    def store(self, session, key, data, expect=None):
        return self.step(session, {"op": "cache.store", "key": key, "data": b64(data)}, expect or {})

    def read(self, session, key, data=None):
        expect = {"hit": False} if data is None else {"hit": True, "data": b64(data)}
        return self.step(session, {"op": "cache.read", "key": key}, expect)

    def remove(self, session, key, removed=True):
        return self.step(session, {"op": "cache.remove", "key": key}, {"removed": removed})

    def count(self, session, count, total=None):
        expect = {"count": count}
        if total is not None:
            expect["totalByteCount"] = total
        return self.step(session, {"op": "cache.count"}, expect)

    def keys(self, session, keys):
        return self.step(session, {"op": "cache.keys"}, {"keys": keys})

    def op(self, session, op, expect=None, **fields):
        return self.step(session, dict({"op": op}, **fields), {} if expect is None else expect)

    def damage(self, path, **action):
        """runner.damage (Spec/conformance.md §5.6): plays a dead process, or the disk."""
        return self.step("A", dict({"op": "runner.damage", "path": path}, **action), {})

    def metadata(self, session, key, sequence, created=T0, expires=NEVER):
        return self.step(session, {"op": "cache.metadata", "key": key},
                         {"metadata": {"createdAt": created, "expiresAt": expires, "accessSequence": sequence}})

    def case(self):
        case = {"name": "sharing/" + self.name, "note": self.note, "covers": self.covers,
                "requires": ["sharing"], "steps": self.steps}
        if self.backends:
            case["backends"] = self.backends
        return case


def files_after(puts, backends=SHARING, coordination=None, liveness=()):
    """runner.files after every session closed: the puts (key, value, sequence), in the order
    their sections ran, rendered for log and hybrid, with the coordination file (a valid one
    unless `coordination` gives its pattern). `liveness`: tokens whose liveness files a dead
    process left and no first process deleted since, which may still be there (Spec/store.md
    §12.8 names no one to delete them)."""
    expected = {}
    for backend in backends:
        files = BackendFiles(backend)
        for key, value, sequence in puts:
            files.put(key, value, (T0, NEVER, sequence))
        files.synchronize()
        held = {key: (value, (T0, NEVER, sequence), (T0, NEVER, sequence)) for key, value, sequence in puts}
        rendered = files.files(held)
        log = LOG_NAMES[backend]
        rendered["files"][log + ".shared"] = coordination or coordination_pattern()
        names = sorted(rendered["names"] + [log + ".shared"], key=lambda n: n.encode())
        rendered["names"] = names
        if liveness:
            left = sorted(names + [f"{log}.shared.{token}" for token in liveness], key=lambda n: n.encode())
            rendered["names"] = {"$oneOf": [names, left]}
        expected[backend] = rendered
    return {"op": "runner.files"}, {"$backend": expected}


def files_while_open(logged, tokens, backends=SHARING, log_length=None, log_prefix=None):
    """runner.files while sessions are open (Spec/store.md §12.7, §12.8): the log file holds
    the puts `logged` (key, value, sequence) written out of the staging area so far, the sync
    mark the length the last synchronize made durable (the log's, or 32 before any), and each
    open writer keeps its liveness file `<log>.shared.<token>`, empty. No snapshot yet: it is
    written at close. With `log_length` only the log's first bytes (its header, or
    `log_prefix`) and its length are checked."""
    expected = {}
    for backend in backends:
        image = LogImage()
        for key, value, sequence in logged:
            image.put(key, hybrid_value(key, value, sequence) if backend == "hybrid" else value, (T0, NEVER, sequence))
        log = LOG_NAMES[backend]
        names = ["lock", log, log + ".shared", log + ".sync"] + [f"{log}.shared.{token}" for token in tokens]
        if backend == "hybrid":
            names.append("external/")
        files = {log + ".shared": {"$bytes": b64(coordination_header(0, 0)[:16]), "$length": COORDINATION_SIZE,
                                   "$ignore": []}}
        for token in tokens:
            files[f"{log}.shared.{token}"] = b64(b"")
        if log_length is None:
            files[log] = {"$bytes": b64(image.data), "$ignore": sw.GENERATION_RANGES}
            files[log + ".sync"] = image.sync_mark_pattern()
        else:
            prefix = image.data[:32] if log_prefix is None else log_prefix
            files[log] = {"$bytes": b64(prefix), "$length": log_length, "$ignore": sw.GENERATION_RANGES}
        expected[backend] = {"names": sorted(names, key=lambda n: n.encode()), "files": files}
    return {"op": "runner.files"}, {"$backend": expected}


def solid(width, height, rgb):
    return bytes(rgb) * (width * height)


def bitmap_request(key, width, height, rgb):
    return {"op": "cache.storeBitmap", "key": key, "width": width, "height": height, "format": "rgb8",
            "pixels": b64(solid(width, height, rgb))}


def bitmap_hit(width, height, rgb):
    return {"hit": True, "width": width, "height": height, "format": "rgb8", "pixels": b64(solid(width, height, rgb))}


def cases():
    out = []

    c = Case("refused-on-dictionary-and-directory",
             "sharedAcrossProcesses is refused on dictionary and directory before anything is opened "
             "(sharingUnsupported); log and hybrid open.", ["backends §9.1"], backends=None)
    refused = {"dictionary": {"error": "sharingUnsupported"}, "directory": {"error": "sharingUnsupported"},
               "$other": {}}
    c.open(expect={"$backend": refused})
    out.append(c)

    c = Case("join-refused-on-dictionary-and-directory",
             "A second process asking to share a folder a lone writer holds: sharingUnsupported on "
             "dictionary and directory (checked before the folder), locked on log and hybrid.",
             ["backends §9.1", "backends §9.2"], backends=None)
    c.open(configuration={})
    c.join("B", expect={"$backend": {"dictionary": {"error": "sharingUnsupported"},
                                     "directory": {"error": "sharingUnsupported"}, "$other": {"error": "locked"}}})
    out.append(c)

    c = Case("lone-writer-and-sharers-exclude-each-other",
             "The folder lock (Spec/backends.md §9.2): sharers hold it shared, a writer that does not "
             "share exclusively; each fails with locked beside the other, read-only opens take part, "
             "and once every sharer closed a lone writer opens.", ["backends §9.2", "backends §1.5"])
    c.open().join("B").join("C", expect={"error": "locked"}, configuration={})
    c.store("B", "k", b"v").join("C", configuration={"readOnly": True}).read("C", "k", b"v")
    c.op("A", "cache.close").op("B", "cache.close").join("C", configuration={}).read("C", "k", b"v")
    c.join("B", expect={"error": "locked"})
    out.append(c)

    c = Case("store-read-remove-across",
             "A store, replacement and removal in one process is seen by the other at its next "
             "operation, without reopening (Spec/backends.md §9.3, Spec/store.md §12.4).",
             ["backends §9.3", "store §12.1", "store §12.4", "store §12.3.1", "store §12.3.2", "store §12.3.5",
              "store §12.3.6", "store §12.3.7"])
    c.open().join("B")
    c.store("A", "k", b"one").read("B", "k", b"one").store("B", "k", b"two").read("A", "k", b"two")
    c.store("A", "k", b"three").read("B", "k", b"three").remove("B", "k").read("A", "k")
    c.remove("A", "k", removed=False).count("A", 0, 0).count("B", 0, 0)
    out.append(c)

    c = Case("count-keys-contains-across",
             "The inspections of each process see the entries of all of them (Spec/backends.md §9.3, §9.4: "
             "totals derived from the changes caught up).", ["backends §9.3", "backends §9.4"])
    c.open().join("B").join("C")
    c.store("A", "a", b"12345").store("B", "b", b"123").store("C", "c", b"1")
    c.count("A", 3, 9).count("B", 3, 9).count("C", 3, 9).keys("B", ["a", "b", "c"])
    c.step("C", {"op": "cache.contains", "key": "a"}, {"contains": True})
    c.store("C", "a", b"1").count("A", 3, 5).remove("A", "b").count("B", 2, 2).keys("C", ["a", "c"])
    out.append(c)

    c = Case("clear-across",
             "removeAll in one process empties the cache for every process (a clear record, `cleared`, "
             "everything derived again), and stores after it are seen.",
             ["backends §9.3", "backends §9.4", "store §12.4"])
    c.open().join("B")
    c.store("A", "a", b"aa").store("A", "b", b"bb").read("B", "a", b"aa").op("B", "cache.clear")
    c.count("A", 0, 0).read("A", "a").store("A", "c", b"cc").keys("B", ["c"]).count("B", 1, 2)
    out.append(c)

    c = Case("compaction-elsewhere",
             "A compaction in one process replaces the log; the other loads the new generation at its next "
             "operation and goes on reading and writing (Spec/store.md §12.3, §12.4).",
             ["store §12.3", "store §12.4", "backends §9.3"])
    c.open().join("B")
    c.store("A", "a", b"aa").store("B", "b", b"bb").remove("A", "a").op("B", "cache.synchronize")
    c.op("A", "cache.compact").read("B", "b", b"bb").read("B", "a").store("B", "c", b"cc")
    c.read("A", "c", b"cc").count("B", 2, 4).op("B", "cache.compact").store("A", "d", b"dd")
    c.keys("B", ["b", "c", "d"]).count("A", 3, 6)
    out.append(c)

    c = Case("entry-count-limit-across",
             "maximumEntryCount holds for the entries of all processes together: a store in one "
             "evicts the least recently used entry another stored (Spec/backends.md §9.3).",
             ["backends §9.3", "cache §6.1"], maximumEntryCount=2)
    c.open().join("B").store("A", "a", b"a").store("B", "b", b"b").store("A", "c", b"c")
    c.read("B", "a").count("B", 2, 2).keys("A", ["b", "c"])
    out.append(c)

    c = Case("byte-limit-across",
             "maximumBytes holds for the bytes of all processes together (Spec/backends.md §9.3).",
             ["backends §9.3"], maximumBytes=10)
    c.open().join("B").store("A", "a", b"123456").store("B", "b", b"abcdef").count("A", 1, 6)
    c.read("A", "a").read("A", "b", b"abcdef")
    out.append(c)

    c = Case("lru-order-across",
             "A hit in one process counts for the LRU order of the others once that process's next section "
             "applied it (here a synchronize): the entry least recently used across both is evicted "
             "(Spec/backends.md §9.4).", ["backends §9.4", "cache §6.1"], maximumEntryCount=2)
    c.open().join("B").store("A", "a", b"a").store("B", "b", b"b").read("A", "a", b"a")
    c.op("A", "cache.synchronize").store("B", "c", b"c").read("A", "b").read("B", "a", b"a").keys("A", ["a", "c"])
    out.append(c)

    c = Case("hits-applied-at-next-section",
             "Hits are recorded per process and applied in its next section: until then another "
             "process's eviction does not see them, and a hit on an entry evicted meanwhile is dropped "
             "(Spec/backends.md §9.4).", ["backends §9.4"], maximumEntryCount=2)
    c.open().join("B").store("A", "a", b"a").store("B", "b", b"b").read("A", "a", b"a")
    c.store("B", "c", b"c").read("B", "a").op("A", "cache.synchronize").keys("A", ["b", "c"]).read("A", "a")
    out.append(c)

    c = Case("sequence-through-the-counter",
             "The next access sequence is shared through the coordination file's counter: a process that "
             "joins after an entry was removed numbers past it, though no held entry says so "
             "(Spec/backends.md §9.4).", ["backends §9.4", "store §12.2"])
    c.open().store("A", "x", b"x").store("A", "y", b"y").remove("A", "y").join("B")
    c.store("B", "z", b"z").metadata("B", "z", 3).metadata("A", "z", 3).store("A", "w", b"w")
    c.metadata("B", "w", 4).store("B", "v", b"v").metadata("A", "v", 5)
    out.append(c)

    c = Case("expiry-across",
             "Sliding expiry and purge apply to the shared content: a hit in B extends an entry A "
             "stored once B's next section applied it; a purge in one removes what expired in all.",
             ["backends §9.4", "backends §9.3"], timeToLive=1000)
    c.open().join("B").store("A", "a", b"a").store("A", "b", b"b").advance(999)
    c.read("B", "a", b"a").op("B", "cache.synchronize").advance(500).read("A", "a", b"a")
    c.count("B", 1, 1).store("B", "c", b"c").advance(1000).op("A", "cache.purge", {"removed": 3}).count("B", 0, 0)
    out.append(c)

    c = Case("read-only-follows-sharers",
             "A read-only open follows the sharing writers through the coordination file: it sees new "
             "stores, replacements as the new value (never corruptEntry) and removals as misses "
             "(Spec/store.md §12.5, Spec/backends.md §9.1).", ["store §12.5", "backends §9.1"])
    c.open().join("B", configuration={"readOnly": True})
    c.store("A", "k", b"one").read("B", "k", b"one").store("A", "k", b"two").read("B", "k", b"two")
    c.store("A", "big", pattern("big", 140_000)).read("B", "big", pattern("big", 140_000))
    c.store("A", "big", pattern("other", 140_000)).read("B", "big", pattern("other", 140_000))
    c.remove("A", "k").read("B", "k").count("B", 1, 140_000).store("B", "x", b"x", expect={"error": "readOnly"})
    out.append(c)

    c = Case("large-values-replaced-elsewhere",
             "Hybrid's external files between processes: a large value stored in one is read in the "
             "other; replaced or removed in one, the other reads the new value or a miss, never "
             "corruptEntry (Spec/backends.md §9.5).", ["backends §9.5", "backends §9.3"])
    c.open().join("B")
    c.store("B", "big", pattern("first", 140_000)).read("A", "big", pattern("first", 140_000))
    c.store("A", "big", pattern("second", 140_000)).read("B", "big", pattern("second", 140_000))
    c.op("B", "cache.synchronize").remove("B", "big").read("A", "big").op("A", "cache.synchronize")
    c.count("A", 0, 0)
    out.append(c)

    c = Case("variants-across",
             "A variant made in one process is held for all (counted by verify, not by count); removing "
             "the original in another removes its variants for everyone (Spec/backends.md §9.4).",
             ["backends §9.4", "thumbnail §5.1"])
    c.open().join("B")
    c.step("A", bitmap_request("img", 4, 4, (10, 20, 30)), {})
    c.step("A", {"op": "cache.variant", "key": "img", "maximumPixelSize": 2}, bitmap_hit(2, 2, (10, 20, 30)))
    c.step("B", {"op": "cache.verify"}, {"checked": 2, "damaged": []}).count("B", 1)
    c.step("B", {"op": "cache.variant", "key": "img", "maximumPixelSize": 2}, bitmap_hit(2, 2, (10, 20, 30)))
    c.remove("B", "img").step("A", {"op": "cache.verify"}, {"checked": 0, "damaged": []}).count("A", 0, 0)
    c.step("A", {"op": "cache.variant", "key": "img", "maximumPixelSize": 2}, {"hit": False})
    out.append(c)

    c = Case("memory-tier-not-stale",
             "Each process's memory tier drops a key another process replaced or removed: a bitmap of a "
             "replaced value is never served (Spec/backends.md §9.6).", ["backends §9.6"],
             memoryCostLimit=1_000_000)
    c.open().join("B")
    c.step("A", bitmap_request("img", 3, 2, (200, 0, 0)), {})
    c.step("A", {"op": "cache.readBitmap", "key": "img"}, bitmap_hit(3, 2, (200, 0, 0)))
    c.step("B", bitmap_request("img", 3, 2, (0, 0, 200)), {})
    c.step("A", {"op": "cache.readBitmap", "key": "img"}, bitmap_hit(3, 2, (0, 0, 200)))
    c.step("B", {"op": "cache.readBitmap", "key": "img"}, bitmap_hit(3, 2, (0, 0, 200)))
    c.remove("A", "img").step("B", {"op": "cache.readBitmap", "key": "img"}, {"hit": False})
    out.append(c)

    c = Case("reopen-beside-a-sharer",
             "A process that closes and opens again beside a sharer joins at the published length, and "
             "the last one to open after all closed recovers alone (Spec/store.md §12.2).",
             ["store §12.2", "store §12.2.2", "backends §9.2"])
    c.open().join("B").store("A", "a", b"a").op("A", "cache.reopen", {}).read("A", "a", b"a")
    c.store("B", "b", b"b").read("A", "b", b"b").op("B", "cache.reopen", {}).store("A", "c", b"c")
    c.keys("B", ["a", "b", "c"]).op("A", "cache.close").op("B", "cache.close").op("A", "cache.reopen", {})
    c.count("A", 3, 3).join("B").read("B", "c", b"c")
    out.append(c)

    c = Case("torn-bytes-past-the-published-length",
             "A process that died inside a section leaves writing = 1 and bytes past the published length; "
             "the next section (here B's store) cuts them before appending, so the log holds only whole "
             "records (Spec/store.md §12.3 step 3, §12.6).",
             ["store §12.3.3", "store §12.3.4", "store §12.6", "store §12.2"])
    c.open().join("B").store("A", "a", b"aa")
    c.step("A", {"op": "runner.damage", "path": {"$backend": {"log": "cache.log.shared", "hybrid": "hybrid.log.shared"}},
                 "flip": [40, 1]}, {})
    c.step("A", {"op": "runner.damage", "path": {"$backend": {"log": "cache.log", "hybrid": "hybrid.log"}},
                 "append": b64(pattern("torn", 300))}, {})
    c.store("B", "b", b"bb").keys("A", ["a", "b"]).count("B", 2, 4).op("A", "cache.close").op("B", "cache.close")
    c.step("A", *files_after([("a", b"aa", 1), ("b", b"bb", 2)]))
    c.op("A", "cache.reopen", {}).read("A", "a", b"aa").read("A", "b", b"bb")
    out.append(c)

    c = Case("damaged-published-record-skipped",
             "A record published in the log file that later fails its checks (a bit of its header flipped, "
             "as a stray write would) is damage, which a cache skips (Spec/store.md §12.4, §5.4): B, which "
             "had not read it yet, catches up past it, reads what A stored after it and goes on writing, and "
             "the damaged key reads as missing. A, whose index names the damaged record, finds the damage when it reads it "
             "(corruptEntry) and removes the entry. A process that stopped its catch-up there would miss "
             "'after' and could not write. 'big' is longer than half an area, so it goes to the log file "
             "directly, at offset 32 (§12.7 rule 5).",
             ["store §12.4", "store §12.3.2", "store §5.4.1", "backends §9.3"], backends=["log"])
    c.open().join("B").store("A", "big", pattern("big", 300_000))
    c.damage({"$backend": {"log": "cache.log"}}, flip=[32 + 40, 0x10])
    c.store("A", "after", b"after").read("B", "after", b"after").read("B", "big")
    c.store("B", "b", b"bb").read("A", "b", b"bb").count("B", 2)
    c.step("A", {"op": "cache.read", "key": "big"}, {"error": "corruptEntry"}).read("A", "big").count("A", 2)
    c.keys("B", ["after", "b"])
    out.append(c)

    # A lone writer's log: the offset of the second put of 'b', in each backend's log.
    newer_b_at = {}
    for backend in SHARING:
        image = LogImage()
        for key, data, sequence in [("a", b"aa", 1), ("b", b"b-older", 2)]:
            image.put(key, hybrid_value(key, data, sequence) if backend == "hybrid" else data, (T0, NEVER, sequence))
        newer_b_at[backend] = len(image.data)
    c = Case("read-only-beside-a-lone-writer-skips-damage-below-its-sync-mark",
             "A read-only process beside a writer that does not share follows the log file (Spec/store.md "
             "§12.5). Below the writer's sync mark the records are durable: the newer 'b', whose header a "
             "stray write changed after the synchronize, is damage, which the reader skips (§5.4, its key "
             "removed: 'b' reads as missing, never as the older 'b') before it reads 'c'. A reader that "
             "waited there for the writer, as it must past the mark, would never see 'c'.",
             ["store §12.5", "store §5.4.1", "backends §9.3"])
    c.open(configuration={}).store("A", "a", b"aa").store("A", "b", b"b-older").op("A", "cache.synchronize")
    c.join("B", configuration={"readOnly": True}).read("B", "b", b"b-older")
    c.store("A", "b", b"b-newer").store("A", "c", b"cc").op("A", "cache.synchronize")
    c.damage({"$backend": LOG_NAMES}, flip={"$backend": {b: [newer_b_at[b] + 40, 0x10] for b in SHARING}})
    # The reader looks at the file at most once a millisecond (§12.5).
    c.step("A", {"op": "runner.wait", "milliseconds": 2}, {})
    c.read("B", "c", b"cc").read("B", "b").read("B", "a", b"aa").count("B", 2)
    out.append(c)

    c = Case("files-after-sharing",
             "The files two sharing processes leave are the backend's own (Spec/backends.md §4, §5), "
             "records in the order their sections ran, with the coordination file of Spec/store.md §12.2.",
             ["store §12.2", "backends §9.3"])
    c.open().join("B").store("A", "a", b"first").store("B", "b", b"second").store("A", "c", b"third")
    c.op("B", "cache.close").op("A", "cache.close")
    c.step("A", *files_after([("a", b"first", 1), ("b", b"second", 2), ("c", b"third", 3)]))
    out.append(c)

    for label, damage in [("garbage", {"write": b64(b"\xff" * 64)}), ("short", {"truncate": 20}),
                          ("stale-writing-flag", {"flip": [40, 1]})]:
        c = Case(f"coordination-file-{label}-started-afresh",
                 "The first process to open a shared folder recovers the log alone and starts the "
                 "coordination file afresh, whatever it holds (invalid, cut short, or left by processes "
                 "that are gone with the writing flag set): nothing is cut, and later processes join it "
                 "(Spec/store.md §12.2 rules 1 and 3, §12.6).", ["store §12.2.1", "store §12.2.3", "store §12.6"])
        c.open().store("A", "a", b"aa").op("A", "cache.close")
        c.step("A", dict({"op": "runner.damage",
                          "path": {"$backend": {"log": "cache.log.shared", "hybrid": "hybrid.log.shared"}}}, **damage),
               {})
        c.op("A", "cache.reopen", {}).keys("A", ["a"]).join("B").keys("B", ["a"]).store("B", "b", b"bb")
        c.keys("A", ["a", "b"]).op("B", "cache.close").op("A", "cache.close")
        c.step("A", *files_after([("a", b"aa", 1), ("b", b"bb", 2)]))
        c.op("A", "cache.reopen", {}).read("A", "a", b"aa").read("A", "b", b"bb")
        out.append(c)

    # The log a second compaction named and never published (its holder died in its section):
    # one put of "k" at a generation the drivers never choose (storewriter's fixed one).
    unpublished = {}
    for backend in SHARING:
        image = LogImage()
        value = hybrid_value("k", b"three", 5) if backend == "hybrid" else b"three"
        image.put("k", value, (T0, NEVER, 5))
        unpublished[backend] = b64(bytes(image.data))
    c = Case("read-two-compactions-behind",
             "A process two compactions behind: the first compaction is published, a second named its log "
             "and its holder died before publishing it (writing flag set). A read must answer from that "
             "newer log, which holds everything published, never from the process's old log (here 'one', "
             "replaced before the read began); the next section takes the log up and publishes it "
             "(Spec/store.md §12.4, §12.3 step 3).", ["store §12.4", "store §12.3.3"])
    c.open().join("B").store("A", "k", b"one").read("B", "k", b"one").store("A", "k", b"two")
    c.op("A", "cache.compact")
    c.step("A", {"op": "runner.damage", "path": {"$backend": LOG_NAMES}, "remove": True}, {})
    c.step("A", {"op": "runner.damage", "path": {"$backend": LOG_NAMES}, "write": {"$backend": unpublished}}, {})
    c.step("A", {"op": "runner.damage", "path": {"$backend": {b: LOG_NAMES[b] + ".shared" for b in SHARING}},
                 "flip": [40, 1]}, {})
    c.read("B", "k", b"three").store("B", "m", b"em").read("A", "k", b"three").read("A", "m", b"em")
    out.append(c)

    c = Case("join-after-a-crash",
             "A process killed (cache.abandon) leaves the folder usable at once: the survivor and a process "
             "that joins later see everything it published, and when every process is gone the first to "
             "open recovers it all (Spec/store.md §12.6, §12.2 rule 4).",
             ["store §12.6", "store §12.2.4", "backends §9.2"])
    c.open().join("B").store("A", "a", b"aa").store("B", "b", b"bb").op("A", "cache.abandon")
    c.join("C").read("C", "a", b"aa").store("C", "c", b"cc").read("B", "c", b"cc")
    c.op("B", "cache.abandon").op("C", "cache.abandon").op("A", "cache.reopen", {}).keys("A", ["a", "b", "c"])
    c.join("B").read("B", "b", b"bb")
    out.append(c)
    out += staging_cases()
    out += lock_cases()
    out += take_up_cases()
    return out


def staging_cases():
    """The staging area (Spec/store.md §12.7): records staged in one area, then the other when
    it is full, written out to the log file, at a synchronize and for a record too long for an
    area, while others read."""
    out = []
    size = 120_000  # under hybrid's threshold (Spec/backends.md §5.2), so staged by both backends
    values = {i: pattern(f"value {i}:", size) for i in range(1, 10)}
    c = Case("staging-area-written-out-while-others-read",
             "Nine values of 120,000 bytes, each record staged (Spec/store.md §12.7 rule 1): four fill "
             "area 0, so the fifth switches to area 1 (rule 2), and area 0 is written out to the log file "
             "(rule 3); four fill area 1, so the ninth switches back and stages itself at area 0's start, "
             "over the bytes of the first. A writer (B) and a read-only process (C) that read the first "
             "value from area 0 must read it again, from the log file, once the epoch changed "
             "(Spec/store.md §12.4, §12.5): a reader that still took it from the area at its old place "
             "would read the ninth value's bytes there (corruptEntry, or the wrong value). After every "
             "process closed, the log holds the nine in order (rule 4).",
             ["store §12.7.1", "store §12.7.2", "store §12.7.3", "store §12.7.4", "store §12.4", "store §12.5"])
    c.open().join("B").join("C", configuration={"readOnly": True})
    c.store("A", "v1", values[1]).read("B", "v1", values[1]).read("C", "v1", values[1])
    for i in range(2, 9):
        c.store("A", f"v{i}", values[i])
    c.read("B", "v8", values[8]).store("A", "v9", values[9])
    c.read("B", "v1", values[1]).read("C", "v1", values[1]).read("B", "v9", values[9]).read("C", "v9", values[9])
    c.count("B", 9, 9 * size).count("C", 9, 9 * size)
    c.op("A", "cache.close").op("B", "cache.close").op("C", "cache.close")
    c.op("A", "cache.reopen", {}).count("A", 9, 9 * size).read("A", "v5", values[5])
    out.append(c)

    # A record of exactly half an area is staged, one byte more goes to the log file (§12.7
    # rules 1 and 5). Only the log stores records that long: hybrid keeps such values in files.
    # The log file is checked by its length and its first record's header, which holds the
    # value's checksum (the values themselves would make the case several megabytes longer);
    # verify then reads every value back against its checksum.
    half = pattern("half", LARGEST_STAGED_RECORD - sw.RECORD_HEADER_SIZE - 4)
    over = pattern("over", LARGEST_STAGED_RECORD + 1 - sw.RECORD_HEADER_SIZE - 4)
    first = sw.file_header() + sw.put(b"half", half, T0, NEVER, 1)[:sw.RECORD_HEADER_SIZE + 4]
    both = 32 + 2 * LARGEST_STAGED_RECORD + 1
    c = Case("records-staged-up-to-half-the-area",
             "A record of 262,144 bytes, half an area, is staged: the log file still holds only its header "
             "(Spec/store.md §12.7 rule 1). A record one byte longer is written to the log file directly, "
             "after everything staged was written out, so the file holds both, the first one first (rules 4 "
             "and 5); a record stored next is staged again, at the new base, and every process sees all "
             "three. After every process closed the log holds the three records in that order, and every "
             "value reads back intact.",
             ["store §12.7.1", "store §12.7.5", "store §12.7.4", "store §12.4"], backends=["log"])
    c.open().join("B").store("A", "half", half).step("A", *files_while_open([], (1, 2), backends=["log"]))
    c.store("B", "over", over)
    c.step("A", *files_while_open([], (1, 2), backends=["log"], log_length=both, log_prefix=first))
    c.store("A", "c", b"cc").keys("B", ["c", "half", "over"]).count("A", 3, len(half) + len(over) + 2)
    c.op("B", "cache.close").op("A", "cache.close")
    request, expect = files_after([("half", half, 1), ("over", over, 2), ("c", b"cc", 3)], backends=["log"])
    expect["$backend"]["log"]["files"]["cache.log"] = {
        "$bytes": b64(first), "$length": both + len(sw.put(b"c", b"cc", T0, NEVER, 3)), "$ignore": sw.GENERATION_RANGES}
    c.step("A", request, expect).op("A", "cache.reopen", {})
    c.step("A", {"op": "cache.verify"}, {"checked": 3, "damaged": []}).read("A", "c", b"cc")
    out.append(c)

    c = Case("synchronize-writes-the-staging-area",
             "Stores from two processes are staged, not written to the log file, which holds only its "
             "header while both are open (Spec/store.md §12.7 rule 1); each writer keeps its liveness file "
             "`<log>.shared.<token>`, tokens 1 and 2 (the first process takes 1 from a file it started "
             "afresh, §12.2 rule 3, §12.8). A synchronize in one writes the area, the other's record "
             "included, to the log file and marks its length durable (rule 4, §12.3). At close each "
             "writer deletes its liveness file.",
             ["store §12.7.1", "store §12.7.4", "store §12.3", "store §12.8", "store §12.2.3"])
    c.open().join("B").store("A", "a", b"first").store("B", "b", b"second")
    c.step("A", *files_while_open([], (1, 2))).op("A", "cache.synchronize")
    c.step("A", *files_while_open([("a", b"first", 1), ("b", b"second", 2)], (1, 2)))
    c.keys("B", ["a", "b"]).store("B", "c", b"third").op("B", "cache.close").op("A", "cache.close")
    c.step("A", *files_after([("a", b"first", 1), ("b", b"second", 2), ("c", b"third", 3)]))
    out.append(c)
    return out


def lock_cases():
    """The lock word and the liveness files (Spec/store.md §12.8): a holder that died keeps the
    lock; the next section finds it gone and takes the lock over."""
    out = []
    c = Case("lock-of-a-dead-holder-taken-over",
             "The lock word holds token 9, which no liveness file names (`<log>.shared.9` is missing): "
             "its holder is gone. The next section (B's store) waits, finds that out after about a "
             "millisecond and takes the lock over, instead of waiting for ever or failing; later "
             "sections take it as usual (Spec/store.md §12.8 steps 1 to 3, §12.6).",
             ["store §12.8.1", "store §12.8.2", "store §12.8.3", "store §12.6"])
    c.open().join("B").store("A", "a", b"aa").damage(coordination_path(), flip=[LOCK_OFFSET, 9])
    c.store("B", "b", b"bb").keys("A", ["a", "b"]).store("A", "c", b"cc").count("B", 3, 6)
    c.op("A", "cache.close").op("B", "cache.close")
    c.step("A", *files_after([("a", b"aa", 1), ("b", b"bb", 2), ("c", b"cc", 3)]))
    out.append(c)

    c = Case("lock-of-a-holder-whose-liveness-file-is-unlocked",
             "A process killed inside its section: the lock word holds its token 9, its liveness file "
             "`<log>.shared.9` is still there but no one holds its flock, the writing flag is set and the "
             "log file has bytes past base. The next section (B's store) takes the lock over once it could "
             "lock that file (Spec/store.md §12.8 step 3), deletes the file, and cuts the dead holder's "
             "bytes (§12.3 step 3) before it stages its own record. A waiter that only looks whether the "
             "file exists would wait for ever; the files after close hold no liveness file and no torn "
             "bytes.", ["store §12.8.2", "store §12.8.3", "store §12.3.3", "store §12.6"])
    c.open().join("B").store("A", "a", b"aa")
    c.damage(coordination_path(".9"), write=b64(b"")).damage(coordination_path(), flip=[LOCK_OFFSET, 9])
    c.damage(coordination_path(), flip=[WRITING_WORD[0], 1]).damage(log_path(), append=b64(pattern("dead", 300)))
    c.store("B", "b", b"bb").keys("A", ["a", "b"]).count("B", 2, 4).op("A", "cache.close").op("B", "cache.close")
    c.step("A", *files_after([("a", b"aa", 1), ("b", b"bb", 2)]))
    out.append(c)
    return out


def take_up_cases():
    """Records staged by processes that are all gone (Spec/store.md §12.10), taken up by the
    next writer that has the store alone: a first sharer, or a writer that does not share
    (§12.9), which also makes the coordination file not valid."""
    out = []
    c = Case("staged-records-taken-up-after-every-process-died",
             "Two processes stage a record each and are killed (cache.abandon): the log file holds only its "
             "header, the records are in the staging area, and both liveness files are left (Spec/store.md "
             "§12.7, §12.6). The first process to open again, in the same boot of the system, takes the "
             "records up into the log file before it reads the log (§12.10), starts the coordination file "
             "afresh and deletes the liveness files no one holds (§12.2 rule 3).",
             ["store §12.10.1", "store §12.10.2", "store §12.10.3", "store §12.6", "store §12.2.3",
              "store §12.7.1"])
    c.open().join("B").store("A", "a", b"aa").store("B", "b", b"bb").op("A", "cache.abandon")
    c.op("B", "cache.abandon").step("A", *files_while_open([], (1, 2)))
    c.op("A", "cache.reopen", {}).keys("A", ["a", "b"]).join("B").keys("B", ["a", "b"]).op("B", "cache.close")
    c.op("A", "cache.close").step("A", *files_after([("a", b"aa", 1), ("b", b"bb", 2)]))
    out.append(c)

    c = Case("staged-records-of-another-boot-dropped",
             "As a power cut leaves it: the processes are gone, and the coordination file's boot word "
             "names another boot of the system (here one bit of it flipped). Its staged records may be "
             "missing pages or older than the log, so the first process does not take them up: it recovers "
             "the log file alone (only its header here) and starts the file afresh (Spec/store.md §12.10 "
             "rule 1, §12.6). The lost records were never synchronized, as a lone writer's buffer "
             "is not; a store after the open is numbered from the log alone (sequence 1).",
             ["store §12.10.1", "store §12.6", "store §12.2.3"])
    c.open().join("B").store("A", "a", b"aa").store("B", "b", b"bb").op("A", "cache.abandon")
    c.op("B", "cache.abandon").damage(coordination_path(), flip=[BOOT_WORD[0], 1])
    c.op("A", "cache.reopen", {}).keys("A", []).count("A", 0, 0).store("A", "c", b"cc").op("A", "cache.close")
    c.step("A", *files_after([("c", b"cc", 1)]))
    out.append(c)

    c = Case("lone-writer-takes-up-staged-records",
             "Two sharers stage a record each and are killed; a writer that does not share then opens the "
             "folder: it takes the staged records up (Spec/store.md §12.9, §12.10) and makes the "
             "coordination file not valid (magic 0, a new epoch). A read-only process that followed the "
             "sharers through that file finds it not valid before its next read and follows the log file "
             "instead (§12.5): it sees the lone writer's store once synchronized, where one still "
             "following the file would miss it. The next sharer to open starts the file afresh, takes up "
             "nothing (the file is not valid) and deletes the liveness files left (§12.2 rule 3).",
             ["store §12.9", "store §12.10.1", "store §12.10.2", "store §12.10.3", "store §12.5",
              "store §12.2.3"])
    c.open().join("B").join("C", configuration={"readOnly": True}).store("A", "a", b"aa").store("B", "b", b"bb")
    c.read("C", "a", b"aa").op("A", "cache.abandon").op("B", "cache.abandon").join("B", configuration={})
    c.keys("B", ["a", "b"]).metadata("B", "b", 2).store("B", "c", b"cc").op("B", "cache.synchronize")
    c.read("C", "c", b"cc").keys("C", ["a", "b", "c"]).op("B", "cache.close").op("C", "cache.close")
    puts = [("a", b"aa", 1), ("b", b"bb", 2), ("c", b"cc", 3)]
    c.step("A", *files_after(puts, coordination=coordination_pattern(magic=bytes(8)), liveness=(1, 2)))
    c.op("A", "cache.reopen", {}).keys("A", ["a", "b", "c"]).op("A", "cache.close").step("A", *files_after(puts))
    out.append(c)
    return out


def store_cases():
    """store.read with a coordination file beside the log (Spec/conformance.md §5.4): the open
    of the first process, which takes up what was staged in this boot (Spec/store.md §12.10),
    recovers the log alone and starts the file afresh; of a later one, which trusts what the
    others published (the log file up to `base`, the staging area up to the length); and of a
    reader. The coordination file is given as its header and the records it stages, extended
    with zeros to its full size (`sharedLength`); the close's header is checked word by word."""
    a = sw.put(b"a", b"alpha", 10, NEVER, 1)
    b = sw.put(b"b", b"bravo", 20, NEVER, 2)
    c = sw.put(b"c", b"charlie", 30, NEVER, 3)
    x = sw.put(b"x", b"xray!", 40, NEVER, 4)  # as long as b
    d = sw.put(b"d", b"delta", 50, NEVER, 5)
    header = sw.file_header()
    one, both = len(header) + len(a), len(header) + len(a) + len(b)
    log = header + a + b
    g = sw.GENERATION

    def entry(key, value, created, sequence):
        return {"key": key, "value": b64(value), "createdAt": created, "expiresAt": NEVER, "accessSequence": sequence}

    first_only = [entry("a", b"alpha", 10, 1)]
    everything = first_only + [entry("b", b"bravo", 20, 2)]
    three = both + len(c)
    all_three = everything + [entry("c", b"charlie", 30, 3)]

    def mark(length):
        return {"$bytes": b64(sw.sync_mark(length)), "$ignore": sw.SYNC_GENERATION_RANGES}

    def left(generation, length, counter=0, next_token=2, boot=None, current=0, incarnation=None,
             size=COORDINATION_SIZE):
        """The coordination file a close left: its header word by word (writing 0, both locks 0,
        the reserved words 0; base and `split` at the length, everything written out, §12.7 rule
        4, in the `current` area), but for the epoch (a value the implementation chooses, §12.2
        rule 3, §12.7), both counts (how many sections a close takes is the implementation's),
        the boot when the process stored the current boot's (`None`) and the incarnation when it
        started the file afresh (`None`: a value it chooses); and its size."""
        image = coordination_header(generation, length, current=current, counter=counter, next_token=next_token,
                                    boot=boot or 0, incarnation=incarnation or 0)
        ignored = [EPOCH_WORD, SECTIONS_WORD, FLUSHES_WORD] + ([BOOT_WORD] if boot is None else [])
        if incarnation is None:
            ignored.append(INCARNATION_WORD)
        return {"shared": {"$bytes": b64(image), "$ignore": sorted(ignored)}, "sharedLength": size}

    def case(name, note, covers, data, shared, expect, joins=False, size=COORDINATION_SIZE, current_boot=False,
             read_only=False, return_file=True, area1=None, skips=False):
        request = {"op": "store.read", "file": b64(data), "shared": b64(shared)}
        if size is not None:
            request["sharedLength"] = size
        if area1 is not None:
            request["sharedArea1"] = b64(area1)
        for field, given in [("joins", joins), ("currentBoot", current_boot), ("readOnly", read_only),
                             ("returnFile", return_file), ("skipsDamage", skips)]:
            if given:
                request[field] = True
        return {"name": "shared/" + name, "note": note, "covers": covers, "requires": ["sharing"],
                "steps": [{"request": request, "expect": expect}]}

    def published(length, base=None, staged=b"", **words):
        """A valid coordination file of the log's generation: the header, then area 0's first
        bytes."""
        return coordination_header(words.pop("generation", g), length, base, **words) + staged

    # A published log with damage in the file below base: an older 'b', then a newer 'b' whose
    # header fails its checksum (a bit of its expiry flipped), then 'c' (Spec/store.md §12.4).
    old_b = sw.put(b"b", b"bravo, older", 15, NEVER, 2)
    damaged_b = bytearray(b)
    damaged_b[40] ^= 0x10
    damaged_log = header + a + old_b + bytes(damaged_b) + c
    damaged_at = len(header) + len(a) + len(old_b)
    damaged_span = [{"offset": damaged_at, "length": len(b), "keyBytes": b64(b"b")}]
    a_and_c = [entry("a", b"alpha", 10, 1), entry("c", b"charlie", 30, 3)]

    # The words of a file other processes keep open (token 3 is the next), and what a process
    # that joins them leaves: it took token 3, and changed neither the counter nor the boot.
    kept = {"counter": 5, "next_token": 3, "sections": 4, "flushes": 2, "epoch": 7, "incarnation": 3,
            "boot": OTHER_BOOT}
    joined = {"counter": 5, "next_token": 4, "boot": OTHER_BOOT, "incarnation": 3}
    cases = [
        case("join-at-the-published-length",
             "A later process trusts what the others published: it scans the log file up to base (here the "
             "published length: nothing is staged) and cuts nothing past it, though a whole record lies "
             "there, writing no mark at its open. It takes token 3 (next token 4, Spec/store.md §12.8) and "
             "releases the lock of changes it took to join (the lock word 0); its close marks durable the "
             "length it knows. It leaves the counter and the boot as they were (§12.2 rule 4).",
             ["store §12.2.4", "store §12.4", "store §12.8", "store §12.8.1"],
             log, published(one, **kept), joins=True,
             expect=dict({"entries": first_only, "file": b64(log), "sync": mark(one)}, **left(g, one, **joined))),
        case("join-leaves-a-torn-record-past-the-published-length",
             "Bytes past base in the log file that are no whole record are not a torn tail to a later "
             "process: it cuts nothing there (Spec/store.md §12.2 rule 4).", ["store §12.2.4"],
             log[:-7], published(one, **kept), joins=True,
             expect=dict({"entries": first_only, "file": b64(log[:-7]), "sync": mark(one)},
                         **left(g, one, **joined))),
        case("join-scans-the-staging-area",
             "The log file holds the records below base, the staging area those from base to the published "
             "length (Spec/store.md §12.7): a later process takes 'b' from the area, where the log file "
             "does not have it. Its close writes the area out to the log file at base and marks it "
             "durable; base moves to the length (§12.7 rule 4, §12.3).",
             ["store §12.2.4", "store §12.7", "store §12.7.4", "store §12.4"],
             header + a, published(both, one, b, **kept), joins=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, **joined))),
        case("join-ignores-staged-bytes-past-the-published-length",
             "A whole record staged past the published length ('c') is not published: a later process "
             "takes the staged records up to the length only, and its close writes only those to the log "
             "file (Spec/store.md §12.7, §12.4).", ["store §12.2.4", "store §12.7", "store §12.7.4"],
             header + a, published(both, one, b + c, **kept), joins=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, **joined))),
        case("join-stops-at-a-staged-record-that-is-not-whole",
             "The published length ends inside the staged record 'c': the scan of the staging area ends at "
             "the last whole record, 'b', and never reads past the length (Spec/store.md §12.4, §12.7).",
             ["store §12.4", "store §12.7"],
             header + a, published(both + len(c) - 7, one, b + c, **kept), joins=True, return_file=False,
             expect={"entries": everything}),
        case("join-scans-both-areas",
             "Records staged in both areas: 'b' in the other area (area 0) from base to split, 'c' in the "
             "current one (area 1, named by bit 63 of the areas word) from split to the published length "
             "(Spec/store.md §12.7). A later process takes both, in the log's order; its close writes the "
             "other area out at base, then the current one at split, and leaves base and split at the length "
             "with area 1 still current (rules 3 and 4). A process that took area 0 for the current one "
             "would find 'b' where 'c' should be.",
             ["store §12.2.4", "store §12.7", "store §12.7.3", "store §12.7.4", "store §12.4"],
             header + a, published(three, one, b, split=both, current=1, **kept), area1=c, joins=True,
             expect=dict({"entries": all_three, "file": b64(log + c), "sync": mark(three)},
                         **left(g, three, current=1, **joined))),
        case("join-scans-both-areas-area-0-current",
             "As join-scans-both-areas, with area 0 current: 'b' is in area 1 (the other area) and 'c' in "
             "area 0. A process that always took area 0 for the other area, or area 1 for the current one, "
             "would miss one of them (Spec/store.md §12.7).",
             ["store §12.2.4", "store §12.7", "store §12.7.4", "store §12.4"],
             header + a, published(three, one, c, split=both, **kept), area1=b, joins=True,
             expect=dict({"entries": all_three, "file": b64(log + c), "sync": mark(three)},
                         **left(g, three, **joined))),
        case("join-refuses-a-split-below-base",
             "The areas word's split lies below base: the words disagree, so the file is not valid and a "
             "later process cannot join (ioError, Spec/store.md §12.2).", ["store §12.2", "store §12.2.4"],
             header + a, published(both, one, b, split=one - 1, **kept), joins=True, expect={"error": "ioError"}),
        case("join-finishes-an-emptying-a-dead-holder-left",
             "The last holder died while emptying the areas (Spec/store.md §12.7 rule 4): it had written "
             "'b' from the current area to the log file and stored base at the length, and not yet the new "
             "epoch and split. So split lies below base with the writing flag set, and its token 9 still "
             "holds the lock. A later process takes the lock over, finishes the emptying (split at base) and "
             "joins, where words that disagree with writing 0 refuse it: it must judge them only once it "
             "holds the lock (§12.2 rule 4, §12.3 step 3). Its close cuts nothing.",
             ["store §12.2", "store §12.2.4", "store §12.3.3"],
             log, published(both, both, b, split=one, writing=1, lock=9, **kept), joins=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, **joined))),
        case("join-finishes-a-move-past-a-longer-record",
             "The last holder died while moving the areas past a record it wrote to the log file itself "
             "(Spec/store.md §12.7 rule 5; 'b' stands for a record too long for an area): base and split lie "
             "past 'b', the length not yet, and the writing flag is set. A later process finishes the move, "
             "publishing 'b', which is whole in the file below base, and joins (§12.2 rule 4, §12.3 step 3); "
             "it neither refuses nor cuts 'b'.",
             ["store §12.2.4", "store §12.3.3", "store §12.7.5"],
             log, published(one, both, split=both, writing=1, lock=9, **kept), joins=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, **joined))),
        case("join-refuses-a-split-past-the-length",
             "The areas word's split lies past the published length: the words disagree, so the file is not "
             "valid (ioError, Spec/store.md §12.2).", ["store §12.2", "store §12.2.4"],
             header + a, published(both, one, b, split=both + 1, **kept), joins=True, expect={"error": "ioError"}),
        case("first-process-replaces-an-overfull-area",
             "A coordination file of the current boot whose current area would hold more than its 524,288 "
             "bytes (the length 524,289 past split) is not valid, whatever else it says: the first process "
             "takes nothing up and starts it afresh, its next token at 1 (not the 6 it held) "
             "(Spec/store.md §12.2, §12.10 rule 1).", ["store §12.2", "store §12.2.3", "store §12.10.1"],
             header + a, published(one + AREA + 1, one, b, next_token=6), current_boot=True,
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)}, **left(g, one))),
        case("first-process-replaces-an-overfull-other-area",
             "As first-process-replaces-an-overfull-area, but the other area would hold 524,289 bytes (split "
             "that far past base): not valid, nothing taken up (Spec/store.md §12.2).",
             ["store §12.2", "store §12.2.3", "store §12.10.1"],
             header + a, published(one + AREA + 1, one, b, split=one + AREA + 1, next_token=6), current_boot=True,
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)}, **left(g, one))),
        case("writing-flag-cut-at-the-next-section",
             "The writing flag set: the last holder of the lock of changes died after writing past base. "
             "The next section (here the close) cuts the log file to base and clears the flag "
             "(Spec/store.md §12.3 step 3, §12.6).", ["store §12.3.3", "store §12.6"],
             log, published(one, writing=1, **kept), joins=True,
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                         **left(g, one, **joined))),
        case("writing-flag-keeps-the-staged-records",
             "The writing flag set, with a record staged and published ('b') and bytes past base in the log "
             "file (a copy of the area the dead holder had begun to write out, and more). The next section "
             "(the close) cuts the file to base, which keeps every published record, then writes the area "
             "out there: the file ends with 'b', not with the dead holder's 'c' (Spec/store.md §12.3 step "
             "3, §12.7 rule 4).", ["store §12.3.3", "store §12.7.4", "store §12.6"],
             log + c, published(both, one, b, writing=1, **kept), joins=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, **joined))),
        case("join-takes-up-a-log-a-dead-compactor-named",
             "Another generation than the one published, with the writing flag set: the last holder died "
             "after its compaction renamed the new log into place and before it published it. The joining "
             "process takes that log up as a first process would (every whole record, the torn tail cut, "
             "its mark), publishes it with base at its end and clears the flag; the counter stays "
             "(Spec/store.md §12.2 rule 4).", ["store §12.2.4"],
             log[:-7], published(one + 40, generation=g + 1, writing=1, **kept), joins=True,
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                         **left(g, one, **joined))),
        case("join-refuses-another-generation",
             "A later process whose log carries another generation than the one published, with no "
             "holder marked writing, cannot join: ioError (Spec/store.md §12.2 rule 4).", ["store §12.2.4"],
             log, published(one, generation=g + 1, **kept), joins=True, expect={"error": "ioError"}),
        case("join-refuses-a-file-that-is-not-valid",
             "A later process finds a coordination file with another magic: the processes that have the "
             "store open keep no file it can trust, so it cannot join (ioError, Spec/store.md §12.2 rule 4).",
             ["store §12.2.4", "store §12.2"], log, b"\xff" * COORDINATION_HEADER, joins=True,
             expect={"error": "ioError"}),
        case("join-refuses-a-short-file",
             "A later process finds a coordination file of the right words but shorter than 1,052,672 bytes "
             "(no staging area): not valid, ioError; a later process never extends it (Spec/store.md §12.2).",
             ["store §12.2.4", "store §12.2"], log, published(one, **kept), joins=True, size=None,
             expect={"error": "ioError"}),
        case("first-process-recovers-alone",
             "The first process opens the log as a lone writer (every whole record), then starts the "
             "coordination file afresh: counter, writing and both locks 0 (a dead holder's token 7 and a "
             "stale writing flag cut nothing), the reserved words 0, base, split and the length at the "
             "recovered length in area 0, the next token kept from the valid file (6, then taken: 7) "
             "(Spec/store.md §12.2 rule 3, §12.6). Its boot word is 0, so nothing is taken up.",
             ["store §12.2.3", "store §12.6", "store §12.8"], log,
             published(one, counter=9, writing=1, next_token=6, epoch=3, lock=7, sections=11, flush_lock=7,
                       flushes=5, current=1, reserved={96: 0xDEAD, 272: 0xFEED, 400: 0xCAFE, 4_088: 0xBEEF}),
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, next_token=7))),
        case("first-process-replaces-garbage",
             "A coordination file with another magic is not valid: the first process starts it afresh, "
             "every word of it; its next token starts at 1, which the process takes (next token 2) "
             "(Spec/store.md §12.2 rule 3).", ["store §12.2", "store §12.2.3"], log, b"\xff" * COORDINATION_HEADER,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both))),
        case("first-process-replaces-a-short-file",
             "A coordination file shorter than 1,052,672 bytes is not valid, whatever its words say: the "
             "first process extends it to its full size and starts it afresh (next token 1, taken: 2) "
             "(Spec/store.md §12.2 rules 1 and 3).", ["store §12.2", "store §12.2.1", "store §12.2.3"],
             log, published(one, next_token=6), size=None,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both))),
        case("first-process-replaces-a-version-1-file",
             "A coordination file of version 1 (64 bytes, before the staging area existed) is not valid: "
             "the first process extends it and starts it afresh (Spec/store.md §12.2).",
             ["store §12.2", "store §12.2.1", "store §12.2.3"], log,
             MAGIC + struct.pack("<QQQQQQQ", 1, g, one, 5, 1, 0, 0), size=None,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both))),
        case("first-process-replaces-another-version",
             "A coordination file of another version (3) at the full size is not valid: the first process "
             "starts it afresh, its next token at 1 (not the 6 it held) (Spec/store.md §12.2).",
             ["store §12.2", "store §12.2.3"], log, published(one, next_token=6, version=3),
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both))),
        case("first-process-keeps-a-longer-file",
             "A coordination file longer than 1,052,672 bytes is valid (its next token, 6, is kept, then "
             "taken: 7) and is never shortened: other processes may have it mapped (Spec/store.md §12.2).",
             ["store §12.2", "store §12.2.3"], log, published(one, next_token=6), size=COORDINATION_SIZE + 4_096,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)},
                         **left(g, both, next_token=7, size=COORDINATION_SIZE + 4_096))),
        case("first-process-takes-up-staged-records",
             "A valid coordination file started afresh in the current boot of the system, of the log's "
             "generation, with 'b' staged and published, and a log file that reaches base: the processes "
             "are gone and the record is nowhere else. The first process writes it to the log file at base "
             "before it reads the log, so it is an entry, in the file and marked durable (Spec/store.md "
             "§12.10 rules 1 to 3).", ["store §12.10.1", "store §12.10.2", "store §12.10.3", "store §12.2.3"],
             header + a, published(both, one, b, next_token=6), current_boot=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, next_token=7))),
        case("first-process-takes-up-both-areas",
             "As first-process-takes-up-staged-records, with records in both areas: 'b' in the other area "
             "(area 0, from base to split) and 'c' in the current one (area 1, from split to the length). "
             "The first process writes the other area at base, then the current one at split, so both are "
             "entries in the log's order; it starts the file afresh with area 0 current (Spec/store.md "
             "§12.10, §12.2 rule 3).", ["store §12.10", "store §12.10.1", "store §12.2.3", "store §12.7"],
             header + a, published(three, one, b, split=both, current=1, next_token=6), area1=c, current_boot=True,
             expect=dict({"entries": all_three, "file": b64(log + c), "sync": mark(three)},
                         **left(g, three, next_token=7))),
        case("first-process-takes-up-nothing-of-an-unknown-boot",
             "As first-process-takes-up-staged-records, but the boot word is 0 (unknown): the file may have "
             "survived a restart of the system, so the staged 'b' is not taken up (Spec/store.md §12.10 "
             "rule 1, §12.6).", ["store §12.10.1", "store §12.6"],
             header + a, published(both, one, b, next_token=6),
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                         **left(g, one, next_token=7))),
        case("first-process-takes-up-nothing-of-another-boot",
             "As first-process-takes-up-staged-records, but the boot word names another boot of the system: "
             "the staged 'b' is not taken up (Spec/store.md §12.10 rule 1, §12.6).",
             ["store §12.10.1", "store §12.6"], header + a, published(both, one, b, next_token=6, boot=OTHER_BOOT),
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                         **left(g, one, next_token=7))),
        case("first-process-takes-up-nothing-from-a-short-file",
             "A coordination file of the right words and the current boot, naming 20 staged bytes, but "
             "only its 4,096-byte header long: shorter than 1,052,672 bytes, it is not valid, so nothing "
             "is taken up (Spec/store.md §12.10 rule 1, §12.2) and the log file is not cut at base: 'b', "
             "past base, stays an entry. Taking the zeros the open extends the file with for staged bytes "
             "would cut 'b' and leave an unwritten tail.", ["store §12.10.1", "store §12.2"],
             log, published(one + 20, one, next_token=6), size=None, current_boot=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both))),
        case("first-process-takes-up-nothing-of-another-generation",
             "As first-process-takes-up-staged-records, but the coordination file names another generation "
             "than the log's: its staged 'b' belongs to another log and is not taken up (Spec/store.md "
             "§12.10 rule 2).", ["store §12.10.2"],
             header + a, published(both, one, b, generation=g + 1, next_token=6), current_boot=True,
             expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                         **left(g, one, next_token=7))),
    ]
    # The log file lost its last 7 bytes, which were zeros of b0's value: cut to base (which
    # would extend it with zeros) and followed by the staged 'c', b0 would read whole again.
    b0 = sw.put(b"b", b"bravo" + bytes(7), 20, NEVER, 2)
    cases.append(case(
        "first-process-takes-up-nothing-beyond-the-log-file",
        "As first-process-takes-up-staged-records, but the log file is 7 bytes shorter than base: what "
        "the processes published below base is not all there, so the staged 'c' is not taken up "
        "(Spec/store.md §12.10 rule 3) and the open cuts the incomplete 'b' as usual. (Had the file been "
        "cut to base, which lengthens it with zeros, the lost bytes, zeros too, would have made 'b' whole "
        "again.)", ["store §12.10.3"],
        header + a + b0[:-7], published(one + len(b0) + len(c), one + len(b0), c, next_token=6), current_boot=True,
        expect=dict({"entries": first_only, "file": b64(header + a), "sync": mark(one)},
                    **left(g, one, next_token=7))))
    cases += [
        case("first-process-take-up-cuts-the-log-at-base",
             "Past base the log file holds records no one published (a dead holder's, 'x' and 'd'): the "
             "take-up cuts the file at base before it writes the staged 'b' there, so neither comes back "
             "(Spec/store.md §12.10). 'x' is as long as 'b', so writing 'b' over it without the cut would "
             "leave 'd' whole after it.", ["store §12.10", "store §12.10.1"],
             header + a + x + d, published(both, one, b, next_token=6), current_boot=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, next_token=7))),
        case("first-process-take-up-cuts-a-record-that-is-not-whole",
             "The published length ends inside the staged 'c': the take-up writes the area up to the length, "
             "never past it, and the open's scan cuts the incomplete 'c' as the torn tail it is (Spec/store.md "
             "§12.10, §5.3).", ["store §12.10", "store §12.10.1"],
             header + a, published(both + len(c) - 7, one, b + c, next_token=6), current_boot=True,
             expect=dict({"entries": everything, "file": b64(log), "sync": mark(both)}, **left(g, both, next_token=7))),
        case("read-only-follows-the-staging-area",
             "A read-only open beside sharers follows the coordination file: the log file up to base (not "
             "the unpublished 'x' after it), then the staging area up to the length ('b'). It writes "
             "nothing: the log and the coordination file stay as they were (Spec/store.md §12.5, §12.7).",
             ["store §12.5", "store §12.7"], header + a + x, published(both, one, b, **kept), read_only=True,
             expect={"entries": everything, "file": b64(header + a + x),
                     "shared": b64(published(both, one, **kept)), "sharedLength": COORDINATION_SIZE}),
        case("read-only-follows-both-areas",
             "A read-only open follows records staged in both areas: the log file up to base, the other area "
             "(area 1 here) from base to split ('b'), then the current one (area 0) up to the length ('c'). "
             "It writes nothing (Spec/store.md §12.5, §12.7).", ["store §12.5", "store §12.7"],
             header + a, published(three, one, c, split=both, **kept), area1=b, read_only=True,
             expect={"entries": all_three, "file": b64(header + a),
                     "shared": b64(published(three, one, split=both, **kept)), "sharedLength": COORDINATION_SIZE}),
        case("join-skips-a-damaged-published-record",
             "Published bytes in the log file are whole (Spec/store.md §12.4): a record below base whose "
             "header fails its checksum is damage, not a torn tail, though no sync mark covers it. A later "
             "process that skips damage skips it as §5.4 rule 1 says, removing its key, so 'b' reads as "
             "missing and never as the older 'b' before it, and applies 'c' after it. One that took it for "
             "a tail would miss 'c'; one that skipped it without removing the key would answer the older "
             "'b' (§12.2 rule 4).",
             ["store §12.2.4", "store §12.4", "store §5.4.1"],
             damaged_log, published(len(damaged_log), **kept), joins=True, skips=True, return_file=False,
             expect={"entries": a_and_c, "damaged": damaged_span}),
        case("join-refuses-a-damaged-published-record",
             "As join-skips-a-damaged-published-record, by a process that does not skip damage: damage to "
             "published bytes is damage to synchronized data, and the open fails with corruptRecord "
             "(Spec/store.md §12.2 rule 4, §5.3 rule 3). One that took it for a tail would open and miss "
             "'c', which the others published.",
             ["store §12.2.4", "store §12.4", "store §5.3.3"],
             damaged_log, published(len(damaged_log), **kept), joins=True, return_file=False,
             expect={"error": "corruptRecord"}),
        case("read-only-skips-a-damaged-published-record-of-this-boot",
             "A reader of a coordination file started afresh in this boot (its boot word the current "
             "boot's) knows the published bytes whole, and skips damage below base as a joining writer "
             "does: 'b' missing, 'c' applied (Spec/store.md §12.4, §12.5).",
             ["store §12.4", "store §12.5", "store §5.4.1"],
             damaged_log, published(len(damaged_log), **kept), read_only=True, current_boot=True, skips=True,
             return_file=False, expect={"entries": a_and_c, "damaged": damaged_span}),
        case("read-only-stops-at-a-failing-published-record-of-another-boot",
             "A coordination file of another boot may be older than a power cut that tore the log's last "
             "unsynchronized pages (Spec/store.md §12.4, §12.5): past the durable length (no sync mark here) "
             "a record that fails a check ends the reader's scan, as a torn tail would, and is not reported "
             "as damage. The older 'b' before it stands.",
             ["store §12.4", "store §12.5", "store §5.3"],
             damaged_log, published(len(damaged_log), **kept), read_only=True, skips=True, return_file=False,
             expect={"entries": [entry("a", b"alpha", 10, 1), entry("b", b"bravo, older", 15, 2)],
                     "damaged": []}),
        case("read-only-ignores-a-file-that-is-not-valid",
             "A coordination file of another version is not valid, and a reader ignores it (Spec/store.md "
             "§12.2, §12.5): it reads the log file as a lone writer left it, 'b' past the file's base word "
             "included, and never the staged 'c'.", ["store §12.2", "store §12.5"],
             log, published(one + len(c), one, c, version=3, **kept), read_only=True,
             expect={"entries": everything, "file": b64(log),
                     "shared": b64(published(one + len(c), one, version=3, **kept)),
                     "sharedLength": COORDINATION_SIZE}),
    ]
    return cases


def main():
    write_case_file(STORE_OUT, "store", "Store files opened with a coordination file beside them (Spec/store.md §12).",
                    store_cases(), ascii_only=False)
    write_case_file(OUT, "cache", "Several processes on one cache folder (Spec/backends.md §9, Spec/store.md §12), "
                    "through sessions (Spec/conformance.md §5.8).", [c.case() for c in cases()], ascii_only=False)


if __name__ == "__main__":
    main()
