#!/usr/bin/env python3
"""Writes Conformance/cache/*.json: scenarios with a controlled clock, each step's expected
response computed by the independent model in models/cachemodel.py. The runner runs every
scenario once per backend. Run: python3 Conformance/tools/generators/generate_cache_cases.py
"""
import os
import random
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # Conformance/tools

from models.cachemodel import LONGEST_KEY_WITH_VARIANTS, CacheError, CacheModel, variant_key  # noqa: E402
from shared.casefiles import CONFORMANCE, b64, write_case_file, write_case_lines  # noqa: E402
from shared.randomops import run_mix  # noqa: E402
from writers import backendfiles, pngwriter, storewriter  # noqa: E402
from writers.backendfiles import BackendFiles  # noqa: E402

OUT = os.path.join(CONFORMANCE, "cache")
T0 = 1_700_000_000_000  # a fixed start time, in milliseconds since the epoch
BACKENDS = ["dictionary", "directory", "log", "hybrid"]


def value(label, size=None):
    """Deterministic bytes for a value: the label, padded with a seeded pattern to `size`."""
    data = label.encode()
    if size is not None:
        rng = random.Random(label)
        data = (data + bytes(rng.randrange(256) for _ in range(max(0, size - len(data)))))[:size]
    return data


def pattern(label, size):
    """Large values for file checks: the label repeated. The runner damages files at exact
    offsets, so these need not be unique, and they keep the case files small in git."""
    data = label.encode()
    return (data * (size // len(data) + 1))[:size]


class Scenario:
    """Records requests and, from the model, the response each must produce."""

    def __init__(self, name, note, now=T0, covers=(), **configuration):
        self.name = name
        self.note = note
        self.covers = list(covers)
        self.model = CacheModel(now, **configuration)
        self.steps = [({"op": "cache.open", "now": now, "configuration": configuration}, {})]

    def backend_files(self, backend):
        """The backend's files as the model's journal so far leaves them (backendfiles.py)."""
        files = BackendFiles(backend)
        for event in self.model.journal:
            kind = event[0]
            if kind == "put":
                files.put(*event[1:])
            elif kind == "touch":
                files.touch(*event[1:])
            elif kind == "remove":
                files.remove(event[1])
            elif kind == "clear":
                files.clear()
            elif kind == "sync":
                files.synchronize()
            elif kind == "compact":
                files.compact(event[1])
            elif kind == "flip" and backend in event[1]:
                files.flip(*event[1][backend])
            elif kind == "lose":
                files.lose(event[1])
        return files

    def add(self, request, expect):
        self.steps.append((request, expect))
        return self

    def attempt(self, request, operation):
        try:
            return self.add(request, operation() or {})
        except CacheError as error:
            return self.add(request, {"error": error.name})

    def advance(self, milliseconds):
        self.model.now += milliseconds
        return self.add({"op": "cache.advance", "milliseconds": milliseconds}, {"now": self.model.now})

    def store(self, key, data, user_metadata=None):
        """cache.store; with `user_metadata` (bytes) the request carries it (Spec/cache.md §13.2)."""
        request = {"op": "cache.store", "key": key, "data": b64(data)}
        if user_metadata is None:
            return self.attempt(request, lambda: self.model.store(key, data) and None)
        request["userMetadata"] = b64(user_metadata)
        return self.attempt(request, lambda: self.model.store(key, data, user_metadata=user_metadata) and None)

    def user_metadata(self, key):
        """cache.userMetadata (Spec/cache.md §13.3): base64, or null with no live entry."""
        def run():
            found = self.model.user_metadata(key)
            return {"userMetadata": None if found is None else b64(found)}
        return self.attempt({"op": "cache.userMetadata", "key": key}, run)

    def set_user_metadata(self, key, user_metadata):
        """cache.setUserMetadata (Spec/cache.md §13.4): whether a live entry was updated."""
        request = {"op": "cache.setUserMetadata", "key": key, "userMetadata": b64(user_metadata)}
        return self.attempt(request, lambda: {"updated": self.model.set_user_metadata(key, user_metadata)})

    def store_bitmap(self, key, width, height, format_name, pixels):
        png = pngwriter.canonical_encode(width, height, format_name, pixels)
        request = {"op": "cache.storeBitmap", "key": key, "width": width, "height": height,
                   "format": format_name, "pixels": b64(pixels)}
        bitmap = (width, height, format_name, pixels)
        return self.attempt(request, lambda: self.model.store(key, png, bitmap) and None)

    def variant(self, key, maximum):
        """cache.variant (Spec/thumbnail.md §5.3): the bitmap the model computes, or a miss."""
        def run():
            found = self.model.variant(key, maximum)
            if found is None:
                return {"hit": False}
            width, height, format_name, pixels = found
            return {"hit": True, "width": width, "height": height, "format": format_name, "pixels": b64(pixels)}
        return self.attempt({"op": "cache.variant", "key": key, "maximumPixelSize": maximum}, run)

    def read(self, key):
        def run():
            found = self.model.read(key)
            return {"hit": False} if found is None else {"hit": True, "data": b64(found)}
        return self.attempt({"op": "cache.read", "key": key}, run)

    def read_bitmap(self, key, width, height, format_name, pixels):
        def run():
            found = self.model.read(key)
            if found is None:
                return {"hit": False}
            return {"hit": True, "width": width, "height": height, "format": format_name, "pixels": b64(pixels)}
        return self.attempt({"op": "cache.readBitmap", "key": key}, run)

    def read_bitmap_not_png(self, key):
        """Spec/cache.md §4.3 step 6: bytes that are not a PNG are a hit (bookkeeping applied)
        that throws imageDecodingFailed; the entry stays held."""
        def run():
            found = self.model.read(key)
            return {"hit": False} if found is None else {"error": "imageDecodingFailed"}
        return self.attempt({"op": "cache.readBitmap", "key": key}, run)

    def contains(self, key):
        return self.add({"op": "cache.contains", "key": key}, {"contains": self.model.contains(key)})

    def remove(self, key):
        return self.attempt({"op": "cache.remove", "key": key}, lambda: {"removed": self.model.remove(key)})

    def purge(self):
        return self.attempt({"op": "cache.purge"}, lambda: {"removed": self.model.purge()})

    def count(self):
        return self.add({"op": "cache.count"}, {"count": self.model.count(), "totalByteCount": self.model.total_bytes()})

    def metadata(self, key):
        return self.attempt({"op": "cache.metadata", "key": key}, lambda: {"metadata": self.model.metadata(key)})

    def close(self):
        self.model.close()
        return self.add({"op": "cache.close"}, {})

    def files(self, extra=None, after_read_only=False):
        """runner.files after a clean close: every backend's files, byte for byte where fixed.
        `extra` (path -> bytes) are files the runner put there that must still be there; with
        `after_read_only` the last close was a read-only cache's, which changes nothing, so the
        files are those of the last writable close."""
        assert self.model.closed and (after_read_only or not self.model.read_only)
        held = self.model.held()
        expected = {}
        for backend in BACKENDS:
            pattern = self.backend_files(backend).files(held)
            for path, data in (extra or {}).items():
                pattern["files"][path] = b64(data)
                pattern["names"].append(path)
            pattern["names"].sort(key=lambda n: n.encode())
            expected[backend] = pattern
        return self.add({"op": "runner.files"}, {"$backend": expected})

    def store_rejected_bitmap(self, key, width, height, format_name, pixels):
        """cache.storeBitmap with parts that make no bitmap (Spec/cache.md §6.5)."""
        request = {"op": "cache.storeBitmap", "key": key, "width": width, "height": height,
                   "format": format_name, "pixels": b64(pixels)}
        return self.attempt(request, lambda: self.model.store_rejected_bitmap(key))

    def abandon(self):
        """cache.abandon: the session ends as a crash would end it (nothing buffered or deferred
        is written). What the files then hold depends on the implementation's buffering, so the
        model cannot follow: the steps after it are written by hand."""
        self.model = None
        return self.add({"op": "cache.abandon"}, {})

    def damage_value(self, key):
        """Flips one bit in the middle of key's stored value, in each backend's own file, with
        the cache closed; the next open finds the entry corrupt on reading."""
        held = self.model.held()
        paths, flips = {}, {}
        for backend in BACKENDS:
            path, offset = self.backend_files(backend).value_location(key, held)
            paths[backend], flips[backend] = path, [offset, 0x10]
        self.model.journal.append(("flip", {b: (paths[b], flips[b][0], 0x10) for b in BACKENDS}))
        self.model.damage(key)
        return self.add({"op": "runner.damage", "path": {"$backend": paths}, "flip": {"$backend": flips}}, {})

    def damage_variant(self, key, maximum):
        """As damage_value, for the variant of key at maximum (Spec/thumbnail.md §5.2)."""
        held = self.model.held()
        paths, flips = {}, {}
        for backend in BACKENDS:
            path, offset = self.backend_files(backend).value_location(variant_key(key, maximum), held)
            paths[backend], flips[backend] = path, [offset, 0x10]
        self.model.journal.append(("flip", {b: (paths[b], flips[b][0], 0x10) for b in BACKENDS}))
        self.model.damage_variant(key, maximum)
        return self.add({"op": "runner.damage", "path": {"$backend": paths}, "flip": {"$backend": flips}}, {})

    def open_another(self, read_only=False, expect=None):
        request = {"op": "cache.openAnother", "readOnly": read_only}
        if expect is None:
            expect = {"count": self.model.count()}
        return self.add(request, expect)

    def keys(self):
        return self.add({"op": "cache.keys"}, {"keys": self.model.keys()})

    def check(self):
        return self.count().keys()

    def clear(self):
        return self.attempt({"op": "cache.clear"}, self.model.clear)

    def synchronize(self):
        return self.attempt({"op": "cache.synchronize"}, self.model.synchronize)

    def reopen(self, read_only=False, damage_skipped=False):
        """cache.reopen; `damage_skipped` when the open of a log skips damaged records the
        runner made (Spec/store.md §5.4), which the model cannot see in its journal."""
        self.model.reopen(read_only, damage_skipped)
        request = {"op": "cache.reopen"}
        if read_only:
            request["readOnly"] = True
        return self.add(request, {})

    def damage(self, key):
        """Close, damage the value in the backend's files (the runner does it), open again."""
        return self.close().damage_value(key).reopen()

    def verify(self):
        return self.attempt({"op": "cache.verify"}, self.model.verify)

    def compact(self):
        return self.attempt({"op": "cache.compact"}, self.model.compact)

    def damage_log_record(self, kind, key, field, mask, which=-1):
        """Flips bits of byte `field` of a record in the log of the log and hybrid backends (the
        cache closed): the `which`-th record of type `kind` naming `key`."""
        paths, flips = {}, {}
        for backend in backendfiles.LOG_NAMES:
            log = self.backend_files(backend).log
            offsets = [o for o, k, named in log.records if k == kind and named == backendfiles.key_bytes(key)]
            paths[backend], flips[backend] = backendfiles.LOG_NAMES[backend], [offsets[which] + field, mask]
        self.model.journal.append(("flip", {b: (paths[b], flips[b][0], mask) for b in paths}))
        return self.add({"op": "runner.damage", "path": {"$backend": paths}, "flip": {"$backend": flips}}, {})

    def damage_first_user_metadata(self, key):
        """Flips one bit in the middle of key's user-metadata bytes (Spec/store.md §13.1) in the
        log of the log and hybrid backends (the cache closed). key's put must be the log's first
        record: the image of the files lays out no user-metadata blocks, so it knows no later
        record's offset."""
        paths, flips = {}, {}
        for backend in backendfiles.LOG_NAMES:
            log = self.backend_files(backend).log
            first, kind, named = log.records[0]
            assert kind == storewriter.PUT and named == backendfiles.key_bytes(key), key
            inline = len(log.puts[key][0])  # the value as the record holds it (a hybrid tag included)
            block = first + storewriter.RECORD_HEADER_SIZE + len(named) + inline + 8
            paths[backend] = backendfiles.LOG_NAMES[backend]
            flips[backend] = [block + len(self.model.entries[key].user_metadata) // 2, 0x10]
        self.model.damage_user_metadata(key)
        return self.add({"op": "runner.damage", "path": {"$backend": paths}, "flip": {"$backend": flips}}, {})

    def damage_path(self, path, expect=None, **action):
        """A runner.damage step on one item of the folder (the cache closed)."""
        request = {"op": "runner.damage", "path": path}
        request.update(action)
        return self.add(request, expect or {})

    def reopen_fails(self, error):
        return self.add({"op": "cache.reopen"}, {"error": error})

    def case(self):
        covers = self.covers + [rule for rule in scenario_covers(self.name) if rule not in self.covers]
        assert covers, self.name
        case = {"name": self.name, "note": self.note, "covers": covers,
                "steps": [{"request": r, "expect": e} for r, e in self.steps]}
        if getattr(self, "backends", None):
            case["backends"] = self.backends
        if getattr(self, "requires", None):
            case["requires"] = self.requires
        return case


SCENARIO_COVERS = [
    (r"^basic/", ["cache §1.2", "cache §1.3", "cache §2.3", "cache §2.4", "backends §1.7", "backends §4.3"]),
    (r"^basic/store-read-miss", ["cache §4.3.1", "cache §4.3.2", "cache §4.3.6", "cache §4.4"]),
    (r"^basic/overwrite", ["cache §6.2.4"]),
    (r"^basic/remove", ["cache §5.3"]),
    (r"^basic/invalid-keys", ["cache §2.1", "cache §9"]),
    (r"^basic/keys-that-attack", ["cache §2.1", "backends §1.2", "backends §4.2"]),
    (r"^basic/bitmap-round-trip", ["cache §6.4", "cache §4.3.6"]),
    (r"^basic/not-a-png", ["cache §4.3.6", "cache §4.3.5"]),
    (r"^basic/canonically-equivalent", ["cache §2.1", "backends §4.2"]),
    (r"^basic/large-value", ["backends §5.2", "backends §5.4"]),
    (r"^basic/invalid-configuration", ["cache §3.1"]),
    (r"^expiry/", ["cache §4.1", "cache §4.2", "cache §3.3"]),
    (r"^expiry/(read-extends|maximum-age)", ["cache §4.3.5"]),
    (r"^expiry/contains-does-not-extend", ["cache §4.4"]),
    (r"^expiry/expired-read-removes", ["cache §4.3.3"]),
    (r"^expiry/purge", ["cache §4.5"]),
    (r"^expiry/reopen-purges", ["cache §5.1", "cache §4.5"]),
    (r"^expiry/expiry-survives-reopen", ["cache §5.2", "backends §1.8"]),
    (r"^evict/", ["cache §6.1", "cache §6.2.6", "cache §6.3"]),
    (r"^evict/value-too-large", ["cache §6.2.2"]),
    (r"^evict/expired-go-first", ["cache §6.2.6"]),
    (r"^evict/lru-survives-reopen", ["backends §1.8", "cache §5.2"]),
    (r"^persist/", ["cache §5.5", "cache §5.2"]),
    (r"^persist/clear", ["cache §5.3"]),
    (r"^persist/compact", ["cache §5.4", "backends §4.4", "store §7.3"]),
    (r"^corrupt/", ["cache §8.1", "cache §8.2", "backends §1.3", "backends §2.3", "backends §3.5", "backends §4.3", "backends §5.4"]),
    (r"^corrupt/verify", ["cache §8.4"]),
    (r"^files/", ["backends §1.1", "backends §1.4", "store §4", "store §7.1.5"]),
    (r"^corrupt/", ["cache §4.3.4"]),
    (r"^counter/", ["cache §2.2", "cache §6.2.3"]),
    (r"^basic/invalid-keys", ["cache §6.2.1"]),
    (r"^example/", ["cache §11", "cache §6.2.3", "cache §6.2.6"]),
    (r"^meta/", ["cache §13.1"]),
    (r"^meta/(store-read-back|empty-is-absent|too-large|check-order|overwrite-without)", ["cache §13.2"]),
    (r"^meta/(store-read-back|read-is-not-a-hit|lru-unchanged|expired-is-null)", ["cache §13.3"]),
    (r"^meta/(set-|check-order|read-is-not-a-hit|lru-unchanged)", ["cache §13.4"]),
    (r"^meta/(survives-|removed-with)", ["cache §13.5"]),
    (r"^meta/survives-(reopen|compaction)", ["backends §1.9"]),
    (r"^random/", ["cache §3.3", "cache §4.4", "cache §5.3", "cache §5.4", "cache §5.6"]),
]


def scenario_covers(name):
    rules = []
    for pattern, covered in SCENARIO_COVERS:
        if re.search(pattern, name):
            rules += [rule for rule in covered if rule not in rules]
    return rules


def basics():
    yield (Scenario("basic/store-read-miss", "A stored value reads back; another key misses.")
           .store("a", value("alpha")).read("a").read("b").contains("a").contains("b").check())
    yield (Scenario("basic/overwrite", "Storing a key again replaces its value; the count stays 1.")
           .store("a", value("one")).store("a", value("two")).read("a").check())
    yield (Scenario("basic/remove", "A removed key misses; removing it again reports nothing removed.")
           .store("a", value("alpha")).store("b", value("beta")).remove("a").read("a").remove("a").check())
    yield (Scenario("basic/empty-value", "An empty value is a value, not a miss.")
           .store("empty", b"").read("empty").check())
    yield (Scenario("basic/invalid-keys", "An empty key and a key over 65,535 bytes are errors.")
           .store("", value("x")).read("").store("k" * 65536, value("x")).store("k" * 65535, value("longest")).count())
    odd = ["../../x", "/", "a\u0000b", ".", "..", "ключ🙂", "A", "a", "a/b\\c", " ", "x" * 10240]
    s = Scenario("basic/keys-that-attack-the-file-system",
                 "Keys with path syntax, NUL, Unicode and 10 KB stay distinct and list sorted by UTF-8 bytes.")
    for index, key in enumerate(odd):
        s.store(key, value(f"value-{index}"))
    for key in odd:
        s.read(key)
    yield s.check()
    s = Scenario("basic/bitmap-round-trip",
                 "An image goes in through the PNG encoder and comes out through the decoder; read as data it is the canonical PNG.")
    for fmt, w, h in [("rgba8", 3, 2), ("gray16", 2, 2), ("rgb8", 1, 1)]:
        _, depth, channels = pngwriter.FORMATS[fmt]
        pixels = value(f"{fmt}-pixels", w * h * channels * depth // 8)
        s.store_bitmap(f"image-{fmt}", w, h, fmt, pixels)
        s.read_bitmap(f"image-{fmt}", w, h, fmt, pixels)
    s.read("image-rgb8")
    yield s.check()
    yield (Scenario("basic/not-a-png-as-bitmap", "Reading raw bytes as an image fails to decode but is a hit; the entry stays.",
                    timeToLive=1000)
           .store("raw", value("not a png")).advance(900).read_bitmap_not_png("raw").advance(900).read("raw").check())
    ordered = ["\uff61", "\U0001F600", "e\u0301", "\u00e9", "Z", "a", "\u007f", "\u0080", "a\u0000"]
    s = Scenario("basic/keys-sorted-by-utf8-bytes",
                 "keys and verify list keys by their UTF-8 bytes: U+FF61 before U+1F600 (UTF-16 order is the reverse), "
                 "decomposed before precomposed, 'a' before 'a\\0'.", covers=["cache §4.4", "cache §8.4", "cache §2.1"])
    for index, key in enumerate(ordered):
        s.store(key, value(f"ordered-{index}"))
    yield s.keys().verify()
    yield (Scenario("basic/canonically-equivalent-keys-differ",
                    "Keys are their UTF-8 bytes: precomposed and decomposed 'café' are two keys.")
           .store("caf\u00e9", value("precomposed")).store("cafe\u0301", value("decomposed"))
           .read("caf\u00e9").read("cafe\u0301").check())
    big = value("large", 140_000)
    yield (Scenario("basic/large-value",
                    "A 140,000-byte value (over the hybrid backend's 128 KiB threshold) reads back, survives reopening and is removed.")
           .store("big", big).store("small", value("small")).read("big").reopen().read("big").remove("big").read("big")
           .compact().reopen().check())


def expiration():
    yield (Scenario("expiry/expires-at-ttl", "Without reads, an entry lives exactly timeToLive ms: expired when now >= expiresAt.",
                    timeToLive=1000)
           .store("a", value("alpha")).advance(999).contains("a").count().advance(1).contains("a").read("a").check())
    yield (Scenario("expiry/read-extends", "Each hit moves the expiry to now + timeToLive.", timeToLive=1000)
           .store("a", value("alpha")).advance(600).read("a").advance(600).read("a").advance(999).read("a")
           .advance(999).read("a").advance(1000).read("a").check())
    yield (Scenario("expiry/contains-does-not-extend", "contains, count and keys are not hits.", timeToLive=1000)
           .store("a", value("alpha")).advance(500).contains("a").keys().count().advance(500).contains("a").read("a"))
    yield (Scenario("expiry/store-restarts-the-clock", "Storing again gives a fresh expiry.", timeToLive=1000)
           .store("a", value("one")).advance(900).store("a", value("two")).advance(900).read("a").advance(1000).read("a"))
    yield (Scenario("expiry/other-entries-unaffected", "A hit extends only its own entry.", timeToLive=1000)
           .store("a", value("alpha")).store("b", value("beta")).advance(700).read("a").advance(300)
           .check().read("b").read("a"))
    yield (Scenario("expiry/maximum-age-caps-extension", "Reads extend up to createdAt + maximumAge and no further.",
                    timeToLive=1000, maximumAge=2500)
           .store("a", value("alpha")).advance(900).read("a").advance(900).read("a").advance(699).read("a")
           .advance(1).read("a").check())
    yield (Scenario("expiry/maximum-age-alone", "With only maximumAge, reads extend nothing.", maximumAge=1000)
           .store("a", value("alpha")).advance(500).read("a").advance(499).read("a").advance(1).read("a"))
    yield (Scenario("expiry/never-expires", "Without timeToLive or maximumAge nothing expires.")
           .store("a", value("alpha")).advance(10 ** 12).read("a").purge().check())
    yield (Scenario("expiry/purge", "purge removes exactly the expired entries and says how many.", timeToLive=1000)
           .store("a", value("alpha")).store("b", value("beta")).advance(500).store("c", value("gamma"))
           .advance(500).purge().check().purge().advance(500).purge().check())
    yield (Scenario("expiry/remove-of-an-expired-entry-returns-false",
                    "Removing an expired entry removes it but reports false: only a live entry counts as removed.",
                    timeToLive=1000, covers=["cache §5.3", "cache §4.1"])
           .store("a", value("alpha")).store("b", value("bravo")).advance(999).remove("b").advance(1).remove("a")
           .purge().remove("a").count())
    yield (Scenario("expiry/expired-read-removes", "Reading an expired entry is a miss and removes it, so purge finds nothing.",
                    timeToLive=1000)
           .store("a", value("alpha")).advance(1000).read("a").purge())
    yield (Scenario("expiry/reopen-purges", "Opening the cache purges expired entries.", timeToLive=1000)
           .store("a", value("alpha")).advance(600).store("b", value("beta")).advance(500).synchronize().reopen()
           .purge().check().read("b"))
    yield (Scenario("expiry/expiry-survives-reopen", "Extended expiries are persisted.", timeToLive=1000)
           .store("a", value("alpha")).advance(800).read("a").synchronize().reopen().advance(999).read("a")
           .advance(1000).read("a"))


def eviction():
    s = Scenario("evict/by-count-lru", "Over maximumEntryCount, the least recently used entry goes; a read makes an entry recent.",
                 maximumEntryCount=3)
    s.store("a", value("a")).store("b", value("b")).store("c", value("c")).read("a").store("d", value("d")).check()
    s.store("e", value("e")).check().read("c").read("a").store("f", value("f")).check()
    yield s
    yield (Scenario("evict/by-count-overwrite-is-not-growth", "Replacing a key does not evict.", maximumEntryCount=2)
           .store("a", value("a")).store("b", value("b")).store("a", value("a2")).check().store("c", value("c")).check())
    yield (Scenario("evict/by-count-one", "With a limit of one, each new key replaces the last.", maximumEntryCount=1)
           .store("a", value("a")).store("b", value("b")).check().read("a"))
    s = Scenario("evict/by-size-lru", "Over maximumBytes (the sum of value lengths), least recently used entries go, oldest first.",
                 maximumBytes=100)
    s.store("a", value("a", 40)).store("b", value("b", 40)).store("c", value("c", 30)).check()
    s.read("b").store("d", value("d", 50)).check().store("e", value("e", 100)).check()
    yield s
    yield (Scenario("evict/by-size-several-victims", "One large store can evict several entries, in LRU order.", maximumBytes=100)
           .store("a", value("a", 20)).store("b", value("b", 20)).store("c", value("c", 20)).store("d", value("d", 20))
           .read("a").store("e", value("e", 55)).check())
    yield (Scenario("evict/exactly-at-the-byte-limit", "Being exactly at maximumBytes is allowed, a value of exactly maximumBytes too; one byte more evicts.",
                    maximumBytes=100, covers=["cache §6.1", "cache §6.2.2", "cache §6.2.6"])
           .store("a", value("a", 60)).store("b", value("b", 40)).check().store("c", value("c", 1)).check()
           .store("whole", value("whole", 100)).check())
    yield (Scenario("evict/value-too-large", "A value larger than maximumBytes is refused and nothing changes.", maximumBytes=100)
           .store("a", value("a", 60)).store("big", value("big", 101)).check().read("a"))
    yield (Scenario("evict/expired-go-first", "Before evicting live entries, every expired entry goes, even a recently used one.",
                    timeToLive=10_000, maximumAge=1000, maximumEntryCount=2)
           .store("a", value("a")).advance(500).store("b", value("b")).advance(499).read("a").advance(1)
           .store("c", value("c")).check())
    yield (Scenario("evict/lru-survives-reopen", "Recency is persisted: after reopening, the same entry is evicted.",
                    maximumEntryCount=2)
           .store("a", value("a")).store("b", value("b")).read("a").synchronize().reopen().store("c", value("c")).check())


def persistence():
    yield (Scenario("persist/reopen", "Entries survive closing and reopening.")
           .store("a", value("alpha")).store("b", value("beta")).synchronize().reopen().check().read("a").read("b"))
    yield (Scenario("persist/reopen-after-remove", "A removal survives reopening.")
           .store("a", value("alpha")).store("b", value("beta")).remove("a").reopen().check().read("a"))
    yield (Scenario("persist/clear", "clear empties the cache, also after reopening; the cache works afterwards.")
           .store("a", value("alpha")).store("b", value("beta")).clear().check().read("a").reopen().check()
           .store("c", value("gamma")).reopen().check())
    yield (Scenario("persist/compact-keeps-live-data", "Compaction keeps the latest value of every live key.")
           .store("a", value("one")).store("a", value("two")).store("b", value("beta")).store("c", value("gamma"))
           .remove("c").compact().check().read("a").read("b").reopen().check().read("a"))
    yield (Scenario("persist/compact-never-revives-removed", "A key removed before a compaction stays removed after it, and after reopening.")
           .store("a", value("alpha")).store("b", value("beta")).remove("a").compact().check().read("a")
           .reopen().check().read("a"))
    yield (Scenario("persist/compact-drops-expired", "Compaction removes expired entries.", timeToLive=1000)
           .store("a", value("alpha")).advance(600).store("b", value("beta")).advance(400).compact().purge().check()
           .reopen().check())
    yield many_writes()


def many_writes():
    s = Scenario("persist/many-writes-then-compact", "Many overwrites and removals, then compaction and reopening.")
    rng = random.Random(11)
    for round_number in range(60):
        key = f"k{rng.randrange(12)}"
        if rng.random() < 0.25:
            s.remove(key)
        else:
            s.store(key, value(f"{key}-{round_number}", rng.randrange(1, 200)))
    s.check().compact().check().reopen().check()
    for index in range(12):
        s.read(f"k{index}")
    return s


def invalid_configurations():
    """Spec/cache.md §3.1: opening with a setting out of range fails."""
    for label, configuration in [("zero-time-to-live", {"timeToLive": 0}), ("negative-maximum-age", {"maximumAge": -1}),
                                 ("negative-maximum-bytes", {"maximumBytes": -1}),
                                 ("zero-maximum-entry-count", {"maximumEntryCount": 0}),
                                 ("negative-memory-cost-limit", {"memoryCostLimit": -1}),
                                 ("zero-pixel-count-limit", {"decodingLimits": {"maximumPixelCount": 0}}),
                                 ("zero-decompressed-bytes-limit", {"decodingLimits": {"maximumDecompressedBytes": 0}})]:
        yield {"name": f"basic/invalid-configuration-{label}", "note": "Opening with a setting out of range fails.",
               "covers": ["cache §3.1"],
               "steps": [{"request": {"op": "cache.open", "now": T0, "configuration": configuration},
                          "expect": {"error": "invalidConfiguration"}}]}


def corruption():
    # Values of random bytes, so their bytes occur nowhere else in the backend's files.
    a, b = value("damaged-a", 64), value("intact-b", 64)
    yield (Scenario("corrupt/damaged-value",
                    "A value damaged on disk is a corrupt entry: the read that finds it throws and removes it; others are unaffected.")
           .store("a", a).store("b", b).damage("a").contains("a").read("a").read("a").read("b").check()
           .store("a", value("a-again", 64)).read("a").reopen().check())
    big = value("damaged-large", 140_000)
    yield (Scenario("corrupt/damaged-large-value", "The same for a value over the hybrid backend's threshold.")
           .store("big", big).store("small", b).damage("big").read("big").read("small").check().purge())
    yield (Scenario("corrupt/verify-reports-without-changing",
                    "verify checks every held entry, expired ones too, names the damaged ones and changes nothing: "
                    "the damaged entry stays held until a read removes it, and no expiry slides.",
                    timeToLive=1000)
           .store("a", a).store("b", b).advance(500).store("c", value("intact-c", 64)).verify()
           .damage("a").verify().count().advance(600).verify().contains("b").read("c").read("a").verify())


def files():
    """Spec/backends.md: the runner reads each backend's files itself after a clean close and
    compares them with the files computed from the spec (backendfiles.py)."""
    big = pattern("external-value", 140_000)
    yield (Scenario("files/layout-after-stores-hits-and-removals",
                    "After a clean close every backend's files are exactly those of Spec/backends.md: names, records, order, checksums.",
                    timeToLive=10_000, covers=["backends §1.2", "backends §1.3", "backends §1.5", "backends §2.1", "backends §2.2",
                                                "backends §3.1", "backends §3.2", "backends §3.3", "backends §4.1", "backends §4.3",
                                                "backends §5.1", "backends §5.2", "backends §5.3"])
           .store("b", value("bravo")).store("a", value("alpha")).store("ключ", value("unicode"))
           .store("big", big).store("gone", value("removed later")).advance(10).read("a").store("b", value("bravo two"))
           .remove("gone").remove("never-stored").close().files())
    yield (Scenario("files/replaced-external-value-is-deleted",
                    "A replaced external value's file is deleted once the log is durable; the new one is named by its new accessSequence.",
                    covers=["backends §5.1", "backends §5.3"])
           .store("big", big).store("big", pattern("external-two", 140_000)).synchronize().store("small", b"s")
           .store("big", b"now inline").close().files())
    yield (Scenario("files/hybrid-threshold-boundary",
                    "A value of exactly externalStorageThreshold (131,072 bytes) is external, one byte less is inline.",
                    covers=["backends §5.2", "backends §5.1"])
           .store("below", pattern("below", 131_071)).store("at", pattern("at", 131_072)).close().files())
    yield (Scenario("files/after-clear-and-compaction",
                    "removeAll and compaction leave the files of the live entries only; a clear record, then a compacted log.",
                    timeToLive=1000, covers=["backends §2.2", "backends §3.5", "backends §4.4", "backends §5.5", "cache §5.3", "cache §5.4"])
           .store("x", value("x")).store("big", big).clear().store("a", value("alpha")).advance(500)
           .store("b", value("bravo")).store("c", value("charlie")).read("b").remove("c").close().files()
           .reopen().advance(600).compact().close().files())
    yield (Scenario("files/open-purges-and-reopen-rewrites", "An open that purges expired entries changes the files as a removal would.",
                    timeToLive=1000, covers=["cache §5.1", "backends §2.2", "backends §3.4"])
           .store("a", value("alpha")).advance(600).store("b", value("bravo")).close().files().advance(500).reopen()
           .count().close().files())


INT64_MAX = 2 ** 63 - 1


def counter():
    """Spec/cache.md §2.5 (the access counter) and §3.4 (saturating sums), seen through
    cache.metadata, which is not a hit (§4.4)."""
    yield (Scenario("counter/stores-and-hits-take-numbers",
                    "An empty cache starts at 1; every store and hit takes the next number; a miss, an inspection, a removal "
                    "and rejected stores take none.",
                    maximumBytes=100, covers=["cache §2.5", "cache §4.4", "cache §6.2.2", "cache §2.1"])
           .store("a", value("alpha")).metadata("a").store("b", value("bravo")).read("a").metadata("a").metadata("b")
           .read("missing").contains("a").keys().count().metadata("missing").remove("b").remove("b")
           .store("big", value("big", 101)).store("", b"x").store("c", value("charlie")).metadata("c").metadata("a"))
    yield (Scenario("counter/reopen-sets-it-from-held-entries",
                    "On open the counter is 1 + the largest accessSequence held, so numbers freed by removals are taken again.",
                    covers=["cache §2.5", "cache §5.1"])
           .store("a", value("a")).store("b", value("b")).store("c", value("c")).remove("c").reopen()
           .store("d", value("d")).metadata("d").remove("d").remove("b").reopen().read("a").metadata("a"))
    yield (Scenario("counter/clear-keeps-it-reopen-restarts-it",
                    "removeAll does not reset the counter; an empty cache opened again starts at 1.",
                    covers=["cache §2.5", "cache §5.3"])
           .store("a", value("a")).store("b", value("b")).clear().store("c", value("c")).metadata("c").clear().reopen()
           .store("d", value("d")).metadata("d"))
    yield (Scenario("counter/set-before-the-open-purges",
                    "The counter is set from every held entry before the open's purge, expired ones included.",
                    timeToLive=1000, maximumAge=1200, covers=["cache §2.5", "cache §5.1", "cache §4.3.5"])
           .store("a", value("a")).advance(100).store("b", value("b")).advance(900).read("b").advance(50).read("a")
           .metadata("a").metadata("b").advance(200).reopen().metadata("a").store("c", value("c")).metadata("c"))
    yield (Scenario("counter/metadata-is-not-a-hit", "cache.metadata reports createdAt, expiresAt and accessSequence and changes nothing.",
                    timeToLive=1000, covers=["cache §4.4", "cache §4.2", "cache §4.3.5"])
           .store("a", value("a")).advance(400).metadata("a").advance(599).metadata("a").read("a").metadata("a")
           .advance(1000).metadata("a").contains("a"))
    yield (Scenario("counter/hits-persist-across-reopen", "The metadata of hits survives a clean close and reopen on every backend.",
                    timeToLive=1000, covers=["cache §5.2", "cache §5.5", "backends §1.8"])
           .store("a", value("a")).store("b", value("b")).advance(300).read("a").read("b").read("a").reopen()
           .metadata("a").metadata("b").store("c", value("c")).metadata("c"))
    yield (Scenario("counter/saturating-expiry-near-the-end-of-time",
                    "now ⊕ timeToLive and createdAt ⊕ maximumAge saturate at Int64.max instead of wrapping.",
                    now=INT64_MAX - 100, timeToLive=1000, maximumAge=5000, covers=["cache §3.4", "cache §4.2", "cache §4.3.5"])
           .store("a", value("a")).metadata("a").advance(50).read("a").metadata("a").reopen().metadata("a")
           .advance(49).read("a").advance(1).read("a"))
    yield (Scenario("counter/saturating-time-to-live-alone", "With only a time-to-live near the end of time, the expiry saturates too.",
                    now=INT64_MAX - 10, timeToLive=100, covers=["cache §3.4", "cache §4.2"])
           .store("a", value("a")).metadata("a").advance(5).read("a").metadata("a").count())
    yield (Scenario("counter/boundaries-of-expiry", "At now = expiresAt − 1 an entry is live and a hit; at expiresAt it is expired.",
                    timeToLive=10, covers=["cache §4.1", "cache §4.3.3"])
           .store("a", value("a")).advance(9).metadata("a").read("a").metadata("a").advance(10).metadata("a").read("a")
           .metadata("a"))


def lifecycle():
    """Spec/cache.md §5.5 closing, §5.6 read-only caches, Spec/backends.md §1.5 the folder lock."""
    yield (Scenario("lifecycle/closed-cache-throws", "After close every operation throws cacheClosed; inspecting reports an empty cache; "
                    "a second close does nothing; an invalid key is still invalidKey first.",
                    covers=["cache §5.5", "cache §2.1"])
           .store("a", value("a")).close().read("a").store("b", value("b")).remove("a").purge().compact().verify()
           .count().keys().contains("a").metadata("a").read("").close().reopen().read("a"))
    yield (Scenario("lifecycle/folder-lock", "A second writable instance of an open folder fails with locked; a read-only one opens beside the writer.",
                    covers=["backends §1.5", "cache §5.6"])
           .store("a", value("a")).synchronize().open_another(expect={"error": "locked"}).open_another(read_only=True)
           .close().open_another(expect={"count": 1}).reopen().read("a"))
    yield (Scenario("lifecycle/read-only-changes-nothing",
                    "A read-only cache refuses every mutation with readOnly; a hit changes no metadata; an expired entry is a miss but stays held.",
                    timeToLive=1000, covers=["cache §5.6"])
           .store("a", value("alpha")).store("b", value("bravo")).advance(500).reopen(read_only=True).metadata("a")
           .read("a").metadata("a").store("c", value("c")).store("", b"x").remove("a").clear().purge().compact().synchronize()
           .advance(600).read("a").verify().reopen().purge().count())
    yield (Scenario("lifecycle/which-error-wins",
                    "The arguments are checked first (invalidKey, valueTooLarge), then the state (cacheClosed, then readOnly).",
                    maximumBytes=10, covers=["cache §2.1", "cache §5.5", "cache §5.6", "cache §6.2.2"])
           .store("a", value("a")).reopen(read_only=True).store("big", value("big", 11)).store("b", value("b"))
           .store("", b"").remove("")
           .close().store("big", value("big", 11)).store("b", value("b")).store("", b"").reopen()
           .store("big", value("big", 11)))
    yield (Scenario("lifecycle/read-only-sees-damage-without-removing",
                    "A read-only cache reports a damaged entry as corruptEntry and keeps it; a writable one then removes it.",
                    covers=["cache §5.6", "cache §8.2"])
           .store("a", value("damaged-ro", 64)).store("b", value("intact-ro", 64)).close().damage_value("a")
           .reopen(read_only=True).read("a").read("a").read("b").verify().reopen().read("a").read("a").verify())


def only(backends, scenario):
    scenario.backends = backends
    return scenario


def damaged_files():
    """Spec/backends.md §1.5, §1.6 and each backend's damage rules: the runner damages the
    files (the cache closed), the driver opens them again."""
    def stored(name, note, covers, backends=BACKENDS, **configuration):
        scenario = only(backends, Scenario(name, note, covers=covers, **configuration))
        return scenario.store("a", value("alpha")).store("b", value("bravo")).read("a").close()

    for backend, path in [("dictionary", "cache.dictionary"), ("directory", "entries"), ("log", "cache.log"),
                          ("hybrid", "external"), ("hybrid", "hybrid.log")]:
        yield (stored(f"damage/{backend}-{path.replace('.', '-')}-is-a-link",
                      "A symbolic link where the layout puts the cache's own file or folder fails the open with symbolicLink.",
                      ["backends §1.6"], [backend])
               .damage_path(path, symlink="/tmp").reopen_fails("symbolicLink"))
    yield (stored("damage/lock-is-a-link", "The folder's lock file as a link fails the open with symbolicLink.",
                  ["backends §1.5", "backends §1.6"]).damage_path("lock", symlink="lock-target").reopen_fails("symbolicLink"))
    # hybrid, Spec/backends.md §5.4: intact records whose log values are neither an inline value
    # nor a reference, appended by the runner after the close (as a writer with a bug might).
    s = only(["hybrid"], Scenario(
        "damage/hybrid-malformed-log-values",
        "Intact log records whose values are empty, of an unknown tag, or a reference of the wrong length are "
        "held, and each is a corrupt entry when it is read: the read throws corruptEntry and removes it; the "
        "entry stored before them is unaffected.",
        covers=["backends §5.4", "backends §5.2", "cache §8.2"]))
    s.store("a", value("alpha")).close()
    malformed = [("x", b""), ("y", b"\x07other tag"), ("z", b"\x02" + bytes(20))]
    s.damage_path("hybrid.log", append=b64(b"".join(
        storewriter.put(key.encode(), log_value, T0, INT64_MAX, 10 + index)
        for index, (key, log_value) in enumerate(malformed))))
    for index, (key, _) in enumerate(malformed):
        s.model.adopt(key, b"", (T0, INT64_MAX, 10 + index))
        s.model.damage(key)
    yield s.reopen().contains("x").read("x").read("y").read("z").read("x").read("a").keys()
    # dictionary, Spec/backends.md §2.3
    for label, action, error in [("wrong-magic", {"flip": [0, 1]}, "corruptFile"),
                                 ("bytes-after-the-last-record", {"append": b64(b"\x00")}, "corruptFile"),
                                 ("truncated-record", {"truncate": -1}, "corruptFile"),
                                 ("truncated-header", {"truncate": 12}, "corruptFile"),
                                 ("unreadable-record", {"flip": [16 + 5, 1]}, "corruptFile"),
                                 ("entry-count-too-large", {"flip": [12, 4]}, "corruptFile"),
                                 ("unknown-version", {"flip": [8, 4]}, "unsupportedFormatVersion")]:
        yield (stored(f"damage/dictionary-{label}", "A dictionary file whose structure is damaged fails the open (Spec/backends.md §2.3).",
                      ["backends §2.3", "cache §8.3"], ["dictionary"])
               .damage_path("cache.dictionary", **action).reopen_fails(error))
    # log and hybrid, Spec/backends.md §4.3 (Spec/store.md §2.1, §5.3)
    for backend, log in [("log", "cache.log"), ("hybrid", "hybrid.log")]:
        for label, action, error in [("header", {"flip": [20, 1]}, "corruptFile"),
                                     ("magic", {"flip": [1, 1]}, "corruptFile"),

                                     ("newer-major-version", {"write": b64(storewriter.file_header(major=4))}, "unsupportedFormatVersion")]:
            yield (stored(f"damage/{backend}-{label}", "A log whose header or middle is damaged fails the open (Spec/backends.md §4.3).",
                          ["backends §4.3", "cache §8.3"], [backend])
                   .damage_path(log, **action).reopen_fails(error))
        s = stored(f"damage/{backend}-middle-record-without-snapshot",
                   "Damage to a synchronized record's header (a's put), found by a scan (no snapshot), costs that entry "
                   "only: the open skips the record and its key (Spec/store.md §5.4), leaves the file as it is, and the "
                   "cache works on; the log keeps the damaged record until a compaction.",
                   ["backends §4.1", "store §5.4.1", "store §5.3.3"], [backend])
        s.damage_path(log + ".hint", remove=True).damage_log_record(storewriter.PUT, "a", 20, 1)
        s.model.lose("a")
        yield s.reopen(damage_skipped=True).read("a").read("b").count().store("a", value("alpha again")).read("a") \
            .close().files()
        s = stored(f"damage/{backend}-synchronized-record-costs-its-entry",
                   "A bit of a synchronized record's metadata (b's expiry, under its header checksum) flipped, the "
                   "snapshot removed so that the open scans: b is lost, never read with wrong metadata; a and the "
                   "records after the damage (a's hit) are intact.",
                   ["backends §4.1", "store §5.4.1", "cache §8.1"], [backend])
        s.damage_path(log + ".hint", remove=True).damage_log_record(storewriter.PUT, "b", 40, 0x10)
        s.model.lose("b")
        yield s.reopen(damage_skipped=True).metadata("a").read("b").read("a").keys().compact().close().files()
        s = only([backend], Scenario(
            f"damage/{backend}-damaged-put-does-not-bring-back-an-earlier-value",
            "The latest put of a key whose synchronized record is damaged is skipped with its key: the open does "
            "not fall back to the key's earlier value (also synchronized), which may be older than what the user "
            "last stored.", covers=["backends §4.1", "store §5.4.1"]))
        s.store("a", value("alpha one")).synchronize().store("a", value("alpha two")).store("b", value("bravo")).close()
        s.damage_path(log + ".hint", remove=True).damage_log_record(storewriter.PUT, "a", 9, 0x04)
        s.model.lose("a")
        yield s.reopen(damage_skipped=True).read("a").read("b").count().close().files()
        s = stored(f"damage/{backend}-torn-append-after-the-mark",
                   "Records appended after the last synchronize (here by the runner, after the close) of which a "
                   "power cut kept a later one and lost a sector of the first: the first is torn, so it and everything "
                   "after it are ignored read-only and cut by a writable open, which opens the cache as it was.",
                   ["backends §4.1", "store §5.3.5", "store §5.3.4"], [backend])
        tag = b"\x00" if backend == "hybrid" else b""
        first = storewriter.put(b"x", tag + pattern("torn-append", 2000), T0, INT64_MAX, 10)
        second = storewriter.put(b"y", tag + value("survivor"), T0, INT64_MAX, 11)
        sector = len(first) - 1024
        appended = first[:sector] + bytes(512) + first[sector + 512:] + second
        s.damage_path(log, append=b64(appended))
        yield s.reopen(read_only=True).keys().read("y").reopen().keys().read("x").read("y").read("a").close().files()
        s = stored(f"damage/{backend}-middle-record-with-snapshot",
                   "With a valid snapshot the open trusts it; the damaged record is found when its value is read (corruptEntry).",
                   ["backends §4.3", "cache §8.2", "store §8.2"], [backend])
        s.damage_path(log, flip=[32 + 20, 1])
        s.model.damage("a")
        yield s.reopen().read("b").read("a").read("a").count()
        s = stored(f"damage/{backend}-torn-tail",
                   "A log whose last record (a's touch) is cut loses that record only (Spec/store.md §5.3): a's metadata is its store's again.",
                   ["backends §4.3", "store §5.3.1"], [backend])
        s.damage_path(log, truncate=-3)
        entry = s.model.entries["a"]
        entry.created, entry.expires, entry.sequence = entry.stored
        yield s.reopen().metadata("a").metadata("b").read("a").store("c", value("c")).metadata("c")
    # directory, Spec/backends.md §3.4
    s = only(["directory"], Scenario("damage/directory-stray-files-are-removed",
                                     "Files in entries/ that are not entry files (a stray name, a link, a file no key maps to) are deleted by a writable open; a link's target is not.",
                                     covers=["backends §1.6", "backends §3.4"]))
    s.store("a", value("alpha")).close()
    s.damage_path("entries/stray", write=b64(b"stray")).damage_path("entries/" + "0" * 64, write=b64(b"no key maps here"))
    s.damage_path("entries/" + "1" * 64, symlink="../index").damage_path("entries/.tmp-leftover", write=b64(b""))
    s.reopen().read("a").close().files()
    yield s
    s = only(["directory"], Scenario("damage/directory-index-lost-entries-adopted",
                                     "Without a usable index every entry file is adopted with the metadata it was stored with (the hits recorded only in the index are lost).",
                                     timeToLive=1000, covers=["backends §3.4", "backends §3.3"]))
    s.store("a", value("alpha")).store("b", value("bravo")).advance(100).read("a").close()
    s.damage_path("index", remove=True)
    s.add({"op": "cache.reopen"}, {})
    s.add({"op": "cache.metadata", "key": "a"}, {"metadata": {"createdAt": T0, "expiresAt": T0 + 1000, "accessSequence": 1}})
    s.add({"op": "cache.metadata", "key": "b"}, {"metadata": {"createdAt": T0, "expiresAt": T0 + 1000, "accessSequence": 2}})
    s.add({"op": "cache.store", "key": "c", "data": b64(b"c")}, {})
    s.add({"op": "cache.metadata", "key": "c"}, {"metadata": {"createdAt": T0 + 100, "expiresAt": T0 + 1100, "accessSequence": 3}})
    yield s
    s = only(["directory"], Scenario("damage/directory-entry-file-removed",
                                     "An index entry whose file is gone was removed after the index was written: it is dropped.",
                                     covers=["backends §3.4"]))
    s.store("a", value("alpha")).store("b", value("bravo")).close()
    s.damage_path("entries/" + backendfiles.file_name("a"), remove=True)
    s.model.entries.pop("a")
    s.reopen().read("a").read("b").count()
    yield s
    # Spec/backends.md §3.5: what makes a held entry's file a corrupt entry when it is read. The
    # file changed after the index was written, so the open reads it, finds it unusable, and holds
    # the entry as indexed (§3.4).
    other_record = b"ICENTR02" + backendfiles.entry_record("b", value("bravo"), T0, INT64_MAX, 2)
    for label, what, action in [
        ("wrong-magic", "whose magic is not ICENTR02", {"flip": [3, 0x01]}),
        ("bytes-after-the-record", "with bytes after its record", {"append": b64(b"x")}),
        ("another-keys-record", "that holds another key's intact record", {"write": b64(other_record)}),
    ]:
        s = only(["directory"], Scenario(
            f"damage/directory-entry-file-{label}",
            f"An entry file {what} is a corrupt entry: the entry is held as indexed, and its read throws "
            "corruptEntry and removes it; the other entry is unaffected.",
            covers=["backends §3.5", "backends §3.4", "cache §8.2"]))
        s.store("a", value("alpha")).store("b", value("bravo")).close()
        s.damage_path("entries/" + backendfiles.file_name("a"), **action)
        s.model.damage("a")
        yield s.reopen().count().read("a").read("a").read("b").count().keys()
    yield (only(["directory"], Scenario("damage/directory-index-unknown-version", "An index of an unknown version fails the open.",
                                        covers=["backends §3.4", "cache §8.3"]))
           .store("a", value("alpha")).close()
           .damage_path("index", write=b64(b"ICINDX01" + struct.pack("<II", 7, 0)
                                           + struct.pack("<Q", storewriter.checksum(b"ICINDX01" + struct.pack("<II", 7, 0)))))
           .reopen_fails("unsupportedFormatVersion"))
    # hybrid, Spec/backends.md §5.4, §5.5
    big = pattern("external-damage", 140_000)
    s = only(["hybrid"], Scenario("damage/hybrid-external-file-missing-or-a-link",
                                  "A reference whose external file is missing, or is a link, reads as corruptEntry; other entries are intact.",
                                  covers=["backends §5.4", "backends §1.6", "cache §8.2"]))
    s.store("big", big).store("other", pattern("other-external", 140_000)).store("small", value("small")).close()
    s.damage_path("external/" + backendfiles.external_name("big", 1), remove=True)
    s.damage_path("external/" + backendfiles.external_name("other", 2), symlink="/etc/hostname")
    s.model.damage("big", counted=0)
    s.model.damage("other", counted=0)
    s.reopen().read("big").read("big").read("other").read("small").count()
    yield s
    s = only(["hybrid"], Scenario("damage/hybrid-entry-counts-with-its-file",
                                  "On open a reference counts with the size of the file it names (0 when missing), not the length it claims, "
                                  "so damage cannot make the limits evict intact entries; reading it is corruptEntry, which removes it.",
                                  maximumBytes=300_000, covers=["backends §5.6", "backends §5.4"]))
    s.store("big", big).store("other", pattern("other-external", 140_000)).store("small", value("small")).close()
    s.damage_path("external/" + backendfiles.external_name("big", 1), truncate=1_000)
    s.damage_path("external/" + backendfiles.external_name("other", 2), remove=True)
    s.model.damage("big", counted=1_000)
    s.model.damage("other", counted=0)
    s.reopen().count().store("more", pattern("more-external", 140_000)).count()
    s.read("small").read("big").count().read("other").count()
    yield s
    s = only(["hybrid"], Scenario("damage/hybrid-unreferenced-external-files-are-removed",
                                  "A writable open deletes every file in external/ that no entry references, links included.",
                                  covers=["backends §5.5", "backends §1.6"]))
    s.store("big", big).close()
    s.damage_path("external/stray", write=b64(b"stray")).damage_path("external/" + backendfiles.external_name("gone", 7), write=b64(b"x"))
    s.damage_path("external/link", symlink="../hybrid.log")
    s.reopen().read("big").close().files()
    yield s


def damage_never_blessed():
    """Spec/backends.md §2.3, Spec/store.md §7.1: a rewrite of the files never gives damaged bytes
    a fresh checksum."""
    a, b = value("blessed-a", 64), value("blessed-b", 64)
    s = only(["dictionary"], Scenario(
        "corrupt/dictionary-rewrite-drops-a-damaged-record",
        "A dictionary record whose value is damaged is loaded with its key and metadata; a rewrite of the file (here "
        "for a store of another key) omits it instead of writing the damaged bytes with a fresh checksum, so the "
        "entry is gone after the next open, never read as good.",
        covers=["backends §2.3", "backends §2.2", "cache §8.2"]))
    s.store("a", a).store("b", b).close().damage_value("a").reopen().count().store("c", value("blessed-c", 64)).close()
    s.model.forget("a")
    yield s.files().reopen().read("a").read("b").count().verify()
    yield only(["directory", "log", "hybrid"], Scenario(
        "corrupt/damage-survives-rewrites-and-compaction",
        "A damaged value stays damaged through later stores, the index or log they rewrite and a compaction: after "
        "reopening, its read is still corruptEntry, never the damaged bytes.",
        covers=["backends §3.5", "backends §4.4", "store §7.1.1", "cache §8.2"])
    ).store("a", a).store("b", b).close().damage_value("a").reopen().store("c", value("blessed-c", 64)).compact() \
        .close().reopen().read("b").read("a").read("a").count()


def item_decisions():
    """The open questions of Spec/cache.md §6.5–§6.6 and Spec/backends.md §3.6–§3.7, each
    decided in the spec and pinned here."""
    bad = ("img", 3, 2, "rgba8", value("short pixels", 23))  # 3 x 2 rgba8 needs 24 bytes
    zero = ("img", 0, 2, "gray8", b"")
    good = image("img", 3, 2, "rgba8")
    yield (Scenario("lifecycle/bitmap-the-encoder-rejects",
                    "Parts that make no bitmap (pixels of the wrong length, a zero side) are a bitmap the encoder rejects: "
                    "imageEncodingFailed, after invalidKey and before readOnly and cacheClosed; nothing changes and no "
                    "sequence number is taken.",
                    covers=["cache §6.5", "cache §5.5", "cache §5.6", "cache §2.1"])
           .store("a", value("a")).store_rejected_bitmap(*bad).store_rejected_bitmap(*zero)
           .store_rejected_bitmap("", *bad[1:]).count().store("b", value("b")).metadata("b")
           .reopen(read_only=True).store_rejected_bitmap(*bad).store_bitmap("img", *good).store_rejected_bitmap("", *bad[1:])
           .close().store_rejected_bitmap(*bad).store_rejected_bitmap(*zero).store_bitmap("img", *good)
           .store_rejected_bitmap("", *bad[1:]).reopen().count().store("c", value("c")).metadata("c"))
    original = image("big-thumb", 10, 10)
    png, thumbnail = png_size(original), png_size(image("t", 6, 6))
    yield (Scenario("variants/thumbnail-over-the-byte-limit-keeps-its-entry",
                    "An image within maximumBytes whose thumbnail pushes the sum over it: every other entry is evicted, "
                    "never the entry just stored or its thumbnail; the cache stays over the limit until a later store "
                    "evicts them.",
                    maximumBytes=png + thumbnail - 1, thumbnailMaximumPixelSize=6,
                    covers=["cache §6.6", "cache §6.2.6", "thumbnail §5.4", "thumbnail §5.6"])
           .store("x", value("x", 20)).store_bitmap("a", *original).count().keys().metadata("a").variant("a", 6)
           .count().store("y", value("y", 20)).count().keys().variant("a", 6).close().files())
    yield (Scenario("variants/variant-over-the-byte-limit-keeps-its-original",
                    "A variant whose original and itself exceed maximumBytes: storing it evicts every other entry, never "
                    "the original or the variant, and the cache stays over the limit.",
                    maximumBytes=png + thumbnail - 1,
                    covers=["cache §6.6", "thumbnail §5.3.4", "thumbnail §5.6"])
           .store_bitmap("a", *original).store("x", value("x", 20)).variant("a", 6).count().keys().variant("a", 6)
           .metadata("a").store("y", value("y", 20)).count().keys().close().files())
    s = only(["directory"], Scenario(
        "damage/directory-index-version-damaged-entries-adopted",
        "An index whose version field is damaged fails its checksum first: it is unusable, not a newer format. The "
        "open succeeds and adopts every entry file with the metadata it was stored with, and the close writes the "
        "index again.",
        timeToLive=1000, covers=["backends §3.6", "backends §3.7", "backends §3.4"]))
    s.store("a", value("alpha")).store("b", value("bravo")).advance(100).read("a").close()
    s.damage_path("index", flip=[8, 1])
    s.model.as_stored("a")
    yield s.reopen().metadata("a").metadata("b").store("c", value("charlie")).metadata("c").close().files()
    s = only(["directory"], Scenario(
        "damage/directory-open-that-dropped-and-adopted-writes-the-index",
        "An open that drops an index entry whose file is gone and adopts a file the index does not name counts as a "
        "change: the close writes the index again, without the one and with the other, though nothing else changed.",
        covers=["backends §3.7", "backends §3.4"]))
    s.store("a", value("alpha")).store("b", value("bravo")).read("a").close()
    adopted = value("delta")
    meta = (T0 + 5, INT64_MAX, 9)
    s.damage_path("entries/" + backendfiles.file_name("b"), remove=True)
    s.damage_path("entries/" + backendfiles.file_name("d"),
                  write=b64(b"ICENTR02" + backendfiles.entry_record("d", adopted, *meta)))
    s.model.forget("b")
    s.model.adopt("d", adopted, meta)
    yield s.reopen().close().files().reopen().keys().metadata("d").store("e", value("echo")).metadata("e")


def uncaught_wrong_behaviour():
    """Spec/backends.md §3.4, §5.3, §1.6 and Spec/cache.md §5.6: implementations the cases above let through."""
    c_file = b"ICENTR02" + backendfiles.entry_record("c", value("charlie"), T0, INT64_MAX, 1)
    for label, with_index in [("with-an-index", True), ("without-an-index", False)]:
        s = only(["directory"], Scenario(
            f"damage/directory-file-under-another-name-is-not-adopted-{label}",
            "An intact entry file whose key does not map to its file name cannot be attributed: it is not adopted "
            "(under its key or the name's) and a writable open deletes it.",
            covers=["backends §3.4", "backends §1.2"]))
        s.store("a", value("alpha")).store("b", value("bravo")).close()
        s.damage_path("entries/" + backendfiles.file_name("not c"), write=b64(c_file))
        if not with_index:
            s.damage_path("index", remove=True)
        yield s.reopen().keys().read("c").count().close().files()
    # A link to a true copy: the right length and the right bytes, so only following it reads well.
    big = pattern("linked-value", 140_000)
    s = only(["hybrid"], Scenario(
        "damage/hybrid-external-file-linked-to-a-true-copy",
        "An external file replaced by a link to an exact copy of its value (same length, same bytes): the link is "
        "never followed, so the entry counts 0 bytes and reads as corruptEntry, read-only (kept) and writable "
        "(removed).",
        covers=["backends §5.4", "backends §5.6", "backends §1.6", "cache §5.6", "cache §8.2"]))
    s.store("big", big).store("small", value("small")).close()
    s.damage_path("value-copy", write=b64(big))
    s.damage_path("external/" + backendfiles.external_name("big", 1), symlink="../value-copy")
    s.model.damage("big", counted=0)
    s.reopen(read_only=True).count().read("big").read("big").verify().reopen().count().read("big").read("big")
    yield s.read("small").count().close().files(extra={"value-copy": big})
    entry_file = b"ICENTR02" + backendfiles.entry_record("big", big, T0, INT64_MAX, 1)
    s = only(["directory"], Scenario(
        "damage/directory-entry-file-linked-to-a-true-copy",
        "An entry file replaced by a link to an exact copy of it: the link is not followed, so it is a stray "
        "file, not the entry's file; a read-only cache ignores it and a writable open deletes it, and either way the "
        "index entry whose file is absent is dropped: the entry is gone.",
        covers=["backends §3.4", "backends §1.6", "cache §5.6"]))
    s.store("big", big).store("small", value("small")).close()
    s.damage_path("entry-copy", write=b64(entry_file))
    s.damage_path("entries/" + backendfiles.file_name("big"), symlink="../entry-copy")
    s.model.forget("big")
    s.reopen(read_only=True).count().read("big").verify()
    yield s.reopen().count().read("big").read("small").close().files(extra={"entry-copy": entry_file})
    # Read-only opens change nothing, stray files included.
    strays = {"dictionary": {".tmp-cache.dictionary-0a1b": b"partial"},
              "directory": {"entries/stray": b"stray", "entries/.tmp-0a1b": b"partial", "entries/" + "0" * 64: b"junk",
                            ".tmp-index-0a1b": b"partial"},
              "log": {"cache.log.compacting": b"partial", "cache.log.hint.tmp": b"partial"},
              "hybrid": {"external/stray": b"stray", "external/.tmp-0a1b": b"partial",
                         "external/" + backendfiles.external_name("gone", 9): b"unreferenced",
                         "hybrid.log.compacting": b"partial"}}
    for backend in BACKENDS:
        s = only([backend], Scenario(
            f"lifecycle/read-only-open-keeps-stray-files-{backend}",
            "Stray and leftover files a writer would delete are left alone by a read-only cache: after it opens, "
            "reads and closes, the folder is exactly as it was.",
            timeToLive=1000, covers=["cache §5.6", "backends §1.6", "backends §1.4"]))
        s.store("a", value("alpha")).store("big", pattern("stray-big", 140_000)).close()
        for path, data in strays[backend].items():
            s.damage_path(path, write=b64(data))
        s.advance(2000).reopen(read_only=True).read("a").count().verify().close()
        yield s.files(extra=strays[backend], after_read_only=True)
    yield damaged_variant_made_again()
    # Superseded external files outlive the records that replace them until those are durable.
    v1, v2, other = pattern("superseded-one", 140_000), pattern("superseded-two", 140_000), pattern("removed", 140_000)
    s = only(["hybrid"], Scenario(
        "files/hybrid-superseded-file-outlives-its-record",
        "A replaced or removed external value's file is deleted only after the record that replaces it is durable: "
        "abandoned as a crash would leave it (no synchronize since), the folder still holds both, and the reopened "
        "cache reads the old value or the new one, never a missing file.",
        covers=["backends §5.3", "backends §5.5"]))
    s.store("big", v1).store("other", other).synchronize().store("big", v2).remove("other").abandon()
    names = ["lock", "hybrid.log", "hybrid.log.sync", "external/"] + ["external/" + backendfiles.external_name(k, n)
                                                    for k, n in [("big", 1), ("other", 2), ("big", 3)]]
    s.add({"op": "runner.files"}, {"names": sorted(names, key=lambda n: n.encode())})
    s.add({"op": "cache.reopen"}, {})
    s.add({"op": "cache.read", "key": "big"}, {"hit": True, "data": {"$oneOf": [b64(v1), b64(v2)]}})
    s.add({"op": "cache.read", "key": "other"}, {"$oneOf": [{"hit": True, "data": b64(other)}, {"hit": False}]})
    yield s.add({"op": "cache.close"}, {})


def worked_example():
    """Spec/cache.md §11, step by step."""
    s = Scenario("example/the-worked-example-of-cache-11",
                 "The worked example of Spec/cache.md §11, with each step's metadata as the table gives it.",
                 now=0, timeToLive=1000, maximumAge=2500, maximumEntryCount=2)
    s.store("a", b"a").metadata("a")
    s.advance(100).store("b", b"b").metadata("b")
    s.advance(800).read("a").metadata("a")
    s.advance(100).store("c", b"c").metadata("b").metadata("c")
    s.advance(800).read("a").metadata("a")
    s.advance(200).count()
    s.store("d", b"d").metadata("c").metadata("d")
    s.advance(500).read("a").keys()
    s.advance(500).purge().count()
    expected = [(1, "a", (0, 1000, 1)), (3, "b", (100, 1100, 2)), (5, "a", (0, 1900, 3)), (7, "b", None),
                (8, "c", (1000, 2000, 4)), (10, "a", (0, 2500, 5)), (13, "c", None), (14, "d", (2000, 3000, 6))]
    metadata_steps = [(r, e) for r, e in s.steps if r["op"] == "cache.metadata"]
    for (_, key, meta), (request, expect) in zip(expected, metadata_steps):
        assert request["key"] == key
        assert expect["metadata"] == (None if meta is None else
                                      {"createdAt": meta[0], "expiresAt": meta[1], "accessSequence": meta[2]}), (key, expect)
    yield s


def format_one():
    """Spec/backends.md §6: a cache of format 1 is discarded by a writable open, seen as empty
    by a read-only one, and never read."""
    v1_index = b"ICINDX01" + struct.pack("<II", 1, 0)
    v1_index += struct.pack("<I", storewriter.crc(v1_index))
    v1_log = storewriter.v1_file_header() + storewriter.v1_put("a", b"format one value", T0, INT64_MAX, 1)
    for backend, path, action in [("dictionary", "cache.dictionary", {"flip": [8, 3]}),
                                  ("directory", "index", {"write": b64(v1_index)}),
                                  ("log", "cache.log", {"write": b64(v1_log)}),
                                  ("hybrid", "hybrid.log", {"write": b64(v1_log)})]:
        s = only([backend], Scenario(f"format1/{backend}-discarded",
                                     "A format-1 cache is seen as empty read-only (nothing changes), and discarded by a writable open, which starts empty.",
                                     covers=["backends §6"]))
        s.store("a", value("alpha")).store("big", pattern("format-one-big", 140_000)).close().damage_path(path, **action)
        s.model.entries.clear()
        s.model.journal.clear()
        s.reopen(read_only=True).count().read("a").reopen().count().read("a").store("c", value("charlie")).close().files()
        yield s


def image(label, width, height, format_name="rgb8"):
    """A bitmap (width, height, format, pixels) of seeded samples."""
    _, depth, channels = pngwriter.FORMATS[format_name]
    return (width, height, format_name, value(label, width * height * channels * depth // 8))


def png_size(bitmap):
    return len(pngwriter.canonical_encode(*bitmap))


def variants():
    """Spec/thumbnail.md §5: the variants a cache makes of its images, on every backend."""
    photo, other = image("photo", 12, 9), image("other", 9, 12, "rgba8")
    yield (Scenario("variants/made-on-demand-then-read-back",
                    "A variant is made from the original on the first request and stored; the next request reads it back "
                    "(the same pixels). Each request is one hit on the original; count and keys report originals only, "
                    "totalByteCount includes the variants; the files hold each variant under FF 56, M (big-endian), key.",
                    timeToLive=10_000,
                    covers=["thumbnail §5.1", "thumbnail §5.2", "thumbnail §5.3.2", "thumbnail §5.3.3", "thumbnail §5.3.4",
                            "thumbnail §5.3.5", "thumbnail §5.6", "cache §4.3.5"])
           .store_bitmap("photo", *photo).store_bitmap("other", *other).advance(10).variant("photo", 4)
           .metadata("photo").count().keys().advance(10).variant("photo", 4).metadata("photo").variant("photo", 6)
           .variant("other", 5).variant("missing", 4).metadata("other").count().keys().close().files())
    thumb = dict(thumbnailMaximumPixelSize=5)
    yield (Scenario("variants/thumbnail-on-store",
                    "With thumbnailMaximumPixelSize, an image store also stores its variant at that size, right after the "
                    "original and with the same createdAt; an image that fits, and raw bytes, get none.",
                    covers=["thumbnail §5.4", "thumbnail §5.2", "thumbnail §5.3.3", "thumbnail §5.6"], **thumb)
           .store_bitmap("big", *image("big", 12, 9, "rgba8")).count().advance(5)
           .store_bitmap("small", *image("small", 5, 3, "gray8")).store("raw", value("raw bytes")).count()
           .advance(5).variant("big", 5).variant("small", 5).variant("big", 3).close().files()
           .reopen().variant("big", 5).count())
    gray16 = image("fits", 6, 4, "gray16")
    yield (Scenario("variants/an-original-that-fits-stores-nothing",
                    "When the original already fits M (exactly, or well within), it is the result, still a hit, and "
                    "nothing is stored.",
                    covers=["thumbnail §5.3.4", "thumbnail §5.3.5"])
           .store_bitmap("fits", *gray16).variant("fits", 6).metadata("fits").variant("fits", 100).metadata("fits")
           .count().close().files())
    yield (Scenario("variants/store-replaces-variants",
                    "Every store to a key first removes its variants: after an image store the next request makes the "
                    "variant of the new image; after a raw store there is no image to make one from.",
                    covers=["thumbnail §5.5", "thumbnail §5.6"])
           .store_bitmap("a", *image("a-one", 9, 9)).variant("a", 3).variant("a", 5).count()
           .store_bitmap("a", *image("a-two", 9, 9)).count().variant("a", 3).count()
           .store("a", value("raw now")).count().variant("a", 3).metadata("a").close().files())
    yield (Scenario("variants/remove-drops-variants",
                    "Removing an original removes its variants first; other keys' variants stay.",
                    covers=["thumbnail §5.5", "thumbnail §5.6"])
           .store_bitmap("a", *image("a", 8, 8)).store_bitmap("b", *image("b", 8, 8)).variant("a", 3).variant("b", 3)
           .variant("b", 2).remove("a").count().keys().variant("a", 3).variant("b", 3).close().files())
    yield (Scenario("variants/expiry-drops-variants-and-purge-counts-originals",
                    "An expired original goes with its variants, whether a variant request, a read or a purge finds "
                    "it; purge reports the originals it removed, not their variants. A variant of an expired original "
                    "no longer counts in totalByteCount.",
                    timeToLive=1000, covers=["thumbnail §5.5", "thumbnail §5.6", "thumbnail §5.3.2", "cache §4.5"])
           .store_bitmap("a", *image("a", 8, 6)).store_bitmap("b", *image("b", 8, 6)).store_bitmap("c", *image("c", 8, 6))
           .store_bitmap("d", *image("d", 8, 6)).variant("a", 3).variant("a", 4).variant("b", 3).variant("d", 2)
           .variant("c", 3).advance(500).read("c").advance(500).count().variant("a", 3).read("d").count().purge()
           .count().keys().close().files())
    yield (Scenario("variants/eviction-by-count-drops-variants",
                    "Variants do not count towards maximumEntryCount; eviction chooses among originals only and an "
                    "evicted original takes its variants with it.",
                    maximumEntryCount=2, covers=["thumbnail §5.6", "thumbnail §5.5", "cache §6.2.6"])
           .store_bitmap("a", *image("a", 8, 8)).store_bitmap("b", *image("b", 8, 8)).variant("a", 3).variant("a", 2)
           .variant("b", 3).count().store_bitmap("c", *image("c", 8, 8)).count().keys().variant("a", 3)
           .variant("b", 3).close().files())
    a, b, c = image("a", 10, 10), image("b", 10, 10), image("c", 10, 10)
    made = png_size(image("b", 4, 4))  # a 4 x 4 rgb8 variant's PNG
    limit = png_size(a) + png_size(b) + made - 1
    yield (Scenario("variants/eviction-by-size-counts-variant-bytes",
                    "A variant's size counts towards maximumBytes: storing one can evict other originals (never its own "
                    "original), and evicting an original frees its variants' bytes too.",
                    maximumBytes=limit, covers=["thumbnail §5.6", "thumbnail §5.3.4", "cache §6.2.6"])
           .store_bitmap("a", *a).store_bitmap("b", *b).count().variant("b", 4).count().keys().variant("b", 4)
           .store_bitmap("c", *c).count().keys().close().files())
    yield (Scenario("variants/clear-drops-variants", "removeAll removes the variants with everything else.",
                    covers=["thumbnail §5.5"])
           .store_bitmap("a", *image("a", 8, 8)).variant("a", 3).clear().count().variant("a", 3)
           .store_bitmap("a", *image("a-again", 8, 8)).variant("a", 3).close().files())
    yield (Scenario("variants/reopen-and-compaction-keep-variants",
                    "Variants persist like any entry: after reopening and after compaction they are read back, "
                    "with their metadata, and count in totalByteCount.",
                    covers=["thumbnail §5.2", "thumbnail §5.3.3", "cache §5.4"])
           .store_bitmap("a", *image("a", 8, 8)).store_bitmap("b", *image("b", 8, 8)).variant("a", 3).variant("b", 3)
           .remove("b").reopen().count().variant("a", 3).compact().count().variant("a", 3).close().files())
    for scenario in orphans():
        yield scenario
    yield damaged_variant()
    for scenario in variants_after_skipped_damage():
        yield scenario
    yield damaged_original()
    yield large_variant()
    yield (Scenario("variants/invalid-maximum-pixel-size",
                    "A maximum below 1 is invalidMaximumPixelSize, after the key's check and before the lookup (a "
                    "missing key too) and the closed check; it takes no hit.",
                    covers=["thumbnail §5.3.1", "cache §5.5", "cache §2.1"])
           .store_bitmap("a", *image("a", 8, 8)).variant("a", 0).variant("a", -5).variant("missing", 0)
           .variant("", 0).variant("k" * 65536, 3).metadata("a").close().variant("a", 0).variant("a", 3).variant("", 3))
    longest, too_long = "v" * LONGEST_KEY_WITH_VARIANTS, "w" * (LONGEST_KEY_WITH_VARIANTS + 1)
    yield (Scenario("variants/keys-too-long-for-stored-variants",
                    "An original of 65,529 key bytes has stored variants (their keys are 65,535 bytes); one of 65,530 "
                    "has none: each request computes the variant again, and is still a hit.",
                    covers=["thumbnail §5.2", "thumbnail §5.3.4"], thumbnailMaximumPixelSize=2)
           .store_bitmap(longest, *image("longest", 6, 6, "gray8")).store_bitmap(too_long, *image("too-long", 6, 6, "gray8"))
           .variant(longest, 3).variant(too_long, 3).variant(too_long, 3).metadata(too_long).count().close().files())
    yield (Scenario("variants/originals-that-do-not-decode",
                    "A variant is made by decoding the original as bitmap(forKey:) does: raw bytes are "
                    "imageDecodingFailed and an image over the decoding limits imageTooLarge; either way the request "
                    "was a hit and the entry stays.",
                    decodingLimits={"maximumPixelCount": 50}, covers=["thumbnail §5.3.4", "thumbnail §5.3.5"])
           .store("raw", value("not a png")).variant("raw", 3).metadata("raw")
           .store_bitmap("big", *image("big", 10, 10, "gray8")).variant("big", 3).metadata("big").count())
    yield (Scenario("variants/read-only",
                    "A read-only cache returns a held variant without taking a hit, computes a missing one without "
                    "storing it, and treats an expired original as a miss without removing anything.",
                    timeToLive=1000, covers=["thumbnail §5.3.2", "thumbnail §5.3.3", "thumbnail §5.3.4", "cache §5.6"])
           .store_bitmap("a", *image("a", 8, 8)).store_bitmap("b", *image("b", 8, 8)).variant("a", 3).advance(100)
           .reopen(read_only=True).variant("a", 3).metadata("a").variant("b", 3).count().advance(1000)
           .variant("a", 3).reopen(read_only=True).count().reopen().count().close().files())
    s = Scenario("variants/every-pixel-format",
                 "Variants of every pixel format, with alpha, are the bitmaps of Spec/thumbnail.md §2 in the original's format.",
                 covers=["thumbnail §5.1", "thumbnail §5.3.4"])
    for format_name in pngwriter.FORMATS:
        s.store_bitmap(format_name, *image(format_name, 7, 5, format_name)).variant(format_name, 3)
    yield s.count().close().files()
    for scenario in random_variant_sequences():
        yield scenario


def on_key(method):
    """A mix operation that calls a Scenario method with the drawn key."""
    return lambda s, rng, key, step: getattr(s, method)(key)


def on_cache(method):
    """A mix operation that calls a Scenario method without arguments."""
    return lambda s, rng, key, step: getattr(s, method)()


def reopen_read_only(probability):
    return lambda s, rng, key, step: s.reopen(read_only=rng.random() < probability)


RANDOM_VARIANT_SEQUENCES = 60
VARIANT_IMAGES = [(4, 4, "rgb8"), (7, 5, "gray8"), (5, 9, "rgba8"), (6, 6, "gray16"), (3, 2, "grayAlpha8")]


def variant_mix(index):
    """The operations of variant sequence `index` (shared/randomops.py): image and raw stores,
    variant requests at several sizes, and every other operation."""
    def store_image(s, rng, key, step):
        width, height, format_name = rng.choice(VARIANT_IMAGES)
        s.store_bitmap(key, *image(f"{key}-{index}-{step}", width, height, format_name))

    def store_raw(s, rng, key, step):
        s.store(key, value(f"{key}-raw-{index}-{step}", rng.choice([10, 100])))

    return [
        (0.25, store_image),
        (0.30, store_raw),
        (0.55, lambda s, rng, key, step: s.variant(key, rng.choice([1, 2, 3, 4, 100]))),
        (0.60, on_key("read")),
        (0.67, lambda s, rng, key, step: s.advance(rng.choice([1, 100, 299, 300, 700, 1000]))),
        (0.71, on_key("remove")),
        (0.74, on_key("metadata")),
        (0.79, on_cache("count")),
        (0.81, on_cache("keys")),
        (0.84, on_cache("purge")),
        (0.87, on_cache("compact")),
        (0.93, reopen_read_only(0.2)),
        (0.95, on_cache("clear")),
        (None, on_cache("verify")),
    ]


def user_metadata():
    """Spec/cache.md §13: user metadata stored with a value, inspected, replaced and kept."""
    etag, modified = b'"etag-1"', b"Last-Modified: Tue, 24 Nov 2026 21:00:00 GMT"
    longest = value("user metadata at the limit", 4096)
    yield (Scenario("meta/store-read-back", "User metadata stored with a value reads back as it was, the value "
                    "unchanged; a key stored without it has none (empty), an absent key null.")
           .store("a", value("alpha"), etag).store("b", value("beta")).store("c", value("gamma"), longest)
           .user_metadata("a").user_metadata("b").user_metadata("c").user_metadata("d")
           .read("a").read("c").check())
    yield (Scenario("meta/empty-is-absent", "Empty user metadata is no user metadata: stored empty, it reads "
                    "back empty, as a store without it does.")
           .store("a", value("alpha"), b"").user_metadata("a").store("b", value("beta")).user_metadata("b")
           .set_user_metadata("a", b"").user_metadata("a").check())
    yield (Scenario("meta/too-large", "4,097 bytes of user metadata are refused (userMetadataTooLarge) and "
                    "nothing changes: no entry made, an existing entry keeps its value, metadata and user "
                    "metadata; 4,096 bytes are accepted.")
           .store("a", value("alpha"), etag).metadata("a")
           .store("b", value("beta"), bytes(4097)).store("a", value("other"), bytes(4097))
           .set_user_metadata("a", bytes(4097)).set_user_metadata("b", bytes(4097))
           .check().read("b").metadata("a").user_metadata("a").read("a")
           .set_user_metadata("a", longest).user_metadata("a"))
    yield (Scenario("meta/check-order", "The order of the checks: invalidKey, valueTooLarge, "
                    "userMetadataTooLarge, then cacheClosed and readOnly (Spec/cache.md §13.2, §13.4).",
                    maximumBytes=10)
           .store("", value("x"), bytes(4097)).store("a", value("eleven byte"), bytes(4097))
           .set_user_metadata("", bytes(4097)).store("a", value("alpha"), etag).synchronize()
           .reopen(read_only=True).store("b", value("beta"), bytes(4097)).set_user_metadata("a", bytes(4097))
           .store("b", value("beta"), etag).set_user_metadata("a", modified).set_user_metadata("z", modified)
           .user_metadata("a").close()
           .store("b", value("beta"), bytes(4097)).set_user_metadata("a", bytes(4097))
           .store("b", value("beta"), etag).set_user_metadata("a", modified))
    yield (Scenario("meta/read-is-not-a-hit", "Reading and replacing user metadata are not hits: the expiry is "
                    "not extended, no sequence is taken, and the entry expires when it would have.",
                    timeToLive=1000)
           .store("a", value("alpha"), etag).metadata("a").advance(600).user_metadata("a")
           .set_user_metadata("a", modified).metadata("a").advance(399).user_metadata("a").advance(1)
           .user_metadata("a").contains("a").store("b", value("beta")).metadata("b"))
    yield (Scenario("meta/lru-unchanged", "Reading and replacing user metadata do not make an entry recent: "
                    "the least recently used entry is still evicted first.", maximumEntryCount=2)
           .store("a", value("alpha"), etag).store("b", value("beta")).user_metadata("a")
           .set_user_metadata("a", modified).store("c", value("gamma")).check().user_metadata("a")
           .user_metadata("b"))
    yield (Scenario("meta/expired-is-null", "An expired entry has no user metadata (null) and is neither "
                    "reported nor removed by asking: verify still counts it until a purge.", timeToLive=1000)
           .store("a", value("alpha"), etag).advance(1000).user_metadata("a").verify().purge().verify())
    yield (Scenario("meta/set-on-absent-or-expired", "Setting user metadata with no live entry changes "
                    "nothing and answers false: an absent key, a removed one, an expired one.",
                    timeToLive=1000)
           .set_user_metadata("a", etag).user_metadata("a").contains("a").count()
           .store("b", value("beta")).remove("b").set_user_metadata("b", etag).user_metadata("b")
           .store("c", value("gamma"), etag).advance(1000).set_user_metadata("c", modified).verify()
           .user_metadata("c").metadata("c").check())
    yield (Scenario("meta/set-replaces", "Setting user metadata replaces it without touching the value or the "
                    "metadata (createdAt, expiresAt, accessSequence).", timeToLive=10_000)
           .store("a", value("alpha"), etag).metadata("a").advance(10).set_user_metadata("a", modified)
           .user_metadata("a").metadata("a").read("a").metadata("a").set_user_metadata("a", b"")
           .user_metadata("a").set_user_metadata("a", longest).user_metadata("a").read("a").check())
    yield (Scenario("meta/overwrite-without-clears", "A store without user metadata gives the new entry none, "
                    "and a store with it replaces the old.")
           .store("a", value("one"), etag).store("a", value("two")).user_metadata("a").read("a")
           .store("a", value("three"), modified).user_metadata("a").synchronize().reopen().user_metadata("a"))
    yield (Scenario("meta/survives-a-hit", "A hit (a read) keeps the entry's user metadata.", timeToLive=1000)
           .store("a", value("alpha"), etag).advance(500).read("a").metadata("a").user_metadata("a")
           .advance(900).user_metadata("a"))
    yield (Scenario("meta/survives-reopen", "User metadata, stored and replaced, survives closing and opening "
                    "again, writable and read-only; a value over the hybrid threshold keeps it too.")
           .store("a", value("alpha"), etag).store("b", value("beta")).set_user_metadata("b", modified)
           .store("c", pattern("external", 200_000), longest).store("d", value("delta"))
           .reopen().user_metadata("a").user_metadata("b").user_metadata("c").user_metadata("d").read("c")
           .reopen(read_only=True).user_metadata("a").user_metadata("b").user_metadata("c").read("a")
           .reopen().set_user_metadata("a", b"").close().reopen().user_metadata("a").user_metadata("b"))
    yield (Scenario("meta/survives-compaction", "Compaction keeps every entry's user metadata, the latest "
                    "of a key stored twice or replaced, and drops none with the superseded records.")
           .store("a", value("one"), etag).store("a", value("two"), modified).store("b", value("beta"))
           .set_user_metadata("b", etag).set_user_metadata("b", longest)
           .store("c", pattern("external", 200_000), etag).store("d", value("delta"), etag).remove("d")
           .compact().user_metadata("a").user_metadata("b").user_metadata("c").user_metadata("d")
           .read("a").reopen().user_metadata("a").user_metadata("b").user_metadata("c").check())
    yield (Scenario("meta/removed-with-entry", "Removal, eviction, purge and clear remove the user metadata with "
                    "the entry: a key stored again without it has none.", timeToLive=1000, maximumEntryCount=2)
           .store("a", value("alpha"), etag).remove("a").user_metadata("a").store("a", value("alpha"))
           .user_metadata("a").store("b", value("beta"), etag).store("c", value("gamma"), etag)
           .user_metadata("a").user_metadata("b").store("a", value("alpha")).user_metadata("a")
           .advance(1000).purge().user_metadata("c").store("c", value("gamma")).user_metadata("c")
           .store("d", value("delta"), modified).clear().user_metadata("d").store("d", value("delta"))
           .user_metadata("d"))
    s = only(list(backendfiles.LOG_NAMES), Scenario(
        "meta/damaged-user-metadata", "User metadata that fails its checksum on disk makes the entry corrupt "
        "when it is read: a read-only cache throws corruptEntry and keeps the entry; a writable one throws and "
        "removes it, so the next read of it misses. Other entries and their user metadata are unaffected.",
        covers=["cache §13.3", "cache §8.2", "store §13.1", "store §13.4"]))
    s.requires = ["storeFormat3"]  # the runner damages the log's user-metadata block (Spec/conformance.md §5.1)
    s.store("a", value("alpha"), etag).store("b", value("beta"), modified).close().damage_first_user_metadata("a")
    yield (s.reopen(read_only=True).user_metadata("a").count().user_metadata("a").user_metadata("b").read("b")
           .reopen().user_metadata("a").contains("a").user_metadata("a").read("a").check().user_metadata("b")
           .store("a", value("alpha again"), etag).user_metadata("a").read("a"))


def random_variant_sequences(count=RANDOM_VARIANT_SEQUENCES, seed=20261124):
    """Seeded random sequences mixing variant requests and image stores with every other
    operation under random limits, each step checked against the model (as random.json does
    for the cache alone); every fifth ends with the files."""
    for index in range(count):
        rng = random.Random(seed + index)
        configuration = {}
        if rng.random() < 0.5:
            configuration["timeToLive"] = rng.choice([300, 1000])
        if rng.random() < 0.4:
            configuration["maximumBytes"] = rng.choice([400, 800, 1500])
        if rng.random() < 0.4:
            configuration["maximumEntryCount"] = rng.choice([1, 2, 3])
        if rng.random() < 0.4:
            configuration["thumbnailMaximumPixelSize"] = rng.choice([2, 3])
        s = Scenario(f"variants/random-{index:02d}",
                     f"Random sequence {index} (seed {seed + index}) of variant requests among the other operations, "
                     "checked step by step against the model.",
                     covers=["thumbnail §5.3", "thumbnail §5.5", "thumbnail §5.6", "thumbnail §5.4"], **configuration)
        run_mix(s, rng, rng.randrange(15, 40), ["a", "b", "c"], variant_mix(index), reopen_while_read_only=(0.4, 0.3))
        if s.model.read_only:
            s.reopen()
        s.count().keys()
        if index % 5 == 0:
            s.close().files()
        yield s


def variant_configurations():
    """Spec/thumbnail.md §5.4: thumbnailMaximumPixelSize is a u32 of at least 1."""
    for label, size in [("zero", 0), ("negative", -1), ("over-u32", 1 << 32)]:
        yield {"name": f"variants/invalid-configuration-thumbnail-size-{label}",
               "note": "Opening with a thumbnailMaximumPixelSize outside 1 … 2^32 − 1 fails.",
               "covers": ["thumbnail §5.4", "cache §3.1"],
               "steps": [{"request": {"op": "cache.open", "now": T0, "configuration": {"thumbnailMaximumPixelSize": size}},
                          "expect": {"error": "invalidConfiguration"}}]}
    yield (Scenario("variants/largest-thumbnail-size", "thumbnailMaximumPixelSize 2^32 − 1 is valid; every image fits it.",
                    thumbnailMaximumPixelSize=(1 << 32) - 1, covers=["thumbnail §5.4"])
           .store_bitmap("a", *image("a", 8, 8)).count().variant("a", (1 << 32) - 1).close().files()).case()


def orphans():
    """Spec/thumbnail.md §5.5: variants whose original is gone, as a crash between the steps of a
    removal can leave them, made by the runner in each backend's own files."""
    for backend in BACKENDS:
        s = only([backend], Scenario(f"variants/orphans-removed-on-writable-open-{backend}",
                                     "The files lose an original but keep its variants (the runner edits them): a read-only "
                                     "open ignores the orphans (not counted, no variant of a missing original); a writable "
                                     "open removes them.",
                                     covers=["thumbnail §5.5", "thumbnail §5.6"]))
        s.store_bitmap("a", *image("a", 8, 8)).store_bitmap("b", *image("b", 8, 8)).variant("a", 3).variant("a", 4)
        s.variant("b", 3).close()
        if backend == "dictionary":
            held = s.model.held()
            del held["a"]
            s.damage_path("cache.dictionary", write=b64(backendfiles.dictionary_file(held)))
        elif backend == "directory":
            s.damage_path("entries/" + backendfiles.file_name("a"), remove=True)
        else:
            s.damage_path(backendfiles.LOG_NAMES[backend], append=b64(storewriter.remove(b"a")))
        s.model.orphan("a")
        s.reopen(read_only=True).count().keys().variant("a", 3).variant("b", 3).reopen().count().keys()
        s.variant("a", 3).close().files()
        yield s


def variants_after_skipped_damage():
    """Spec/thumbnail.md §5.9: a log that skipped damage trusts no stored variant. The damage is a
    variant's remove record whose lengths lead nowhere, so the log skips it to the next chain
    (Spec/store.md §5.4 rule 2) and the variant of the replaced image is held again."""
    for backend in backendfiles.LOG_NAMES:
        s = only([backend], Scenario(
            f"variants/after-skipped-damage-{backend}",
            "An image, its variant, then a new image under the same key (its store removes the variant); the "
            "variant's remove record is damaged, so the open skips it and the old variant is held again beside the "
            "new image. Since the open skipped damage no stored variant is trusted: read-only, the variant is made "
            "from the new image and not stored; a writable open removes every stored variant, and the request "
            "makes and stores it again.",
            covers=["thumbnail §5.9", "store §5.4.2", "backends §4.1"]))
        s.store_bitmap("a", *image("a-one", 9, 9)).store_bitmap("b", *image("b", 9, 9)).variant("a", 3).variant("b", 3)
        replaced = s.model.variants["a"][3]
        s.store_bitmap("a", *image("a-two", 9, 9)).close()
        s.damage_path(backendfiles.LOG_NAMES[backend] + ".hint", remove=True)
        s.damage_log_record(storewriter.REMOVE, variant_key("a", 3), 24, 0x10)
        s.model.restore_variant("a", 3, replaced)
        s.reopen(read_only=True, damage_skipped=True).variant("a", 3).variant("b", 3).count()
        s.reopen(damage_skipped=True).count().variant("a", 3).variant("b", 3).metadata("a").count().close().files()
        yield s


def damaged_variant():
    """Spec/thumbnail.md §5.3 step 3 and §5.6 (verify)."""
    s = Scenario("variants/damaged-variant-is-removed-and-made-again",
                 "A variant whose bytes are damaged is reported by verify under its original's key (after every damaged "
                 "original) and, when requested, removed and made again from the original; the request is one hit. "
                 "A read-only cache makes it without storing it and keeps the damaged one.",
                 covers=["thumbnail §5.3.3", "thumbnail §5.6", "cache §8.4"])
    s.store_bitmap("a", *image("a", 9, 7)).store("b", value("bravo", 64)).variant("a", 3).variant("a", 4).close()
    s.damage_variant("a", 3).damage_value("b").reopen(read_only=True).verify().variant("a", 3).verify()
    s.reopen().verify().advance(50).variant("a", 3).metadata("a")
    s.variant("a", 4).verify().read("b").verify().count().compact().close().files()
    return s


def damaged_variant_made_again():
    """Spec/thumbnail.md §5.3 step 3: a damaged variant is removed before it is made again, which
    only the files show (a remove record in a log), so they are checked without a compaction."""
    s = Scenario("variants/damaged-variant-removed-before-it-is-made-again",
                 "A damaged variant, when requested, is removed (a remove record in a log) and made again from the "
                 "original: the files after the request, not compacted, show the removal, the original's hit, then the "
                 "new variant.",
                 covers=["thumbnail §5.3.3", "thumbnail §5.3.5", "thumbnail §5.5"])
    s.store_bitmap("a", *image("a", 9, 7)).variant("a", 3).close().damage_variant("a", 3).reopen()
    return s.variant("a", 3).metadata("a").close().files()


def damaged_original():
    s = Scenario("variants/damaged-original-serves-a-held-variant",
                 "A held variant answers without reading the original (§5.3 step 3), even when the original's bytes are "
                 "damaged; a request that must read the original finds it corrupt and removes it with its variants.",
                 covers=["thumbnail §5.3.3", "thumbnail §5.3.4", "thumbnail §5.5", "cache §8.2"])
    s.store_bitmap("a", *image("a", 9, 7)).variant("a", 3).close().damage_value("a").reopen()
    s.variant("a", 3).metadata("a").variant("a", 4).variant("a", 3).count().compact().close().files()
    return s


def large_variant():
    """A variant of at least 128 KiB is an external file of the hybrid backend (thumbnail §5.2),
    named with accessSequence 0 however often it is made again (backends §5.3)."""
    big = (364, 363, "gray8", pattern("large-original", 364 * 363))
    again = (364, 363, "gray8", pattern("large-original-again", 364 * 363))
    s = Scenario("variants/large-variant-made-again-keeps-its-file",
                 "A 363 x 362 gray8 thumbnail (over the hybrid threshold) is stored, replaced by the thumbnail of a new "
                 "image, then damaged and made again: each time under the same external file name, which must hold the "
                 "new variant, not be deleted as superseded.",
                 thumbnailMaximumPixelSize=363, covers=["thumbnail §5.2", "thumbnail §5.3.3", "thumbnail §5.4",
                                                         "backends §5.1", "backends §5.3"])
    s.store_bitmap("big", *big).variant("big", 363).store_bitmap("big", *again).synchronize().count().close()
    s.damage_variant("big", 363).reopen().variant("big", 363).compact().close().files()
    return s


RANDOM_SEQUENCES = 1000
RANDOM_KEYS = ["a", "b", "c", "d", "ключ", "a\u0000", "ab", "B"]


def store_random(s, rng, key, step):
    size = rng.choice([0, 1, 7, 30, 100, 200])
    s.store(key, value(f"{key}-{rng.randrange(1000)}", size))


def read_held_as_bitmap(s, rng, key, step):
    """Raw bytes read as an image (imageDecodingFailed, still a hit), or a plain read of a key
    the cache does not hold."""
    if key in s.model.entries:
        s.read_bitmap_not_png(key)
    else:
        s.read(key)


# The operations of the cache sequences (shared/randomops.py).
CACHE_MIX = [
    (0.30, store_random),
    (0.50, on_key("read")),
    (0.58, lambda s, rng, key, step: s.advance(rng.choice([0, 1, 99, 299, 300, 500, 999, 1000, 1600]))),
    (0.63, on_key("remove")),
    (0.67, on_key("metadata")),
    (0.70, on_key("contains")),
    (0.74, on_cache("count")),
    (0.77, on_cache("keys")),
    (0.80, on_cache("purge")),
    (0.83, on_cache("compact")),
    (0.89, reopen_read_only(0.15)),
    (0.91, on_cache("clear")),
    (0.94, on_cache("synchronize")),
    (0.97, on_cache("verify")),
    (None, read_held_as_bitmap),
]


def random_sequences(count=RANDOM_SEQUENCES, seed=20261123):
    """Spec/conformance.md §7.3: seeded random sequences that mix every operation; each step's
    response comes from the model. Each sequence uses its own seed (seed + index), so one can
    be regenerated alone."""
    for index in range(count):
        rng = random.Random(seed + index)
        configuration = {}
        if rng.random() < 0.6:
            configuration["timeToLive"] = rng.choice([1, 300, 1000])
        if rng.random() < 0.3:
            configuration["maximumAge"] = rng.choice([500, 1500])
        if rng.random() < 0.4:
            configuration["maximumBytes"] = rng.choice([0, 64, 400])
        if rng.random() < 0.4:
            configuration["maximumEntryCount"] = rng.choice([1, 3, 5])
        s = Scenario(f"random/{index:04d}", f"Random sequence {index} (seed {seed + index}) checked step by step against the model.",
                     covers=["cache §2.5", "cache §4.3", "cache §6.2", "cache §4.5", "cache §5.1"], **configuration)
        run_mix(s, rng, rng.randrange(10, 40), RANDOM_KEYS, CACHE_MIX, reopen_while_read_only=(0.5, 0.3))
        if s.model.read_only:
            s.reopen()
        s.count().keys()
        if index % 10 == 0:
            s.close().files()
        yield s


# The file each case goes to, by the first part of its name.
FILES = {"basic": "basic.json", "expiry": "expiry.json", "evict": "eviction.json", "persist": "persistence.json",
         "corrupt": "corruption.json", "files": "files.json", "counter": "counter.json", "lifecycle": "lifecycle.json",
         "damage": "damage.json", "format1": "format1.json", "example": "example.json", "variants": "variants.json",
         "meta": "metadata.json"}


def main():
    os.makedirs(OUT, exist_ok=True)
    scenarios = [basics(), invalid_configurations(), expiration(), eviction(), persistence(), corruption(), files(),
                 counter(), lifecycle(), damaged_files(), format_one(), worked_example(), variants(),
                 variant_configurations(), item_decisions(), damage_never_blessed(), uncaught_wrong_behaviour(),
                 user_metadata()]
    groups = {name: [] for name in FILES.values()}
    for made in scenarios:
        for scenario in made:
            case = scenario if isinstance(scenario, dict) else scenario.case()
            groups[FILES[case["name"].split("/")[0]]].append(case)
    for file_name, cases in groups.items():
        write_case_file(os.path.join(OUT, file_name), "cache", "Cache scenarios (Spec/cache.md), each run on every backend.",
                        cases, ascii_only=False)
    # The random sequences, compact: one case per line.
    write_case_lines(os.path.join(OUT, "random.json"), "cache",
                     "Seeded random sequences checked against the model (Spec/conformance.md §7.3).",
                     [s.case() for s in random_sequences()])


if __name__ == "__main__":
    main()
