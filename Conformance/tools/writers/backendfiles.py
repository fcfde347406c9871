"""The files each cache backend must leave after a clean close (Spec/backends.md), computed
from the journal of a cache model (models/cachemodel.py), and where a value's bytes lie in them.

Written from Spec/backends.md §1.2–§5 and Spec/store.md; every checksum is the record checksum
(models/recordchecksum.py). The runner compares these files with the folder's (runner.files), so the
layouts are checked byte for byte except where a writer chooses freely: the log's generation
(and the header checksum over it, in the log, its snapshot and its sync mark) and the order of a
snapshot's entries.
"""
import hashlib
import struct

from shared.casefiles import b64
from writers import storewriter as s

NEVER = 2 ** 63 - 1
THRESHOLD = 131_072  # hybrid externalStorageThreshold, the default (Spec/backends.md §5.2)
LOG_NAMES = {"log": "cache.log", "hybrid": "hybrid.log"}


def key_bytes(key):
    """A string key's UTF-8; a variant's key (Spec/thumbnail.md §5.2) is given as its bytes."""
    return key if isinstance(key, bytes) else key.encode("utf-8")


def file_name(key):
    """Spec/backends.md §1.2: SHA-256 of the key's bytes, 64 lowercase hex digits."""
    return hashlib.sha256(key_bytes(key)).hexdigest()


def entry_record(key, value, created, expires, sequence):
    """Spec/backends.md §1.3."""
    k = key_bytes(key)
    head = struct.pack("<IQqqQQ", len(k), len(value), created, expires, sequence, s.checksum(value))
    return head + struct.pack("<Q", s.checksum(head + k)) + k + value


def dictionary_file(entries):
    """Spec/backends.md §2.1: the whole cache.dictionary of these entries (key -> (value,
    current metadata, metadata at store))."""
    order = sorted(entries, key=key_bytes)
    body = b"".join(entry_record(k, entries[k][0], *entries[k][1]) for k in order)
    return b"ICDICT01" + struct.pack("<II", 2, len(order)) + body


def external_name(key, sequence):
    """Spec/backends.md §5.1: the key's file name, '-', the store's accessSequence in 16 hex digits."""
    return f"{file_name(key)}-{sequence:016x}"


def hybrid_value(key, value, sequence):
    """Spec/backends.md §5.2: the LogStore value of a hybrid entry."""
    if len(value) < THRESHOLD:
        return b"\x00" + value
    return b"\x02" + struct.pack("<QQ", len(value), s.checksum(value)) + external_name(key, sequence).encode("ascii")


class LogImage:
    """The bytes of a cache's LogStore, record by record, each put's offset, and every record's
    offset, type and key (Spec/store.md)."""

    def __init__(self):
        self.data = bytearray(s.file_header())
        self.put_offsets = {}  # key -> offset of its live put record
        self.puts = {}  # key -> (log value, metadata at put)
        self.records = []  # (offset, type, key bytes) of every record, in file order

    def _append(self, kind, key, record):
        self.records.append((len(self.data), kind, key_bytes(key)))
        self.data += record

    def put(self, key, log_value, meta):
        self.put_offsets[key] = len(self.data)
        self.puts[key] = (log_value, meta)
        self._append(s.PUT, key, s.put(key_bytes(key), log_value, *meta))

    def touch(self, key, meta):
        self._append(s.TOUCH, key, s.touch(key_bytes(key), *meta))

    def remove(self, key):
        self.put_offsets.pop(key, None)
        self.puts.pop(key, None)
        self._append(s.REMOVE, key, s.remove(key_bytes(key)))

    def clear(self):
        self.put_offsets.clear()
        self.puts.clear()
        self._append(s.CLEAR, b"", s.clear())

    def lose(self, key):
        """An open skipped the key's latest put as damaged (Spec/store.md §5.4): the key is no
        longer held, and no record says so."""
        self.put_offsets.pop(key, None)
        self.puts.pop(key, None)

    def compact(self, current):
        """Spec/store.md §7.1: one put per held key, in log order, with its current metadata.
        (The cache purged first, so every held entry is live at the compaction's `now`.)"""
        order = sorted(self.put_offsets, key=lambda k: self.put_offsets[k])
        self.data = bytearray(s.file_header())
        self.records = []
        puts, self.puts, self.put_offsets = self.puts, {}, {}
        for key in order:
            self.put(key, puts[key][0], current[key])

    def snapshot_pattern(self, held):
        """Spec/store.md §4: header fixed but for the generation and its checksum; the entries
        may come in any order, so only their total length is fixed."""
        length = 48 + sum(44 + len(key_bytes(k)) for k in held) + 8
        header = (s.HINT_MAGIC + struct.pack("<HHIQQQ", 2, 0, 0, 0, len(self.data), len(held)) + bytes(8))
        image = header + bytes(length - 48)
        return {"$bytes": b64(image), "$ignore": [[16, 24], [40, length]]}

    def sync_mark_pattern(self):
        """Spec/store.md §4.1: after a clean close the whole log is durable; the generation and
        the checksum over it are the writer's."""
        return {"$bytes": b64(s.sync_mark(len(self.data), generation=0, mark_checksum=0)),
                "$ignore": s.SYNC_GENERATION_RANGES}


class BackendFiles:
    """Follows a cache model's journal and renders each backend's files after a clean close."""

    def __init__(self, backend):
        self.backend = backend
        self.log = LogImage() if backend in LOG_NAMES else None
        self.external_pending_delete = set()  # hybrid: superseded external files (§5.3)
        self.external = {}  # hybrid: name -> value bytes
        self.damaged = set()  # keys whose value bytes were damaged in the files
        # dictionary and directory write their file (the index) at synchronize or close only
        # when something changed (Spec/backends.md §2.2, §3.3): an untouched cache has none.
        # A writable open of a folder without a usable index counts as a change, and creates
        # entries/ (Spec/backends.md §3.4).
        self.changed = backend == "directory"
        self.written = False

    # Journal events ------------------------------------------------------------------------
    def put(self, key, value, meta):
        self.changed = True
        if self.backend == "hybrid":
            self._supersede(key)
            if len(value) >= THRESHOLD:
                name = external_name(key, meta[2])
                if name in self.external_pending_delete:
                    # §5.3: a file of the same name (a variant's, whose sequence is always 0),
                    # referenced by the key (removed first) or superseded, is deleted after a
                    # synchronize before the new one is written.
                    current = self.log.puts.get(key, (b"",))[0]
                    if current[:1] == b"\x02" and current[17:] == name.encode("ascii"):
                        self.log.remove(key)
                    self.synchronize()
                self.external[name] = value
            self.log.put(key, hybrid_value(key, value, meta[2]), meta)
        elif self.log is not None:
            self.log.put(key, value, meta)
        self.damaged.discard(key)

    def touch(self, key, meta):
        self.changed = True
        if self.log is not None:
            self.log.touch(key, meta)

    def remove(self, key):
        self.changed = True
        if self.backend == "hybrid":
            self._supersede(key)
        if self.log is not None:
            self.log.remove(key)
        self.damaged.discard(key)

    def clear(self):
        self.changed = True
        if self.log is not None:
            self.log.clear()
        if self.backend == "hybrid":
            self.external.clear()  # §5.5: removeAll deletes every file in external/
            self.external_pending_delete.clear()
        self.damaged.clear()

    def lose(self, key):
        """A log's open skipped the key's latest put as damaged (Spec/store.md §5.4); a hybrid
        value's file is then unreferenced, and the next writable open deletes it (§5.5)."""
        if self.log is None:
            return
        if self.backend == "hybrid":
            log_value = self.log.puts.get(key, (b"",))[0]
            if log_value[:1] == b"\x02":
                self.external.pop(log_value[17:].decode("ascii"), None)
        self.log.lose(key)

    def synchronize(self):
        if self.changed:
            self.written = True
            self.changed = False
        for name in self.external_pending_delete:
            self.external.pop(name, None)
        self.external_pending_delete.clear()

    def flip(self, path, offset, mask):
        """The runner flipped bits of a value in the files (the cache closed). A log keeps the
        damaged record until a compaction drops it, and an external file until it is deleted;
        the other backends rewrite or delete their files before they are rendered again."""
        if self.log is not None and path == LOG_NAMES[self.backend]:
            self.log.data[offset] ^= mask
        elif path.startswith("external/") and path[len("external/"):] in self.external:
            name = path[len("external/"):]
            damaged = bytearray(self.external[name])
            damaged[offset] ^= mask
            self.external[name] = bytes(damaged)

    def compact(self, current):
        if self.log is not None:
            self.log.compact(current)
        self.synchronize()

    def _supersede(self, key):
        if key in self.log.puts:
            log_value = self.log.puts[key][0]
            if log_value[:1] == b"\x02":
                self.external_pending_delete.add(log_value[17:].decode("ascii"))

    # Rendering -------------------------------------------------------------------------------
    def files(self, entries):
        """Expected `runner.files` pattern after a clean close. entries: the held entries,
        key -> (value, (created, expires, sequence) now, (created, expires, sequence) at store)."""
        assert not (self.damaged & set(entries)), "files are rendered only when no damaged entry is held"
        files = {"lock": b64(b"")}
        names = ["lock"]
        order = sorted(entries, key=key_bytes)
        if self.backend == "dictionary":
            if not self.written:
                return {"names": names, "files": files}
            files["cache.dictionary"] = b64(dictionary_file(entries))
            names.append("cache.dictionary")
        elif self.backend == "directory":
            names.append("entries/")
            if not self.written:
                names.sort(key=lambda n: n.encode())
                return {"names": names, "files": files}
            index = bytearray(b"ICINDX01" + struct.pack("<II", 2, len(order)))
            for k in order:
                value, (created, expires, sequence), _ = entries[k]
                index += struct.pack("<IQqqQ", len(key_bytes(k)), len(value), created, expires, sequence) + key_bytes(k)
            index += struct.pack("<Q", s.checksum(index))
            files["index"] = b64(index)
            names.append("index")
            for k in order:
                value, _, stored = entries[k]
                path = "entries/" + file_name(k)
                files[path] = b64(b"ICENTR02" + entry_record(k, value, *stored))
                names.append(path)
        else:
            log = LOG_NAMES[self.backend]
            files[log] = {"$bytes": b64(self.log.data), "$ignore": s.GENERATION_RANGES}
            files[log + ".hint"] = self.log.snapshot_pattern(order)
            files[log + ".sync"] = self.log.sync_mark_pattern()
            names += [log, log + ".hint", log + ".sync"]
            if self.backend == "hybrid":
                names.append("external/")
                for name, value in sorted(self.external.items()):
                    files["external/" + name] = b64(value)
                    names.append("external/" + name)
        names.sort(key=lambda n: n.encode())
        return {"names": names, "files": files}

    def value_location(self, key, entries):
        """(path, offset) of the middle byte of key's value in the backend's files."""
        value, current, stored = entries[key]
        k = key_bytes(key)
        middle = len(value) // 2
        if self.backend == "dictionary":
            offset = 16
            for other in sorted(entries, key=key_bytes):
                if other == key:
                    return "cache.dictionary", offset + 52 + len(k) + middle
                offset += 52 + len(key_bytes(other)) + len(entries[other][0])
        if self.backend == "directory":
            return "entries/" + file_name(key), 8 + 52 + len(k) + middle
        if self.backend == "hybrid" and len(value) >= THRESHOLD:
            return "external/" + external_name(key, stored[2]), middle
        tag = 1 if self.backend == "hybrid" else 0
        return LOG_NAMES[self.backend], self.log.put_offsets[key] + s.RECORD_HEADER_SIZE + len(k) + tag + middle
