"""The four cache backends of Spec/backends.md on real files, written from that document alone, for
the model driver (drivers/model_driver.py).

A backend persists what the cache model (models/cachemodel.py) asks of it, event by event from
the model's journal, and loads a folder into held entries, each with its value's bytes, its
metadata and whether the bytes are damaged. Opening a folder follows the rules on links, stray
files, damage and format 1 (§1.5, §1.6, each backend's damage rules, §6). Errors are
BackendError with the names of Spec/cache.md §9.
"""
import errno
import fcntl
import hashlib
import os
import stat
import struct

from models.logstore import LogStore, StoreError
from models.recordchecksum import record_checksum

NEVER = 2 ** 63 - 1
THRESHOLD = 131_072
LOG_NAMES = {"log": "cache.log", "hybrid": "hybrid.log"}


class BackendError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Held:
    """An entry as a backend loaded it: its bytes (None when unreadable), metadata, whether
    the bytes are damaged, and the size it counts with."""

    def __init__(self, value, meta, damaged=False, size=None):
        self.value = value
        self.meta = meta
        self.damaged = damaged
        self.size = len(value or b"") if size is None else size


def key_bytes(key):
    return key if isinstance(key, bytes) else key.encode("utf-8")


def file_name(key):
    """§1.2."""
    return hashlib.sha256(key_bytes(key)).hexdigest()


def is_entry_name(name):
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)


def kind_of(path):
    """'link', 'file', 'folder', 'other' or None, without following a link."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    return "other"


def read_file(path):
    """The bytes of a regular file, never through a link; None when missing or not a file."""
    if kind_of(path) != "file":
        return None
    with open(path, "rb") as f:
        return f.read()


def replace_file(path, data):
    """Atomic replacement (§1.4)."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".tmp-{name}-{os.urandom(4).hex()}")
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def entry_record(key, value, meta):
    """§1.3."""
    head = struct.pack("<IQqqQQ", len(key), len(value), *meta, record_checksum(value))
    return head + struct.pack("<Q", record_checksum(head + key)) + key + value


def read_entry_records(data, offset, count=None, exact=True):
    """Entry records from `offset`: [(key, value, meta, value intact)], or None when one is
    unreadable or truncated, or bytes follow the last one (with `exact`)."""
    records = []
    while (offset < len(data)) if count is None else (len(records) < count):
        if offset + 52 > len(data):
            return None
        key_length, value_length = struct.unpack_from("<IQ", data, offset)
        meta = struct.unpack_from("<qqQ", data, offset + 12)
        value_sum, header_sum = struct.unpack_from("<QQ", data, offset + 36)
        if not 1 <= key_length <= 65_535 or offset + 52 + key_length > len(data):
            return None
        key = data[offset + 52:offset + 52 + key_length]
        if record_checksum(data[offset:offset + 44] + key) != header_sum:
            return None
        end = offset + 52 + key_length + value_length
        if end > len(data):
            return None
        value = data[offset + 52 + key_length:end]
        records.append((key, value, meta, record_checksum(value) == value_sum))
        offset = end
    if exact and offset != len(data):
        return None
    return records


class Backend:
    """What every backend shares: the folder, its lock (§1.5) and the layout's links (§1.6)."""

    own_names = ()
    damage_skipped = False  # only a log skips damaged records (§4.1)

    def __init__(self, folder, read_only):
        self.folder = folder
        self.read_only = read_only
        self.lock = None

    def path(self, *names):
        return os.path.join(self.folder, *names)

    def open(self):
        """§1.5, §1.6 and §6, then the backend's own open; returns {key bytes: Held}."""
        if not self.read_only:
            os.makedirs(self.folder, exist_ok=True)
            if kind_of(self.path("lock")) == "link":
                raise BackendError("symbolicLink")
            descriptor = os.open(self.path("lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(descriptor)
                if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise BackendError("locked")
                raise
            self.lock = descriptor
        elif not os.path.isdir(self.folder):
            return {}
        try:
            for name in self.own_names:
                if kind_of(self.path(name)) == "link":
                    raise BackendError("symbolicLink")
            if self.format_one():
                if self.read_only:
                    return {}
                self.discard_format_one()
            return self.load()
        except BaseException:
            self.release()
            raise

    def release(self):
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    def format_one(self):
        return False

    def discard_format_one(self):
        pass

    def remove_unreferenced(self, held):
        """After a purge or compaction (Spec/cache.md §4.5): files no held entry names."""

    def close(self, held):
        if not self.read_only:
            self.synchronize(held)
        self.release()

    def abandon(self):
        """A crash: nothing more is written."""
        self.release()


class DictionaryBackend(Backend):
    """§2: one file, rewritten whole when anything changed."""

    own_names = ("cache.dictionary",)

    def __init__(self, folder, read_only):
        super().__init__(folder, read_only)
        self.changed = False

    def version(self):
        data = read_file(self.path("cache.dictionary"))
        if data is None or len(data) < 12 or data[:8] != b"ICDICT01":
            return None
        return struct.unpack_from("<I", data, 8)[0]

    def format_one(self):
        return self.version() == 1

    def discard_format_one(self):
        remove(self.path("cache.dictionary"))

    def load(self):
        data = read_file(self.path("cache.dictionary"))
        if data is None:
            return {}
        if len(data) < 16 or data[:8] != b"ICDICT01":
            raise BackendError("corruptFile")
        version, count = struct.unpack_from("<II", data, 8)
        if version != 2:
            raise BackendError("unsupportedFormatVersion")
        records = read_entry_records(data, 16, count)
        if records is None or sum(52 + len(k) + len(v) for k, v, _, _ in records) + 16 != len(data):
            raise BackendError("corruptFile")
        return {bytes(k): Held(bytes(v), m, not intact) for k, v, m, intact in records}

    def apply(self, event, held):
        if event[0] in ("put", "touch", "remove", "clear"):
            self.changed = True
        elif event[0] in ("sync", "compact"):
            self.synchronize(held)

    def synchronize(self, held):
        """§2.2: the whole file, when anything changed; damaged records are left out (§2.3)."""
        if not self.changed:
            return
        good = sorted((k, h) for k, h in held.items() if not h.damaged)
        body = b"".join(entry_record(k, h.value, h.meta) for k, h in good)
        replace_file(self.path("cache.dictionary"), b"ICDICT01" + struct.pack("<II", 2, len(good)) + body)
        self.changed = False


class DirectoryBackend(Backend):
    """§3: one entry file per key and an index."""

    own_names = ("index", "entries")

    def __init__(self, folder, read_only):
        super().__init__(folder, read_only)
        self.changed = False

    def index_version(self):
        data = read_file(self.path("index"))
        if data is None or len(data) < 12 or data[:8] != b"ICINDX01":
            return None
        return struct.unpack_from("<I", data, 8)[0]

    def format_one(self):
        return self.index_version() == 1

    def discard_format_one(self):
        entries = self.path("entries")
        if kind_of(entries) == "folder":
            for name in os.listdir(entries):
                if kind_of(os.path.join(entries, name)) != "folder":
                    remove(os.path.join(entries, name))
        remove(self.path("index"))

    def read_index(self):
        """§3.4, §3.6: {key: (value length, meta)} or None when unusable."""
        data = read_file(self.path("index"))
        if data is None or len(data) < 24:
            return None
        if record_checksum(data[:-8]) != struct.unpack_from("<Q", data, len(data) - 8)[0]:
            return None
        if data[:8] != b"ICINDX01":
            return None
        version, count = struct.unpack_from("<II", data, 8)
        if version != 2:
            raise BackendError("unsupportedFormatVersion")
        index, offset, end = {}, 16, len(data) - 8
        for _ in range(count):
            if offset + 36 > end:
                return None
            key_length, value_length = struct.unpack_from("<IQ", data, offset)
            meta = struct.unpack_from("<qqQ", data, offset + 12)
            if not 1 <= key_length <= 65_535 or offset + 36 + key_length > end:
                return None
            index[bytes(data[offset + 36:offset + 36 + key_length])] = (value_length, meta)
            offset += 36 + key_length
        return index if offset == end else None

    def read_entry_file(self, name):
        """(key, value, meta, intact) of a well-formed entry file, or None."""
        data = read_file(self.path("entries", name))
        if data is None or data[:8] != b"ICENTR02":
            return None
        records = read_entry_records(data, 8, 1)
        return None if records is None else records[0]

    def load(self):
        index = self.read_index()
        entries = self.path("entries")
        if not self.read_only:
            os.makedirs(entries, exist_ok=True)
        self.changed = index is None
        by_name = {file_name(k): k for k in index or {}}
        held = {}
        names = sorted(os.listdir(entries)) if kind_of(entries) == "folder" else []
        for name in names:
            item = os.path.join(entries, name)
            kind = kind_of(item)
            if kind != "file" or not is_entry_name(name):
                if not self.read_only and kind != "folder":
                    remove(item)
                continue
            record = self.read_entry_file(name)
            if name in by_name:
                key = by_name.pop(name)
                length, meta = index[key]
                if record is not None and record[0] == key and record[3]:
                    _, value, file_meta, _ = record
                    same = len(value) == length and file_meta[0] == meta[0] and file_meta[2] <= meta[2]
                    held[key] = Held(bytes(value), meta if same else file_meta)
                    self.changed = self.changed or not same
                else:
                    held[key] = Held(None, meta, damaged=True, size=length)
                continue
            self.changed = True
            if record is not None and record[3] and self.attributable(record[0], name):
                held[bytes(record[0])] = Held(bytes(record[1]), record[2])
            elif not self.read_only:
                remove(item)
        if by_name:
            self.changed = True
        if self.read_only:
            self.changed = False
        return held

    @staticmethod
    def attributable(key, name):
        """§3.4: an entry file not in the index is adopted only under the key its name is of."""
        return file_name(key) == name

    def apply(self, event, held):
        kind = event[0]
        if kind == "put":
            key = key_bytes(event[1])
            replace_file(self.path("entries", file_name(key)), b"ICENTR02" + entry_record(key, event[2], event[3]))
            self.changed = True
        elif kind == "touch":
            self.changed = True
        elif kind == "remove":
            remove(self.path("entries", file_name(key_bytes(event[1]))))
            self.changed = True
        elif kind == "clear":
            self.changed = True
            self.synchronize(held)
            for name in os.listdir(self.path("entries")):
                if kind_of(self.path("entries", name)) != "folder":
                    remove(self.path("entries", name))
        elif kind == "sync":
            self.synchronize(held)
        elif kind == "compact":
            self.remove_unreferenced(held)
            self.synchronize(held)

    def synchronize(self, held):
        """§3.3: the index, when anything changed."""
        if not self.changed:
            return
        index = bytearray(b"ICINDX01" + struct.pack("<II", 2, len(held)))
        for key in sorted(held):
            h = held[key]
            index += struct.pack("<IQqqQ", len(key), h.size, *h.meta) + key
        index += struct.pack("<Q", record_checksum(bytes(index)))
        replace_file(self.path("index"), bytes(index))
        self.changed = False

    def remove_unreferenced(self, held):
        names = {file_name(k) for k in held}
        entries = self.path("entries")
        for name in os.listdir(entries):
            if name not in names and kind_of(os.path.join(entries, name)) != "folder":
                remove(os.path.join(entries, name))
        for name in os.listdir(self.folder):
            if name.startswith(".tmp-index-"):
                remove(self.path(name))


def store_error(error):
    """§4.3: a LogStore error as a cache error."""
    if error.name in ("notAStore", "corruptFileHeader", "corruptRecord"):
        return BackendError("corruptFile")
    if error.name == "unsupportedVersion":
        return BackendError("unsupportedFormatVersion")
    return BackendError("logStoreFailure")


class LogBackend(Backend):
    """§4: one LogStore, opened skipping damaged records (§4.1, Spec/store.md §5.4)."""

    def __init__(self, folder, read_only, name="cache.log"):
        super().__init__(folder, read_only)
        self.name = name
        self.own_names = (name,)
        self.store = None

    @property
    def damage_skipped(self):
        """Whether the open skipped damaged records (Spec/thumbnail.md §5.9)."""
        return bool(self.store is not None and self.store.damaged)

    def format_one(self):
        data = read_file(self.path(self.name))
        return data is not None and len(data) >= 12 and data[:8] == b"\x89ICLOG\r\n" and data[8:10] == b"\x01\x00"

    def discard_format_one(self):
        for suffix in (".compacting", ".hint.tmp", ".hint", ".sync", ""):
            remove(self.path(self.name + suffix))

    def open_store(self):
        if self.read_only and not os.path.exists(self.path(self.name)):
            return None
        try:
            return LogStore(self.path(self.name), read_only=self.read_only, skips_damage=True)
        except StoreError as error:
            raise store_error(error)

    def load(self):
        self.store = self.open_store()
        held = {}
        for key, entry in (self.store.index if self.store else {}).items():
            try:
                held[key] = self.held(key, self.store.read_record(key, entry), entry.meta)
            except StoreError:
                held[key] = Held(None, entry.meta, damaged=True, size=self.damaged_size(key, entry))
        return held

    def damaged_size(self, key, entry):
        return entry.length

    def held(self, key, value, meta):
        return Held(bytes(value), meta)

    def apply(self, event, held):
        if self.store is None:
            return
        kind = event[0]
        if kind == "put":
            self.store.put(key_bytes(event[1]), event[2], event[3])
        elif kind == "touch":
            self.store.touch(key_bytes(event[1]), event[2])
        elif kind == "remove":
            self.store.remove(key_bytes(event[1]))
        elif kind == "clear":
            self.store.clear()
        elif kind == "sync":
            self.synchronize(held)
        elif kind == "compact":
            self.store.compact(event[2])

    def synchronize(self, held):
        if self.store is not None:
            self.store.synchronize()

    def close(self, held):
        if self.store is not None:
            self.store.close()
        self.release()


class HybridBackend(LogBackend):
    """§5: the log for small values, files in external/ for large ones."""

    def __init__(self, folder, read_only):
        super().__init__(folder, read_only, "hybrid.log")
        self.own_names = ("hybrid.log", "external")
        self.superseded = set()

    def external(self, name=None):
        return self.path("external") if name is None else self.path("external", name)

    def discard_format_one(self):
        if kind_of(self.external()) == "folder":
            for name in os.listdir(self.external()):
                if kind_of(self.external(name)) != "folder":
                    remove(self.external(name))
        super().discard_format_one()

    def load(self):
        if not self.read_only:
            os.makedirs(self.external(), exist_ok=True)
        held = super().load()
        if not self.read_only:
            self.remove_unreferenced(held)
        return held

    def held(self, key, value, meta):
        """§5.2, §5.4, §5.6."""
        if value[:1] == b"\x00":
            return Held(bytes(value[1:]), meta)
        if len(value) == 98 and value[:1] == b"\x02":
            length, checksum = struct.unpack_from("<QQ", value, 1)
            name = bytes(value[17:]).decode("ascii", "replace")
            data = read_file(self.external(name)) if "/" not in name else None
            if data is not None and len(data) == length and record_checksum(data) == checksum:
                return Held(data, meta)
            return Held(None, meta, damaged=True, size=len(data) if data is not None else 0)
        return Held(None, meta, damaged=True, size=0)

    def damaged_size(self, key, entry):
        """§5.2, §5.6: an inline value's length without its tag; a reference's file as found."""
        value = self.store.read_unchecked(key, entry)
        if len(value) == 98 and value[:1] == b"\x02":
            return self.held(key, value, None).size
        return max(entry.length - 1, 0)

    def referenced(self):
        names = set()
        for key, entry in (self.store.index if self.store else {}).items():
            if entry.length == 98:
                try:
                    value = self.store.read_record(key, entry)
                except StoreError:
                    continue
                if value[:1] == b"\x02":
                    names.add(bytes(value[17:]).decode("ascii", "replace"))
        return names

    def reference_of(self, key):
        entry = self.store.index.get(key)
        if entry is None or entry.length != 98:
            return None
        try:
            value = self.store.read_record(key, entry)
        except StoreError:
            return None
        return bytes(value[17:]).decode("ascii", "replace") if value[:1] == b"\x02" else None

    def apply(self, event, held):
        kind = event[0]
        if kind == "put":
            key, value, meta = key_bytes(event[1]), event[2], event[3]
            previous = self.reference_of(key)
            if previous is not None:
                self.superseded.add(previous)
            if len(value) >= THRESHOLD:
                name = f"{file_name(key)}-{meta[2]:016x}"
                if name in self.superseded:
                    # §5.3: a file a durable record may name is deleted, after a synchronize,
                    # before a file of the same name is written.
                    if name == previous:
                        self.store.remove(key)
                    self.synchronize(held)
                replace_file(self.external(name), value)
                log_value = b"\x02" + struct.pack("<QQ", len(value), record_checksum(value)) + name.encode("ascii")
            else:
                log_value = b"\x00" + value
            self.store.put(key, log_value, meta)
        elif kind == "remove":
            previous = self.reference_of(key_bytes(event[1]))
            if previous is not None:
                self.superseded.add(previous)
            self.store.remove(key_bytes(event[1]))
        elif kind == "clear":
            self.store.clear()
            self.superseded.clear()
            for name in os.listdir(self.external()):
                if kind_of(self.external(name)) != "folder":
                    remove(self.external(name))
        elif kind == "sync":
            self.synchronize(held)
        elif kind == "compact":
            self.store.compact(event[2])
            self.synchronize(held)
            self.remove_unreferenced(held)
        else:
            super().apply(event, held)

    def synchronize(self, held):
        """§5.3: the superseded files go once the log is durable."""
        super().synchronize(held)
        for name in self.superseded:
            remove(self.external(name))
        self.superseded.clear()

    def remove_unreferenced(self, held):
        """§5.5."""
        if self.store is None or kind_of(self.external()) != "folder":
            return
        keep = self.referenced() | self.superseded
        for name in os.listdir(self.external()):
            if name not in keep and kind_of(self.external(name)) != "folder":
                remove(self.external(name))

    def close(self, held):
        if not self.read_only:
            self.synchronize(held)
        super().close(held)


def backend(name, folder, read_only):
    return {"dictionary": DictionaryBackend, "directory": DirectoryBackend,
            "log": LogBackend, "hybrid": HybridBackend}[name](folder, read_only)
