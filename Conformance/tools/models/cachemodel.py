"""An independent model of the cache rules of Spec/cache.md, used to compute the expected
response of every step of the cache scenarios (Spec/conformance.md §7).

Time is integer milliseconds; an entry is expired at `now` iff now >= expiresAt. Sums of times
saturate at Int64.max (Spec/cache.md §3.4). The model also keeps a journal of what it asks of
the backend (put, touch, remove, clear, compact, synchronize), from which writers/backendfiles.py
computes each backend's files.

Variants (Spec/thumbnail.md §5) are entries of their own under byte-string keys (FF 56, M as a
big-endian u32, the original's key bytes), held per original in `variants`; the journal names
them by those bytes, so writers/backendfiles.py renders them as any other entry.
"""
import struct

from models import downsampler
from writers import pngwriter

INT64_MAX = 2 ** 63 - 1
VARIANT_PREFIX = b"\xff\x56"
LONGEST_KEY_WITH_VARIANTS = 65_535 - 6  # Spec/thumbnail.md §5.2


MAXIMUM_USER_METADATA = 4096  # §13.1: ImageCache.maximumUserMetadataByteCount


class CacheError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


def utf8(key):
    return key.encode("utf-8")


def variant_key(key, maximum):
    """Spec/thumbnail.md §5.2: FF 56, M as a big-endian u32, then the original's key bytes."""
    return VARIANT_PREFIX + struct.pack(">I", maximum) + utf8(key)


def downsampled(bitmap, maximum):
    """The bitmap fitted to `maximum` (Spec/thumbnail.md §1, §2), or None when it already fits."""
    width, height, format_name, pixels = bitmap
    if downsampler.target_size(width, height, maximum) == (width, height):
        return None
    w, h, out = downsampler.downsample(width, height, format_name, pixels, maximum)
    return (w, h, format_name, out)


def saturating_add(a, b):
    """Spec/cache.md §3.4: a ⊕ b is a + b, or Int64.max when the sum overflows."""
    return min(a + b, INT64_MAX)


class Entry:
    def __init__(self, value, created, expires, sequence, bitmap=None):
        self.value = value
        self.bitmap = bitmap  # (width, height, format, pixels) of an image store; None for raw bytes
        self.created = created
        self.expires = expires
        self.sequence = sequence
        self.stored = (created, expires, sequence)  # the metadata at the store
        self.corrupt = False
        self.counted = None  # the size it counts with when damage changed it (backends §5.6)
        self.user_metadata = b""  # §13: opaque bytes kept with the entry, empty when none
        self.user_metadata_corrupt = False  # its stored user metadata fails its checksum (§13.3)

    @property
    def size(self):
        return len(self.value) if self.counted is None else self.counted

    @property
    def meta(self):
        return (self.created, self.expires, self.sequence)


class Variant:
    """A stored variant (Spec/thumbnail.md §5.2): its canonical PNG, its bitmap, and the fixed
    metadata (createdAt = when it was stored, expiresAt = Int64.max, accessSequence = 0)."""

    def __init__(self, bitmap, created):
        self.bitmap = bitmap
        self.value = pngwriter.canonical_encode(*bitmap)
        self.created = created
        self.corrupt = False

    @property
    def size(self):
        return len(self.value)

    @property
    def meta(self):
        return (self.created, INT64_MAX, 0)


class CacheModel:
    """The observable behaviour of one cache: §2.5 the counter, §4 expiration, §5 lifecycle,
    §6 limits and eviction, §8 corruption."""

    def __init__(self, now, timeToLive=None, maximumAge=None, maximumBytes=None, maximumEntryCount=None,
                 readOnly=False, decodingLimits=None, thumbnailMaximumPixelSize=None):
        self.now = now
        self.ttl = timeToLive
        self.max_age = maximumAge
        self.max_bytes = maximumBytes
        self.max_count = maximumEntryCount
        self.read_only = readOnly
        self.thumbnail = thumbnailMaximumPixelSize
        self.decoding_limit = (decodingLimits or {}).get("maximumPixelCount")
        self.entries = {}
        self.variants = {}  # original key -> {M: Variant}; an original may be gone (an orphan)
        self.next = 1  # §2.5: an empty new cache starts the counter at 1
        self.journal = []
        self.closed = False
        self.variants_untrusted = False  # Spec/thumbnail.md §5.9, a read-only cache after skipped damage

    # -- rules --------------------------------------------------------------------------------
    def expired(self, entry):
        return self.now >= entry.expires

    def next_sequence(self):
        value = self.next
        self.next += 1
        return value

    def expiry_for_store(self):
        """§4.2: min(now ⊕ timeToLive, now ⊕ maximumAge), an unset setting giving Int64.max."""
        expires = INT64_MAX
        if self.ttl is not None:
            expires = min(expires, saturating_add(self.now, self.ttl))
        if self.max_age is not None:
            expires = min(expires, saturating_add(self.now, self.max_age))
        return expires

    def expiry_for_hit(self, entry):
        """§4.3 step 5."""
        expires = saturating_add(self.now, self.ttl) if self.ttl is not None else entry.expires
        if self.max_age is not None:
            expires = min(expires, saturating_add(entry.created, self.max_age))
        return expires

    def held_bytes(self):
        """Spec/cache.md §6.1 with Spec/thumbnail.md §5.6: every held entry's size, variants
        included."""
        return (sum(e.size for e in self.entries.values())
                + sum(v.size for sizes in self.variants.values() for v in sizes.values()))

    def over_limit(self):
        # Variants count towards maximumBytes, not towards maximumEntryCount (thumbnail §5.6).
        if self.max_count is not None and len(self.entries) > self.max_count:
            return True
        if self.max_bytes is not None and self.held_bytes() > self.max_bytes:
            return True
        return False

    def lru_order(self):
        return sorted(self.entries, key=lambda k: (self.entries[k].sequence, utf8(k)))

    def drop(self, key):
        """Removes an original, its variants first (Spec/thumbnail.md §5.5)."""
        self.drop_variants(key)
        del self.entries[key]
        self.journal.append(("remove", key))

    def drop_variants(self, key):
        """Removes every variant of `key`, in ascending order of M (thumbnail §5.5)."""
        for maximum in sorted(self.variants.pop(key, {})):
            self.journal.append(("remove", variant_key(key, maximum)))

    def drop_variant(self, key, maximum):
        del self.variants[key][maximum]
        if not self.variants[key]:
            del self.variants[key]
        self.journal.append(("remove", variant_key(key, maximum)))

    def put_variant(self, key, maximum, bitmap):
        variant = Variant(bitmap, self.now)
        self.variants.setdefault(key, {})[maximum] = variant
        self.journal.append(("put", variant_key(key, maximum), variant.value, variant.meta))

    def hit(self, key, entry):
        """Spec/cache.md §4.3 step 5 (nothing in a read-only cache)."""
        if not self.read_only:
            entry.expires = self.expiry_for_hit(entry)
            entry.sequence = self.next_sequence()
            self.journal.append(("touch", key, entry.meta))

    def evict_for(self, key):
        """Spec/cache.md §6.2 step 6, never `key` (the entry just written, or the original of
        the variant just written)."""
        evicted = []
        if self.over_limit():
            self.remove_expired()
            while self.over_limit():
                victim = self.lru_order()[0]
                if victim == key:
                    break
                self.drop(victim)
                evicted.append(victim)
        return evicted

    def remove_expired(self):
        gone = [k for k in self.lru_order() if self.expired(self.entries[k])]
        for key in gone:
            self.drop(key)
        return len(gone)

    def check_open(self):
        if self.closed:
            raise CacheError("cacheClosed")

    def check_writable(self):
        if self.read_only:
            raise CacheError("readOnly")

    @staticmethod
    def check_key(key):
        if not 1 <= len(utf8(key)) <= 65535:
            raise CacheError("invalidKey")

    # -- operations ---------------------------------------------------------------------------
    def store(self, key, value, bitmap=None, user_metadata=b""):
        """A store of raw bytes, or with `bitmap` (its canonical PNG is `value`) an image store,
        which also stores the thumbnail (Spec/thumbnail.md §5.4)."""
        # §5.5, §5.6, §13.2: the arguments first (key, size, user metadata), then the state
        # (closed, read-only).
        self.check_key(key)
        if self.max_bytes is not None and len(value) > self.max_bytes:
            raise CacheError("valueTooLarge")
        if len(user_metadata) > MAXIMUM_USER_METADATA:
            raise CacheError("userMetadataTooLarge")
        self.check_open()
        self.check_writable()
        entry = Entry(value, self.now, self.expiry_for_store(), self.next_sequence(), bitmap)
        entry.user_metadata = bytes(user_metadata)  # §13.2: a store without it gives none
        self.drop_variants(key)  # thumbnail §5.5: the key's variants go first
        self.entries[key] = entry
        self.journal.append(("put", key, value, entry.meta))
        if bitmap is not None and self.thumbnail is not None and len(utf8(key)) <= LONGEST_KEY_WITH_VARIANTS:
            thumbnail = downsampled(bitmap, self.thumbnail)
            if thumbnail is not None:
                self.put_variant(key, self.thumbnail, thumbnail)
        return self.evict_for(key)

    def read(self, key):
        self.check_key(key)
        self.check_open()
        entry = self.live_entry(key)
        if entry is None:
            return None
        self.fail_if_corrupt(key, entry)
        self.hit(key, entry)
        return entry.value

    def live_entry(self, key):
        """§4.3 steps 2-3: the held entry, or None on a miss; an expired one is removed (a
        writable cache) and misses."""
        entry = self.entries.get(key)
        if entry is not None and self.expired(entry):
            if not self.read_only:
                self.drop(key)
            return None
        return entry

    def fail_if_corrupt(self, key, entry):
        """§8.2: the read that finds a corrupt entry removes it (a writable cache) and throws."""
        if entry.corrupt:
            if not self.read_only:
                self.drop(key)
            raise CacheError("corruptEntry")

    def contains(self, key):
        if self.closed:
            return False
        entry = self.entries.get(key)
        return entry is not None and not self.expired(entry)

    def metadata(self, key):
        """§4.4: the live entry's metadata, or None; not a hit."""
        self.check_key(key)
        self.check_open()
        entry = self.entries.get(key)
        if entry is None or self.expired(entry):
            return None
        return {"createdAt": entry.created, "expiresAt": entry.expires, "accessSequence": entry.sequence}

    def user_metadata(self, key):
        """§13.3: the live entry's user metadata (empty when none), or None; not a hit, and an
        expired entry is neither reported nor removed."""
        self.check_key(key)
        self.check_open()
        entry = self.entries.get(key)
        if entry is None or self.expired(entry):
            return None
        if entry.user_metadata_corrupt:
            # As a read that finds a corrupt value (§8.2): a writable cache removes the entry.
            if not self.read_only:
                self.drop(key)
            raise CacheError("corruptEntry")
        return entry.user_metadata

    def set_user_metadata(self, key, user_metadata):
        """§13.4: replaces the live entry's user metadata (True), or changes nothing (False);
        not a hit. Checks: invalidKey, userMetadataTooLarge, cacheClosed, readOnly."""
        self.check_key(key)
        if len(user_metadata) > MAXIMUM_USER_METADATA:
            raise CacheError("userMetadataTooLarge")
        self.check_open()
        self.check_writable()
        entry = self.entries.get(key)
        if entry is None or self.expired(entry):
            return False
        entry.user_metadata = bytes(user_metadata)
        return True

    def variant(self, key, maximum):
        """Spec/thumbnail.md §5.3: the variant of `key` at `maximum` as a bitmap
        (width, height, format, pixels), or None on a miss."""
        self.check_key(key)
        if maximum < 1:
            raise CacheError("invalidMaximumPixelSize")
        self.check_open()
        # Step 2: the original is looked up as a read does (Spec/cache.md §4.3 steps 2-3).
        entry = self.live_entry(key)
        if entry is None:
            return None
        # Step 3: a held variant is the result; a damaged one is removed and made again.
        storable = len(utf8(key)) <= LONGEST_KEY_WITH_VARIANTS
        trusted = storable and not self.variants_untrusted
        held = self.variants.get(key, {}).get(maximum) if trusted else None
        if held is not None and not held.corrupt:
            self.hit(key, entry)
            return held.bitmap
        if held is not None and not self.read_only:
            self.drop_variant(key, maximum)
        # Step 4: read the original as bitmap(forKey:) does (the hit is step 5's, taken once).
        self.fail_if_corrupt(key, entry)
        self.hit(key, entry)
        if entry.bitmap is None:
            raise CacheError("imageDecodingFailed")
        width, height, _, _ = entry.bitmap
        if self.decoding_limit is not None and width * height > self.decoding_limit:
            raise CacheError("imageTooLarge")
        made = downsampled(entry.bitmap, maximum)
        if made is None:
            return entry.bitmap  # it fits: nothing is stored
        if storable and not self.read_only:
            self.put_variant(key, maximum, made)
            self.evict_for(key)
        return made

    def remove(self, key):
        self.check_key(key)
        self.check_open()
        self.check_writable()
        entry = self.entries.get(key)
        if entry is None:
            return False
        self.drop(key)
        return not self.expired(entry)

    def purge(self):
        self.check_open()
        self.check_writable()
        return self.remove_expired()

    def count(self):
        """Live originals only (Spec/thumbnail.md §5.6)."""
        return 0 if self.closed else sum(1 for e in self.entries.values() if not self.expired(e))

    def total_bytes(self):
        """The live originals' sizes and those of their variants (thumbnail §5.6): a variant
        counts while its original is live."""
        if self.closed:
            return 0
        total = 0
        for key, entry in self.entries.items():
            if not self.expired(entry):
                total += entry.size + sum(v.size for v in self.variants.get(key, {}).values())
        return total

    def keys(self):
        if self.closed:
            return []
        return sorted((k for k, e in self.entries.items() if not self.expired(e)), key=utf8)

    def clear(self):
        self.check_open()
        self.check_writable()
        self.entries.clear()
        self.variants.clear()
        self.journal.append(("clear",))

    def synchronize(self):
        self.check_open()
        if not self.read_only:
            self.journal.append(("sync",))

    def compact(self):
        self.check_open()
        self.check_writable()
        self.remove_expired()
        self.journal.append(("compact", {k: held[1] for k, held in self.held().items()}))

    def verify(self):
        """Spec/cache.md §8.4: every held entry, expired ones and variants included, is checked;
        nothing changes. Entries are listed in the order of their keys' bytes, so a damaged
        variant, listed under its original's key, comes after every original (thumbnail §5.6)."""
        self.check_open()
        held = sorted(self.entries, key=utf8)
        variants = sorted(((variant_key(k, m), k, v) for k, sizes in self.variants.items() for m, v in sizes.items()))
        damaged = [k for k in held if self.entries[k].corrupt] + [k for _, k, v in variants if v.corrupt]
        return {"checked": len(held) + len(variants), "damaged": damaged}

    def close(self):
        """§5.5: applies the hits, synchronizes, releases; a second close does nothing."""
        if not self.closed and not self.read_only:
            self.journal.append(("sync",))
        self.closed = True

    def open(self, read_only=False, damage_skipped=False):
        """§5.1: load, set the counter from the held entries (before the purge), purge. After an
        open of the backend that skipped damaged records, no stored variant is trusted
        (Spec/thumbnail.md §5.9): a writable cache removes them all, a read-only one makes the
        variants it is asked for."""
        self.closed = False
        self.read_only = read_only
        largest = max((e.sequence for e in self.entries.values()), default=0)
        self.next = largest + 1
        self.variants_untrusted = damage_skipped and read_only
        if damage_skipped and not read_only:
            for key in sorted(self.variants, key=utf8):
                self.drop_variants(key)
        if not read_only:
            # Spec/thumbnail.md §5.5: variants whose original is gone, in ascending order of
            # (the original's key bytes, M), then the purge.
            for key in sorted(self.variants, key=utf8):
                if key not in self.entries:
                    self.drop_variants(key)
            self.remove_expired()

    def reopen(self, read_only=False, damage_skipped=False):
        self.close()
        self.open(read_only, damage_skipped)

    def damage(self, key, counted=None):
        """The stored bytes of key's value were damaged while the cache was closed; `counted`
        is the size the entry counts with from the next open, where the backend says so
        (Spec/backends.md §5.6: a hybrid entry counts with the size of its external file)."""
        if key in self.entries:
            self.entries[key].corrupt = True
            self.entries[key].counted = counted

    def damage_user_metadata(self, key):
        """The stored bytes of key's user metadata were damaged while the cache was closed; its
        value is intact."""
        self.entries[key].user_metadata_corrupt = True

    def damage_variant(self, key, maximum):
        """The stored bytes of a variant were damaged while the cache was closed."""
        self.variants[key][maximum].corrupt = True

    def store_rejected_bitmap(self, key):
        """Spec/cache.md §6.5: a bitmap the encoder rejects is an argument error, checked after
        the key and before the state; nothing changes."""
        self.check_key(key)
        raise CacheError("imageEncodingFailed")

    def forget(self, key):
        """The files lost `key` while the cache was closed (its entry file deleted, or a
        rewrite that dropped it): the next open no longer holds it."""
        self.drop(key)

    def adopt(self, key, value, meta):
        """The files gained an entry for `key` with metadata `meta` while the cache was closed
        (an entry file written after the last index, Spec/backends.md §3.4)."""
        entry = Entry(value, *meta)
        self.entries[key] = entry
        self.journal.append(("put", key, value, entry.meta))

    def lose(self, key):
        """The latest record of `key` was damaged while the cache was closed, and the log's open
        skips it (Spec/store.md §5.4 rule 1): the next open no longer holds the key, and no
        record is written for it."""
        del self.entries[key]
        self.journal.append(("lose", key))

    def restore_variant(self, key, maximum, variant):
        """A log lost the record that removed this variant (Spec/store.md §5.4 rule 2): the next
        open holds it again."""
        self.variants.setdefault(key, {})[maximum] = variant

    def as_stored(self, key):
        """The entry's metadata is its store's again: the hits recorded since were lost."""
        entry = self.entries[key]
        entry.created, entry.expires, entry.sequence = entry.stored

    def orphan(self, key):
        """The original `key` is gone from the files, its variants kept (what a crash between
        the steps of Spec/thumbnail.md §5.5 can leave); the model's journal records the
        original's removal as the files now show it."""
        del self.entries[key]
        self.journal.append(("remove", key))

    def held(self):
        """key -> (value, current metadata, metadata at store) for every held entry, variants
        under their key bytes: what backendfiles.py renders."""
        held = {k: (e.value, e.meta, e.stored) for k, e in self.entries.items()}
        for key, sizes in self.variants.items():
            for maximum, v in sizes.items():
                held[variant_key(key, maximum)] = (v.value, v.meta, v.meta)
        return held
