"""An independent model of the cache rules of Spec/cache.md, used to compute the expected
response of every step of the cache scenarios (Spec/conformance.md §7).

Time is integer milliseconds; an entry is expired at `now` iff now >= expiresAt. Sums of times
saturate at Int64.max (Spec/cache.md §3.4). The model also keeps a journal of what it asks of
the backend (put, touch, remove, clear, compact, synchronize), from which backendfiles.py
computes each backend's files.
"""

INT64_MAX = 2 ** 63 - 1


class CacheError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


def utf8(key):
    return key.encode("utf-8")


def saturating_add(a, b):
    """Spec/cache.md §3.4: a ⊕ b is a + b, or Int64.max when the sum overflows."""
    return min(a + b, INT64_MAX)


class Entry:
    def __init__(self, value, created, expires, sequence):
        self.value = value
        self.created = created
        self.expires = expires
        self.sequence = sequence
        self.stored = (created, expires, sequence)  # the metadata at the store
        self.corrupt = False
        self.counted = None  # the size it counts with when damage changed it (backends §5.6)

    @property
    def size(self):
        return len(self.value) if self.counted is None else self.counted

    @property
    def meta(self):
        return (self.created, self.expires, self.sequence)


class CacheModel:
    """The observable behaviour of one cache: §2.5 the counter, §4 expiration, §5 lifecycle,
    §6 limits and eviction, §8 corruption."""

    def __init__(self, now, timeToLive=None, maximumAge=None, maximumBytes=None, maximumEntryCount=None,
                 readOnly=False, decodingLimits=None):
        self.now = now
        self.ttl = timeToLive
        self.max_age = maximumAge
        self.max_bytes = maximumBytes
        self.max_count = maximumEntryCount
        self.read_only = readOnly
        self.entries = {}
        self.next = 1  # §2.5: an empty new cache starts the counter at 1
        self.journal = []
        self.closed = False

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

    def over_limit(self):
        if self.max_count is not None and len(self.entries) > self.max_count:
            return True
        if self.max_bytes is not None and sum(e.size for e in self.entries.values()) > self.max_bytes:
            return True
        return False

    def lru_order(self):
        return sorted(self.entries, key=lambda k: (self.entries[k].sequence, utf8(k)))

    def drop(self, key):
        del self.entries[key]
        self.journal.append(("remove", key))

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
    def store(self, key, value):
        # §5.5, §5.6: the arguments first (key, size), then the state (closed, read-only).
        self.check_key(key)
        if self.max_bytes is not None and len(value) > self.max_bytes:
            raise CacheError("valueTooLarge")
        self.check_open()
        self.check_writable()
        entry = Entry(value, self.now, self.expiry_for_store(), self.next_sequence())
        self.entries[key] = entry
        self.journal.append(("put", key, value, entry.meta))
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

    def read(self, key):
        self.check_key(key)
        self.check_open()
        entry = self.entries.get(key)
        if entry is None:
            return None
        if self.expired(entry):
            if not self.read_only:
                self.drop(key)
            return None
        if entry.corrupt:
            # §8.2: the read that finds a corrupt entry removes it (a writable cache) and throws.
            if not self.read_only:
                self.drop(key)
            raise CacheError("corruptEntry")
        if not self.read_only:
            entry.expires = self.expiry_for_hit(entry)
            entry.sequence = self.next_sequence()
            self.journal.append(("touch", key, entry.meta))
        return entry.value

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
        return 0 if self.closed else sum(1 for e in self.entries.values() if not self.expired(e))

    def total_bytes(self):
        return 0 if self.closed else sum(e.size for e in self.entries.values() if not self.expired(e))

    def keys(self):
        if self.closed:
            return []
        return sorted((k for k, e in self.entries.items() if not self.expired(e)), key=utf8)

    def clear(self):
        self.check_open()
        self.check_writable()
        self.entries.clear()
        self.journal.append(("clear",))

    def synchronize(self):
        self.check_open()
        if not self.read_only:
            self.journal.append(("sync",))

    def compact(self):
        self.check_open()
        self.check_writable()
        self.remove_expired()
        self.journal.append(("compact", {k: e.meta for k, e in self.entries.items()}))

    def verify(self):
        """Spec/cache.md §8.4: every held entry, expired ones included, is checked; nothing changes."""
        self.check_open()
        held = sorted(self.entries, key=utf8)
        return {"checked": len(held), "damaged": [k for k in held if self.entries[k].corrupt]}

    def close(self):
        """§5.5: applies the hits, synchronizes, releases; a second close does nothing."""
        if not self.closed and not self.read_only:
            self.journal.append(("sync",))
        self.closed = True

    def open(self, read_only=False):
        """§5.1: load, set the counter from the held entries (before the purge), purge."""
        self.closed = False
        self.read_only = read_only
        largest = max((e.sequence for e in self.entries.values()), default=0)
        self.next = largest + 1
        if not read_only:
            self.remove_expired()

    def reopen(self, read_only=False):
        self.close()
        self.open(read_only)

    def damage(self, key, counted=None):
        """The stored bytes of key's value were damaged while the cache was closed; `counted`
        is the size the entry counts with from the next open, where the backend says so
        (Spec/backends.md §5.6: a hybrid entry counts with the size of its external file)."""
        if key in self.entries:
            self.entries[key].corrupt = True
            self.entries[key].counted = counted

    def held(self):
        """key -> (value, current metadata, metadata at store): what backendfiles.py renders."""
        return {k: (e.value, e.meta, e.stored) for k, e in self.entries.items()}
