#!/usr/bin/env python3
"""Writes Conformance/cache/sharing.json: several processes on one cache folder (Spec/backends.md
§9, Spec/store.md §12), through the sessions of Spec/conformance.md §5.8. Session A is the
case's driver; B and C are partner drivers (other processes, possibly another implementation).

The expectations are written out by hand from the rules: a shared folder behaves as one cache
whose operations come from several processes, so each step's answer is what one cache would
give, except where §9.4 says otherwise (hits applied at their process's next section). Files
are rendered by writers/backendfiles.py from the puts, in the order the sections ran.
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


def pattern(label, size):
    data = label.encode()
    return (data * (size // len(data) + 1))[:size]


def coordination_pattern():
    """`<log>.shared` after every process closed (Spec/store.md §12.2): the magic and version
    exact, writing 0; the generation, the length and the counter are the writers'."""
    image = MAGIC + struct.pack("<QQQQQQQ", 1, 0, 0, 0, 0, 0, 0)
    return {"$bytes": b64(image), "$ignore": [[16, 40]]}


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

    def metadata(self, session, key, sequence, created=T0, expires=NEVER):
        return self.step(session, {"op": "cache.metadata", "key": key},
                         {"metadata": {"createdAt": created, "expiresAt": expires, "accessSequence": sequence}})

    def case(self):
        case = {"name": "sharing/" + self.name, "note": self.note, "covers": self.covers,
                "requires": ["sharing"], "steps": self.steps}
        if self.backends:
            case["backends"] = self.backends
        return case


def files_after(puts, extra=None):
    """runner.files after every session closed: the puts (key, value, sequence), in the order
    their sections ran, rendered for log and hybrid, with the coordination file."""
    expected = {}
    for backend in SHARING:
        files = BackendFiles(backend)
        for key, value, sequence in puts:
            files.put(key, value, (T0, NEVER, sequence))
        files.synchronize()
        held = {key: (value, (T0, NEVER, sequence), (T0, NEVER, sequence)) for key, value, sequence in puts}
        rendered = files.files(held)
        log = LOG_NAMES[backend]
        rendered["files"][log + ".shared"] = coordination_pattern()
        rendered["names"] = sorted(rendered["names"] + [log + ".shared"], key=lambda n: n.encode())
        expected[backend] = rendered
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
    return out


def coordination(generation, length, counter=0, writing=0, magic=MAGIC, version=1):
    """A coordination file (Spec/store.md §12.2): seven little-endian words after the magic."""
    return magic + struct.pack("<QQQQQQQ", version, generation, length, counter, writing, 0, 0)


def store_cases():
    """store.read with a coordination file beside the log (Spec/conformance.md §5.4): the open
    of the first process, which recovers alone and starts the file afresh, and of a later one,
    which trusts the published length."""
    a = sw.put(b"a", b"alpha", 10, NEVER, 1)
    b = sw.put(b"b", b"bravo", 20, NEVER, 2)
    header = sw.file_header()
    one, both = len(header) + len(a), len(header) + len(a) + len(b)
    log = header + a + b

    def entry(key, value, created, sequence):
        return {"key": key, "value": b64(value), "createdAt": created, "expiresAt": NEVER, "accessSequence": sequence}

    first_only = [entry("a", b"alpha", 10, 1)]
    everything = first_only + [entry("b", b"bravo", 20, 2)]

    def mark(length):
        return {"$bytes": b64(sw.sync_mark(length)), "$ignore": sw.SYNC_GENERATION_RANGES}

    def case(name, note, covers, data, shared, expect, joins=False):
        request = {"op": "store.read", "file": b64(data), "shared": b64(shared), "returnFile": True}
        if joins:
            request["joins"] = True
        return {"name": "shared/" + name, "note": note, "covers": covers, "requires": ["sharing"],
                "steps": [{"request": request, "expect": expect}]}

    fresh = coordination(sw.GENERATION, both)
    return [
        case("join-at-the-published-length",
             "A later process trusts what the others published: it scans the log to the published length "
             "only and cuts nothing past it (another process's record, being written), writing its mark "
             "for the length it knows.", ["store §12.2.4", "store §12.4"],
             log, coordination(sw.GENERATION, one, counter=5), joins=True,
             expect={"entries": first_only, "file": b64(log), "sync": mark(one),
                     "shared": b64(coordination(sw.GENERATION, one, counter=5))}),
        case("join-leaves-a-torn-record-past-the-published-length",
             "Bytes past the published length that are no whole record are not a torn tail to a later "
             "process: the writer is still writing them.", ["store §12.2.4"],
             log[:-7], coordination(sw.GENERATION, one), joins=True,
             expect={"entries": first_only, "file": b64(log[:-7]), "sync": mark(one),
                     "shared": b64(coordination(sw.GENERATION, one))}),
        case("writing-flag-cut-at-the-next-section",
             "The writing flag set: the last holder of the lock of changes died after writing past the "
             "published length. The next section (here the close) cuts the log to the published length "
             "and clears the flag.", ["store §12.3.3", "store §12.6"],
             log, coordination(sw.GENERATION, one, writing=1), joins=True,
             expect={"entries": first_only, "file": b64(header + a), "sync": mark(one),
                     "shared": b64(coordination(sw.GENERATION, one))}),
        case("join-takes-up-a-log-a-dead-compactor-named",
             "Another generation than the one published, with the writing flag set: the last holder died "
             "after its compaction renamed the new log into place and before it published it. The joining "
             "process takes that log up as a first process would (every whole record, the torn tail cut, "
             "its mark), publishes it and clears the flag; the counter stays.", ["store §12.2.4"],
             log[:-7], coordination(sw.GENERATION + 1, one + 40, counter=5, writing=1), joins=True,
             expect={"entries": first_only, "file": b64(header + a), "sync": mark(one),
                     "shared": b64(coordination(sw.GENERATION, one, counter=5))}),
        case("join-refuses-another-generation",
             "A later process whose log carries another generation than the one published, with no "
             "holder marked writing, cannot join: ioError.", ["store §12.2.4"], log, coordination(sw.GENERATION + 1, one), joins=True,
             expect={"error": "ioError"}),
        case("first-process-recovers-alone",
             "The first process opens the log as a lone writer (every whole record), then starts the "
             "coordination file afresh: counter and writing 0, the log's generation and recovered "
             "length published; a stale writing flag cuts nothing.", ["store §12.2.3", "store §12.6"],
             log, coordination(sw.GENERATION, one, counter=9, writing=1),
             expect={"entries": everything, "file": b64(log), "sync": mark(both), "shared": b64(fresh)}),
        case("first-process-replaces-garbage",
             "A coordination file with another magic is not valid: the first process starts it afresh, "
             "every word of it.", ["store §12.2", "store §12.2.3"], log, b"\xff" * 64,
             expect={"entries": everything, "file": b64(log), "sync": mark(both), "shared": b64(fresh)}),
        case("first-process-replaces-a-short-file",
             "A coordination file shorter than 64 bytes is not valid: the first process makes it whole.",
             ["store §12.2", "store §12.2.1"], log, coordination(sw.GENERATION, one)[:20],
             expect={"entries": everything, "file": b64(log), "sync": mark(both), "shared": b64(fresh)}),
        case("first-process-replaces-another-version",
             "A coordination file of another version is not valid: the first process starts it afresh.",
             ["store §12.2"], log, coordination(sw.GENERATION, one, version=2),
             expect={"entries": everything, "file": b64(log), "sync": mark(both), "shared": b64(fresh)}),
    ]


def main():
    write_case_file(STORE_OUT, "store", "Store files opened with a coordination file beside them (Spec/store.md §12).",
                    store_cases(), ascii_only=False)
    write_case_file(OUT, "cache", "Several processes on one cache folder (Spec/backends.md §9, Spec/store.md §12), "
                    "through sessions (Spec/conformance.md §5.8).", [c.case() for c in cases()], ascii_only=False)


if __name__ == "__main__":
    main()
