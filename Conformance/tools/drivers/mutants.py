"""Deliberately wrong variants of the Python implementation (drivers/model_driver.py), for the
mutation check of the suite (checks/check_mutants.py, run by .ci/run).

Each mutant changes one rule in the models the way a plausible bug would, at least one per rule
class; the suite must fail with every one of them, on the cases of its selection. The models
stay right: a mutant is applied only to the driver's process (`--mutant NAME`), by replacing one
function or method.
"""


class Mutant:
    def __init__(self, name, rule_class, selection, summary, apply):
        self.name, self.rule_class, self.selection, self.summary, self.apply = (
            name, rule_class, selection, summary, apply)


MUTANTS = {}
_applied = []


def mutant(name, rule_class, selection, summary):
    """Registers the decorated function as the mutant `name`; `selection` are the runner's
    arguments for the cases that must catch it."""
    def register(apply):
        MUTANTS[name] = Mutant(name, rule_class, selection.split(), summary, apply)
        return apply
    return register


def apply(name):
    if name not in MUTANTS:
        raise SystemExit(f"model_driver: no mutant {name}; --list-mutants names them")
    MUTANTS[name].apply()
    _applied.append(name)


def label():
    return " with mutant " + ", ".join(_applied) if _applied else ""


# -- the mutants, one rule each ------------------------------------------------------------------
# Imported here, not at the top: a mutant patches the module object every other module uses.
from models import backends, cachemodel, downsampler, inflate, logstore, pngdecoder, recordchecksum  # noqa: E402
from models.cachemodel import CacheError, CacheModel  # noqa: E402


@mutant("png-paeth-ties-prefer-upper-left", "png", "--filter png/decode/",
        "a Paeth tie between the byte above and the one above-left picks the upper left (Spec/png.md §6.3: a, b, c)")
def _():
    def unfilter(kind, row, above, bpp):
        if kind != 4:
            return original(kind, row, above, bpp)
        for i in range(len(row)):
            a = row[i - bpp] if i >= bpp else 0
            b, c = above[i], (above[i - bpp] if i >= bpp else 0)
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else (c if pc <= pb else b))) & 0xFF
    original = pngdecoder.unfilter
    pngdecoder.unfilter = unfilter


@mutant("png-ancillary-crc-unchecked", "png", "--filter png/error/crc-mismatch",
        "an ancillary chunk's CRC is not checked (Spec/png.md §4.3 rule 5)")
def _():
    import zlib
    original = pngdecoder.decode

    def decode(png, *limits):
        # Every ancillary chunk's stored CRC is made to match before decoding.
        fixed, offset = bytearray(png), 8
        while offset + 12 <= len(fixed):
            length = int.from_bytes(fixed[offset:offset + 4], "big")
            end = offset + 12 + length
            if end > len(fixed):
                break
            if fixed[offset + 4] & 0x20:
                fixed[end - 4:end] = (zlib.crc32(bytes(fixed[offset + 4:end - 4])) & 0xFFFFFFFF).to_bytes(4, "big")
            if fixed[offset + 4:offset + 8] == b"IEND":
                break
            offset = end
        return original(bytes(fixed), *limits)
    pngdecoder.decode = decode


@mutant("deflate-adler-unchecked", "deflate", "--filter png/error/",
        "the zlib trailer's Adler-32 is read but not compared (Spec/deflate.md §2.4)")
def _():
    def zlib_decompress(data, limit):
        if len(data) < 2:
            raise inflate.InflateError("truncatedInput")
        cmf, flg = data[0], data[1]
        if cmf & 0x0F != 8 or cmf >> 4 > 7 or (cmf * 256 + flg) % 31 != 0:
            raise inflate.InflateError("invalidZlibHeader")
        if flg & 0x20:
            raise inflate.InflateError("presetDictionaryUnsupported")
        bits = inflate.Bits(data, 2)
        output = bytearray()
        inflate.inflate_raw(bits, output, limit)
        bits.align()
        if len(data) - bits.byte_offset < 4:
            raise inflate.InflateError("truncatedInput")
        return bytes(output)
    pngdecoder.zlib_decompress = zlib_decompress


@mutant("thumbnail-rounds-down", "thumbnail", "--filter png/downsample/",
        "an area's average is rounded down instead of half up (Spec/thumbnail.md §2.6)")
def _():
    downsampler.round_half_up = lambda p, q: p // q


@mutant("checksum-without-scrambling", "checksum", "--filter store/valid/",
        "inputs of more than 1,024 bytes are hashed without scrambling the accumulators (Spec/checksum.md §6.4)")
def _():
    recordchecksum._scramble = lambda acc: None


@mutant("store-touch-of-an-absent-key-appends", "store format", "--filter store/write/",
        "touching a key the store does not hold appends a touch record (Spec/store.md §3.3 rule 5)")
def _():
    def touch(self, key, meta):
        self.check_writable()
        self.append(logstore.w.touch(key, *meta))
        if key in self.index:
            entry = self.index[key]
            entry.created, entry.expires, entry.sequence, entry.untouched = *meta, False
    logstore.LogStore.touch = touch


@mutant("store-torn-tail-kept", "store recovery", "--filter store/torn/",
        "a writable open leaves a torn tail in the file (Spec/store.md §5.3 rule 4)")
def _():
    logstore.LogStore.cut_tail = lambda self, end: None


@mutant("store-middle-damage-cut", "store recovery", "--filter store/corrupt/",
        "damage to synchronized data is cut off like a tail (Spec/store.md §5.3 rule 3)")
def _():
    logstore.LogStore.invalid_record = lambda self, data, offset, index: None


@mutant("store-torn-tail-refused", "store recovery", "--filter store/sync/",
        "the whole log is taken as synchronized (the sync mark is not consulted), so a write torn after "
        "the mark is refused as corruptRecord or kept (Spec/store.md §5.3 rule 5)")
def _():
    logstore.LogStore.load_sync_mark = lambda self: 1 << 63


@mutant("store-tail-value-unchecked", "store recovery", "--filter store/sync/",
        "a record that ends after the durable length is accepted on its header alone, its value not "
        "checked (Spec/store.md §5.3 rule 5)")
def _():
    logstore.LogStore.value_matches = staticmethod(lambda data, offset, key_length, end: True)


@mutant("store-sync-mark-generation-unchecked", "store recovery", "--filter store/sync/",
        "a sync mark of another log (another generation) is used (Spec/store.md §4.1)")
def _():
    original = logstore.LogStore.load_sync_mark

    def load_sync_mark(self):
        generation = self.generation
        try:
            with open(self.path + ".sync", "rb") as f:
                mark = f.read(16)
            if len(mark) == 16:
                self.generation = logstore.u64(mark, 8)
        except OSError:
            pass
        try:
            return original(self)
        finally:
            self.generation = generation
    logstore.LogStore.load_sync_mark = load_sync_mark


@mutant("store-damaged-put-keeps-older-value", "store recovery", "--filter store/skip/",
        "a damaged put skipped alone leaves its key's earlier value in place (Spec/store.md §5.4 rule 1)")
def _():
    original = logstore.LogStore.skip_damage

    def skip_damage(self, data, offset, index):
        if data[offset + 16] != logstore.PUT:
            return original(self, data, offset, index)
        held = dict(index)
        resume = original(self, data, offset, index)
        index.clear()
        index.update(held)
        return resume
    logstore.LogStore.skip_damage = skip_damage


@mutant("store-damage-skipped-to-any-valid-header", "store recovery", "--filter store/skip/",
        "after damage whose lengths lead nowhere the scan goes on at the first valid record header, not "
        "where valid records chain to the durable length (Spec/store.md §5.4 rules 2-3)")
def _():
    def chain_start(self, data, offset):
        for candidate in range(offset + 1, self.durable):
            if self.record_at(data, candidate) is not None:
                return candidate
        return self.durable
    logstore.LogStore.chain_start = chain_start


@mutant("snapshot-generation-unchecked", "snapshot", "--filter store/snapshot/",
        "a snapshot of another log (another generation) is used (Spec/store.md §4)")
def _():
    original = logstore.LogStore.load_snapshot

    def load_snapshot(self, data):
        generation = self.generation
        try:
            with open(self.path + ".hint", "rb") as f:
                hint = f.read(24)
            if len(hint) == 24:
                self.generation = logstore.u64(hint, 16)
        except OSError:
            pass
        try:
            return original(self, data)
        finally:
            self.generation = generation
    logstore.LogStore.load_snapshot = load_snapshot


@mutant("compaction-blesses-a-damaged-header", "compaction", "--filter store/compact/",
        "compaction rewrites a touched record with a fresh value checksum, whatever its header (Spec/store.md §7.1)")
def _():
    logstore.LogStore.rewritten_checksum = staticmethod(
        lambda key, record: recordchecksum.record_checksum(bytes(record[56 + len(key):])))


@mutant("expired-only-after-expiry", "cache expiry", "--filter cache/expiry/ --backend log",
        "an entry is expired only when now > expiresAt (Spec/cache.md §4.1)")
def _():
    CacheModel.expired = lambda self, entry: self.now > entry.expires


@mutant("miss-takes-a-sequence", "counter", "--filter cache/counter/ --backend dictionary",
        "a miss takes an access sequence number (Spec/cache.md §2.5)")
def _():
    original = CacheModel.live_entry

    def live_entry(self, key):
        entry = original(self, key)
        if entry is None and not self.read_only:
            self.next_sequence()
        return entry
    CacheModel.live_entry = live_entry


@mutant("evict-the-entry-just-stored-for-its-variant", "limits",
        "--filter cache/variants/ --backend directory",
        "the entry just stored goes when its own thumbnail or variant puts the cache over maximumBytes "
        "(Spec/cache.md §6.6)")
def _():
    def evict_for(self, key):
        evicted = []
        if self.over_limit():
            self.remove_expired()
            while self.over_limit() and self.entries:
                victim = self.lru_order()[0]
                self.drop(victim)
                evicted.append(victim)
        return evicted
    CacheModel.evict_for = evict_for


@mutant("corrupt-entry-as-miss", "corruption", "--filter cache/corrupt/ --backend hybrid",
        "a corrupt entry is removed and read as a miss, not corruptEntry (Spec/cache.md §8.2)")
def _():
    original = CacheModel.read

    def read(self, key):
        try:
            return original(self, key)
        except CacheError as error:
            if error.name != "corruptEntry":
                raise
            return None
    CacheModel.read = read


@mutant("dictionary-blesses-damage", "dictionary files", "--filter cache/corrupt/ --backend dictionary",
        "a rewrite of the dictionary writes a damaged value with a fresh checksum (Spec/backends.md §2.3)")
def _():
    def synchronize(self, held):
        if not self.changed:
            return
        good = sorted(held.items())
        body = b"".join(backends.entry_record(k, h.value, h.meta) for k, h in good)
        backends.replace_file(self.path("cache.dictionary"),
                              b"ICDICT01" + backends.struct.pack("<II", 2, len(good)) + body)
        self.changed = False
    backends.DictionaryBackend.synchronize = synchronize


@mutant("directory-adopts-misnamed-files", "directory files", "--filter cache/damage/directory- --backend directory",
        "an entry file is adopted under its key whatever its name (Spec/backends.md §3.4)")
def _():
    backends.DirectoryBackend.attributable = staticmethod(lambda key, name: True)


@mutant("log-no-snapshot-at-close", "log files", "--filter cache/files/ --backend log",
        "a clean close writes no snapshot (Spec/store.md §4)")
def _():
    def close(self):
        self.closed = True
    logstore.LogStore.close = close


@mutant("hybrid-superseded-deleted-at-once", "hybrid files", "--filter cache/files/ --backend hybrid",
        "a replaced or removed external file is deleted at once, before the record that supersedes it is "
        "durable (Spec/backends.md §5.3)")
def _():
    original = backends.HybridBackend.apply

    def apply(self, event, held):
        original(self, event, held)
        if event[0] in ("put", "remove"):
            for name in self.superseded:
                backends.remove(self.external(name))
            self.superseded.clear()
    backends.HybridBackend.apply = apply


@mutant("links-followed", "links", "--filter cache/damage/ --backend hybrid",
        "a link inside external/ is read through (Spec/backends.md §1.6, §5.4)")
def _():
    def read_file(path):
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None
    backends.read_file = read_file


@mutant("no-folder-lock", "locking", "--filter cache/lifecycle/ --backend log",
        "a writable open takes no lock, so a second writer opens beside the first (Spec/backends.md §1.5)")
def _():
    class NoLocks:
        LOCK_EX = LOCK_NB = 0

        @staticmethod
        def flock(descriptor, operation):
            pass
    backends.fcntl = NoLocks


@mutant("read-only-stores", "read-only", "--filter cache/lifecycle/ --backend directory",
        "a read-only cache accepts stores and removals (Spec/cache.md §5.6)")
def _():
    CacheModel.check_writable = lambda self: None


@mutant("variant-stored-before-the-hit", "variants", "--filter cache/variants/ --backend log",
        "a variant request stores the variant before it records the original's hit (Spec/thumbnail.md §5.3 step 5)")
def _():
    original = CacheModel.variant

    def variant(self, key, maximum):
        start = len(self.journal)
        try:
            return original(self, key, maximum)
        finally:
            made = self.journal[start:]
            self.journal[start:] = [e for e in made if e[0] != "touch"] + [e for e in made if e[0] == "touch"]
    CacheModel.variant = variant


@mutant("variants-trusted-after-skipped-damage", "variants", "--filter cache/variants/ --backend log",
        "a cache whose log skipped damaged records on open goes on trusting its stored variants "
        "(Spec/thumbnail.md §5.9)")
def _():
    original = CacheModel.open
    CacheModel.open = lambda self, read_only=False, damage_skipped=False: original(self, read_only)


@mutant("damaged-variant-not-removed", "variants", "--filter cache/variants/ --backend hybrid",
        "a damaged variant is made again without being removed first (Spec/thumbnail.md §5.3 step 3)")
def _():
    def drop_variant(self, key, maximum):
        del self.variants[key][maximum]
        if not self.variants[key]:
            del self.variants[key]
    CacheModel.drop_variant = drop_variant
