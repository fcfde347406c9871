"""An independent model of the cache rules of Spec/cache.md, used to compute the expected
response of every step of the cache scenarios (Spec/conformance.md §7).

Time is integer milliseconds; an entry is expired at `now` iff now >= expiresAt.
"""


class CacheError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


def utf8(key):
    return key.encode("utf-8")


class Entry:
    def __init__(self, value, created, expires, sequence):
        self.value = value
        self.created = created
        self.expires = expires
        self.sequence = sequence
        self.corrupt = False


class CacheModel:
    """The observable behaviour of one cache: §4 expiration, §6 limits and eviction."""

    def __init__(self, now, timeToLive=None, maximumAge=None, maximumBytes=None, maximumEntryCount=None):
        self.now = now
        self.ttl = timeToLive
        self.max_age = maximumAge
        self.max_bytes = maximumBytes
        self.max_count = maximumEntryCount
        self.entries = {}
        self.sequence = 0

    # -- rules --------------------------------------------------------------------------------
    def expired(self, entry):
        return self.now >= entry.expires

    def next_sequence(self):
        self.sequence += 1
        return self.sequence

    def expiry_for_store(self):
        expires = 2 ** 63 - 1
        if self.ttl is not None:
            expires = min(expires, self.now + self.ttl)
        if self.max_age is not None:
            expires = min(expires, self.now + self.max_age)
        return expires

    def expiry_for_hit(self, entry):
        expires = entry.expires
        if self.ttl is not None:
            expires = self.now + self.ttl
        if self.max_age is not None:
            expires = min(expires, entry.created + self.max_age)
        return expires

    def over_limit(self):
        if self.max_count is not None and len(self.entries) > self.max_count:
            return True
        if self.max_bytes is not None and sum(len(e.value) for e in self.entries.values()) > self.max_bytes:
            return True
        return False

    def lru_order(self):
        return sorted(self.entries, key=lambda k: (self.entries[k].sequence, utf8(k)))

    def remove_expired(self):
        gone = [k for k in self.lru_order() if self.expired(self.entries[k])]
        for key in gone:
            del self.entries[key]
        return len(gone)

    @staticmethod
    def check_key(key):
        if not 1 <= len(utf8(key)) <= 65535:
            raise CacheError("invalidKey")

    # -- operations ---------------------------------------------------------------------------
    def store(self, key, value):
        self.check_key(key)
        if self.max_bytes is not None and len(value) > self.max_bytes:
            raise CacheError("valueTooLarge")
        self.entries[key] = Entry(value, self.now, self.expiry_for_store(), self.next_sequence())
        evicted = []
        if self.over_limit():
            self.remove_expired()
            while self.over_limit():
                victim = self.lru_order()[0]
                if victim == key:
                    break
                del self.entries[victim]
                evicted.append(victim)
        return evicted

    def read(self, key):
        self.check_key(key)
        entry = self.entries.get(key)
        if entry is None:
            return None
        if self.expired(entry):
            del self.entries[key]
            return None
        if entry.corrupt:
            # §8.2: the read that finds a corrupt entry removes it and throws.
            del self.entries[key]
            raise CacheError("corruptEntry")
        entry.expires = self.expiry_for_hit(entry)
        entry.sequence = self.next_sequence()
        return entry.value

    def contains(self, key):
        entry = self.entries.get(key)
        return entry is not None and not self.expired(entry)

    def remove(self, key):
        self.check_key(key)
        entry = self.entries.pop(key, None)
        return entry is not None and not self.expired(entry)

    def purge(self):
        return self.remove_expired()

    def count(self):
        return sum(1 for e in self.entries.values() if not self.expired(e))

    def keys(self):
        return sorted((k for k, e in self.entries.items() if not self.expired(e)), key=utf8)

    def clear(self):
        self.entries.clear()

    def compact(self):
        self.remove_expired()

    def damage(self, key):
        """The stored bytes of key's value were damaged while the cache was closed."""
        self.reopen()
        if key in self.entries:
            self.entries[key].corrupt = True

    def reopen(self):
        # Opening purges expired entries (§4.5); metadata and recency persist.
        self.remove_expired()
