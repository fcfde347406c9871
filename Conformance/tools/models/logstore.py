"""The log store of Spec/store.md as a working store on real files, written from that document
alone, for the model driver (drivers/model_driver.py) and its cache backends (models/backends.py).

It reads and writes format 2 (§2–§4), keeps the sync mark (§4.1), recovers as §5 says (the
durable length, torn tails, damage refused, repaired or skipped), compacts as §7 says and
migrates format 1 (§11). It writes each record to the file at once (no write buffer: §8.3
describes the reference implementation's buffering, not a rule; nothing is fsynced, which no
case can observe) and keeps no lock (the cache's folder lock decides, Spec/backends.md §1.5).
Errors are StoreError with the names of §9.
"""
import os
import random
import struct
import zlib

from models.recordchecksum import record_checksum
from writers import storewriter as w

MAGIC, HINT_MAGIC, SYNC_MAGIC = w.MAGIC, w.HINT_MAGIC, w.SYNC_MAGIC
PUT, REMOVE, TOUCH, CLEAR = w.PUT, w.REMOVE, w.TOUCH, w.CLEAR
MAXIMUM_VALUE = (1 << 48) - 1
COMPLEMENT = 0xFFFFFFFFFFFFFFFF
DAMAGE_SEARCH = 64 << 20  # §5.4 rule 2: how far after damage a chain of records is looked for


class StoreError(Exception):
    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Entry:
    """An index entry (§3.3): where the key's put record is, and the current metadata."""

    __slots__ = ("offset", "length", "created", "expires", "sequence", "untouched")

    def __init__(self, offset, length, created, expires, sequence, untouched=True):
        self.offset, self.length = offset, length
        self.created, self.expires, self.sequence = created, expires, sequence
        self.untouched = untouched

    @property
    def meta(self):
        return (self.created, self.expires, self.sequence)


def crc(data):
    return zlib.crc32(bytes(data)) & 0xFFFFFFFF


def u64(data, offset):
    return struct.unpack_from("<Q", data, offset)[0]


class LogStore:
    def __init__(self, path, read_only=False, skips_damage=False, repairs_damage=False):
        self.path = path
        self.read_only = read_only
        self.skips_damage = skips_damage  # §5.4, `skipsDamagedRecords`
        self.repairs_damage = repairs_damage  # §5.3 rule 3, `repairsDamage`
        self.index = {}  # key bytes -> Entry
        self.snapshot_length = None  # the log length the snapshot on disk describes
        self.marked = None  # (generation, length) of the sync mark this store last wrote
        self.damaged = []  # §5.4: (offset, length, key bytes or None) of each span open skipped
        self.closed = False
        self.open()

    # -- open (§5) ------------------------------------------------------------------------------
    def open(self):
        if not os.path.exists(self.path):
            if self.read_only:
                raise StoreError("ioError")
            generation = self.new_generation()
            with open(self.path, "wb") as f:
                f.write(w.file_header(generation=generation))
            self.write_sync_mark(generation, 32)  # §5.1 step 1
        with open(self.path, "rb") as f:
            data = f.read()
        if len(data) == 0:
            if self.read_only:
                raise StoreError("notAStore")
            data = w.file_header(generation=self.new_generation())
            with open(self.path, "wb") as f:
                f.write(data)
        minor = self.check_header(data)
        if data[8] == 1 and data[9] == 0:
            if self.read_only:
                raise StoreError("migrationRequired")
            self.migrate(data)
            return self.open()
        if minor > 0 and not self.read_only:
            raise StoreError("newerMinorVersion")
        self.minor_bump = minor > 0
        if not self.read_only and os.path.exists(self.path + ".compacting"):
            os.remove(self.path + ".compacting")
        self.generation = u64(data, 16)
        start = self.load_snapshot(data)
        # §5.3: the durable length, from the usable mark and the used snapshot.
        self.durable = min(len(data), max(32, start, self.load_sync_mark() or 32))
        self.damaged = []
        end = self.scan(data, start, self.index, self.apply_record)
        if not self.read_only:
            if end < len(data):
                self.cut_tail(end)
            # §5.3 rule 4: what the open kept is durable now, and the mark says so.
            self.write_sync_mark(self.generation, end)
        self.length = end

    def cut_tail(self, end):
        """§5.3 rule 4: a writable open truncates the log to the tail's offset."""
        with open(self.path, "r+b") as f:
            f.truncate(end)

    # -- the sync mark (§4.1) -------------------------------------------------------------------
    def load_sync_mark(self):
        """The length the mark vouches for, when it has the magic, its checksum and this log's
        generation, and is at least 32; None otherwise (a link is never followed)."""
        try:
            descriptor = os.open(self.path + ".sync", os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        with os.fdopen(descriptor, "rb") as f:
            mark = f.read(32)
        if len(mark) < 32 or mark[:8] != SYNC_MAGIC or record_checksum(bytes(mark[:24])) != u64(mark, 24):
            return None
        if u64(mark, 8) != self.generation or u64(mark, 16) < 32:
            return None
        return u64(mark, 16)

    def write_sync_mark(self, generation, length):
        """Writes the mark in place (offset 0): the log of `generation` is durable up to
        `length`. Read-only stores never write it."""
        if self.read_only or self.marked == (generation, length):
            return
        try:
            descriptor = os.open(self.path + ".sync", os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError:
            return  # a lost mark only makes the next open check more (§4.1)
        with os.fdopen(descriptor, "wb") as f:
            f.write(w.sync_mark(length, generation))
        self.marked = (generation, length)

    def synchronize(self):
        """§8.3: the records so far are durable (nothing is buffered here), then the mark."""
        if not self.closed and not self.read_only:
            self.write_sync_mark(self.generation, self.length)

    @staticmethod
    def new_generation():
        return random.getrandbits(64) or 1

    @staticmethod
    def check_header(data):
        """§2.1 rules 1–5, in order (rule 8); returns the minor version."""
        if len(data) < 8 or data[:8] != MAGIC:
            raise StoreError("notAStore")
        if len(data) < 32:
            raise StoreError("corruptFileHeader")
        major, minor = struct.unpack_from("<HH", data, 8)
        if major == 1:
            if crc(data[:28]) != struct.unpack_from("<I", data, 28)[0]:
                raise StoreError("corruptFileHeader")
            return 0
        if major > 2:
            raise StoreError("unsupportedVersion")
        if major == 0 or record_checksum(bytes(data[:24])) != u64(data, 24):
            raise StoreError("corruptFileHeader")
        return minor

    def load_snapshot(self, data):
        """§4: the index from a usable snapshot; returns where the scan starts."""
        try:
            with open(self.path + ".hint", "rb") as f:
                hint = f.read(2 * len(data) + 57)
        except OSError:
            return 32
        if len(hint) < 56 or hint[:8] != HINT_MAGIC or struct.unpack_from("<H", hint, 8)[0] != 2:
            return 32
        if record_checksum(bytes(hint[:40])) != u64(hint, 40) or u64(hint, 16) != self.generation:
            return 32
        length, count = u64(hint, 24), u64(hint, 32)
        if not 32 <= length <= len(data):
            return 32
        body = hint[48:-8]
        if record_checksum(bytes(body)) != u64(hint, len(hint) - 8):
            return 32
        index, position = {}, 0
        for _ in range(count):
            if position + 44 > len(body):
                return 32
            key_length, flags, _, offset, value_length, created, expires, sequence = struct.unpack_from(
                "<HBBQQqqQ", body, position)
            key = bytes(body[position + 44:position + 44 + key_length])
            if len(key) != key_length or key_length == 0 or offset < 32:
                return 32
            if offset + 56 + key_length + value_length > length:
                return 32
            index[key] = Entry(offset, value_length, created, expires, sequence, bool(flags & 1))
            position += 44 + key_length
        if position != len(body):
            return 32
        self.index = index
        self.snapshot_length = length
        return length

    def scan(self, data, start, index, apply):
        """§5.2–§5.3: applies every complete, valid record from `start`, values checked for the
        records that end after the durable length; returns where a tail starts (the file's end
        when there is none)."""
        offset = start
        while offset < len(data):
            remaining = len(data) - offset
            if remaining < 56:
                return offset  # rule 1
            key_length = struct.unpack_from("<H", data, offset + 18)[0]
            if 56 + key_length > remaining:
                return offset  # rule 1
            valid, known = self.valid_header(data, offset, key_length)
            if not valid:
                if offset >= self.durable:
                    return offset  # rule 2: a torn tail
                resumed = self.invalid_record(data, offset, index)
                if resumed is None:
                    return offset
                offset = resumed
                continue
            value_length = u64(data, offset + 24)
            end = offset + 56 + key_length + value_length
            if end > len(data):
                return offset  # rule 1
            if end > self.durable and not self.value_matches(data, offset, key_length, end):
                return offset  # rule 2: written after the last synchronization, and torn
            if known:
                kind = data[offset + 16]
                created, expires, sequence = struct.unpack_from("<qqQ", data, offset + 32)
                apply(index, kind, bytes(data[offset + 56:offset + 56 + key_length]), offset, value_length,
                      created, expires, sequence)
            offset = end
        return offset

    @staticmethod
    def value_matches(data, offset, key_length, end):
        return record_checksum(bytes(data[offset + 56 + key_length:end])) == u64(data, offset + 8)

    def invalid_record(self, data, offset, index):
        """§5.3 rules 2–3 for an invalid record before the durable length: every byte from it
        zero is an unwritten tail (None: the scan stops there); otherwise it is damage to
        synchronized data, skipped (§5.4: where the scan goes on), repaired (cut off as a tail:
        None) or refused."""
        if not any(data[offset:]):
            return None
        if self.skips_damage:
            return self.skip_damage(data, offset, index)
        if self.repairs_damage:
            return None
        raise StoreError("corruptRecord")

    # -- skipping damage (§5.4) -----------------------------------------------------------------
    def skip_damage(self, data, offset, index):
        """The damaged record at `offset` costs only itself when its own lengths lead to the
        durable length or to a valid record (rule 1), else the bytes up to the next chain of valid
        records (rule 2), or up to the durable length (rule 3). Returns where the scan goes on."""
        key_length = struct.unpack_from("<H", data, offset + 18)[0]
        value_length = u64(data, offset + 24)
        end = offset + 56 + key_length + value_length
        if value_length <= MAXIMUM_VALUE and end <= self.durable and (
                end == self.durable or self.record_at(data, end) is not None):
            key = bytes(data[offset + 56:offset + 56 + key_length])
            kind = data[offset + 16]
            if kind == CLEAR:
                index.clear()
            elif kind != TOUCH:
                index.pop(key, None)  # a put, a remove or an unknown type: no earlier value comes back
            self.damaged.append((offset, end - offset, key if key_length else None))
            return end
        resume = self.chain_start(data, offset)
        self.damaged.append((offset, resume - offset, None))
        return resume

    def record_at(self, data, offset):
        """The length of the record whose valid header (and key) starts at `offset`, or None."""
        if offset + 56 > len(data):
            return None
        key_length = struct.unpack_from("<H", data, offset + 18)[0]
        if offset + 56 + key_length > len(data):
            return None
        if data[offset + 16] not in (PUT, REMOVE, TOUCH, CLEAR) and not self.minor_bump:
            return None  # cheap checks first: the header checksum is slow in pure Python
        if (data[offset + 17] or data[offset + 20:offset + 24] != b"\0\0\0\0") and not self.minor_bump:
            return None
        if not self.valid_header(data, offset, key_length)[0]:
            return None
        return 56 + key_length + u64(data, offset + 24)

    def chain_start(self, data, offset):
        """Rule 2: the first offset after `offset` (within 64 MiB) from which valid records follow
        one another up to the durable length or past it; the durable length when there is none."""
        for candidate in range(offset + 1, min(self.durable, offset + 1 + DAMAGE_SEARCH)):
            position = candidate
            while True:
                length = self.record_at(data, position)
                if length is None:
                    break
                if position + length >= self.durable:
                    return candidate
                position += length
        return self.durable

    def valid_header(self, data, offset, key_length):
        """(valid, of a known type) for the record header at `offset` (§3.2)."""
        if record_checksum(bytes(data[offset + 8:offset + 56 + key_length])) != u64(data, offset):
            return False, False
        kind, flags = data[offset + 16], data[offset + 17]
        reserved = struct.unpack_from("<I", data, offset + 20)[0]
        value_length = u64(data, offset + 24)
        if kind not in (PUT, REMOVE, TOUCH, CLEAR):
            return self.minor_bump, False
        if (flags or reserved) and not self.minor_bump:
            return False, False
        if kind == CLEAR:
            shape = key_length == 0 and value_length == 0
        elif kind == PUT:
            shape = key_length >= 1 and value_length <= MAXIMUM_VALUE
        else:
            shape = key_length >= 1 and value_length == 0
        return shape, True

    @staticmethod
    def apply_record(index, kind, key, offset, value_length, created, expires, sequence):
        """§3.3."""
        if kind == PUT:
            index[key] = Entry(offset, value_length, created, expires, sequence)
        elif kind == REMOVE:
            index.pop(key, None)
        elif kind == TOUCH and key in index:
            entry = index[key]
            entry.created, entry.expires, entry.sequence, entry.untouched = created, expires, sequence, False
        elif kind == CLEAR:
            index.clear()

    # -- format 1 (§11) -------------------------------------------------------------------------
    def migrate(self, data):
        """§11.2: rewrites a format-1 log as format 2."""
        index = {}
        offset = 32
        while offset < len(data):
            remaining = len(data) - offset
            if remaining < 48:
                break
            key_length = struct.unpack_from("<H", data, offset + 10)[0]
            if 48 + key_length > remaining:
                break
            kind, flags = data[offset + 8], data[offset + 9]
            reserved = struct.unpack_from("<I", data, offset + 12)[0]
            value_length = u64(data, offset + 16)
            header_ok = crc(data[offset + 8:offset + 48 + key_length]) == struct.unpack_from("<I", data, offset + 4)[0]
            minor = struct.unpack_from("<H", data, 10)[0]
            known = kind in (PUT, REMOVE, TOUCH, CLEAR)
            shape = (key_length == 0 and value_length == 0) if kind == CLEAR else (
                key_length >= 1 and (value_length <= MAXIMUM_VALUE if kind == PUT else value_length == 0))
            if not header_ok or (known and not shape) or (not known and minor == 0) or (
                    (flags or reserved) and minor == 0):
                if not any(data[offset:]) or self.repairs_damage:
                    break  # format 1 is synchronized data as a whole (§11.1): D = its size
                raise StoreError("corruptRecord")
            end = offset + 48 + key_length + value_length
            if end > len(data):
                break
            if known:
                created, expires, sequence = struct.unpack_from("<qqQ", data, offset + 24)
                self.apply_record(index, kind, bytes(data[offset + 48:offset + 48 + key_length]), offset,
                                  value_length, created, expires, sequence)
            offset = end
        out = bytearray(w.file_header(generation=self.new_generation()))
        for key, entry in sorted(index.items(), key=lambda item: item[1].offset):
            start = entry.offset + 48 + len(key)
            value = bytes(data[start:start + entry.length])
            checksum = record_checksum(value)
            if crc(data[entry.offset + 4:start + entry.length]) != struct.unpack_from("<I", data, entry.offset)[0]:
                checksum ^= COMPLEMENT
            out += w.put(key, value, *entry.meta, value_checksum=checksum)
        self.replace(out)
        self.write_sync_mark(u64(out, 16), len(out))  # §4.1: for the new generation
        for leftover in (self.path + ".hint",):
            if os.path.exists(leftover):
                os.remove(leftover)

    # -- reads (§8.2) ---------------------------------------------------------------------------
    def value(self, key):
        """The checked value of `key`, or None when it is not held."""
        self.check_open()
        entry = self.index.get(key)
        if entry is None:
            return None
        return self.read_record(key, entry)

    def read_unchecked(self, key, entry):
        """The value bytes where the index says, without any check (the size of a damaged
        entry, Spec/backends.md §5.6)."""
        with open(self.path, "rb") as f:
            f.seek(entry.offset + 56 + len(key))
            return f.read(entry.length)

    def read_record(self, key, entry):
        with open(self.path, "rb") as f:
            f.seek(entry.offset)
            record = f.read(56 + len(key) + entry.length)
        if len(record) < 56 + len(key) + entry.length:
            raise StoreError("truncatedRecord")
        if (record[16] != PUT or struct.unpack_from("<H", record, 18)[0] != len(key)
                or record[56:56 + len(key)] != key or u64(record, 24) != entry.length):
            raise StoreError("checksumMismatch")
        value = record[56 + len(key):]
        if record_checksum(record[8:56 + len(key)]) != u64(record, 0) or record_checksum(value) != u64(record, 8):
            raise StoreError("checksumMismatch")
        return value

    def metadata(self, key):
        entry = self.index.get(key)
        return None if entry is None else entry.meta

    def keys(self):
        return sorted(self.index)

    # -- writes (§3.3) --------------------------------------------------------------------------
    def check_open(self):
        if self.closed:
            raise StoreError("closed")

    def check_writable(self):
        self.check_open()
        if self.read_only:
            raise StoreError("readOnly")

    def append(self, record):
        with open(self.path, "ab") as f:
            f.write(record)
        offset = self.length
        self.length += len(record)
        return offset

    def put(self, key, value, meta):
        self.check_writable()
        offset = self.append(w.put(key, value, *meta))
        self.index[key] = Entry(offset, len(value), *meta)

    def touch(self, key, meta):
        self.check_writable()
        if key not in self.index:
            return  # §3.3 rule 5
        self.append(w.touch(key, *meta))
        entry = self.index[key]
        entry.created, entry.expires, entry.sequence, entry.untouched = *meta, False

    def remove(self, key):
        self.check_writable()
        if key not in self.index:
            return False
        self.append(w.remove(key))
        del self.index[key]
        return True

    def clear(self):
        self.check_writable()
        self.append(w.clear())
        self.index.clear()

    # -- compaction (§7) ------------------------------------------------------------------------
    def compact(self, now):
        """§7.1: the live entries not expired at `now`, in log order, into a new log."""
        self.check_writable()
        with open(self.path, "rb") as f:
            data = f.read()
        out = bytearray(w.file_header(generation=self.new_generation()))
        index = {}
        for key, entry in sorted(self.index.items(), key=lambda item: item[1].offset):
            if entry.expires <= now:
                continue
            size = 56 + len(key) + entry.length
            record = data[entry.offset:entry.offset + size]
            offset = len(out)
            if entry.untouched:
                out += record
            else:
                out += w.put(key, bytes(record[56 + len(key):]), *entry.meta,
                             value_checksum=self.rewritten_checksum(key, record))
            index[key] = Entry(offset, entry.length, *entry.meta)
        self.replace(out)
        self.generation = u64(out, 16)
        self.index = index
        self.length = len(out)
        self.write_sync_mark(self.generation, self.length)  # §7.1 step 4
        self.write_snapshot()
        return len(index)

    @staticmethod
    def rewritten_checksum(key, record):
        """§7.1 step 1: the old record's value checksum, or the complement of the value's
        actual checksum when the old header fails its own, so that damage stays detectable."""
        if record_checksum(record[8:56 + len(key)]) != u64(record, 0):
            return record_checksum(record[56 + len(key):]) ^ COMPLEMENT
        return u64(record, 8)

    def replace(self, data):
        """Writes `data` to `<log>.compacting` and renames it over the log (§7.1 steps 1–4)."""
        with open(self.path + ".compacting", "wb") as f:
            f.write(data)
        os.replace(self.path + ".compacting", self.path)

    # -- snapshot (§4) and close ----------------------------------------------------------------
    def write_snapshot(self):
        entries = [(key, 1 if e.untouched else 0, e.offset, e.length, e.created, e.expires, e.sequence)
                   for key, e in sorted(self.index.items())]
        with open(self.path + ".hint.tmp", "wb") as f:
            f.write(w.snapshot(self.generation, self.length, entries))
        os.replace(self.path + ".hint.tmp", self.path + ".hint")
        self.snapshot_length = self.length

    def close(self):
        """Synchronizes (§8.3) and, unless a snapshot describes the log as it is, writes one (§4)."""
        if self.closed:
            return
        self.synchronize()
        if not self.read_only and self.snapshot_length != self.length:
            self.write_snapshot()
        self.closed = True
