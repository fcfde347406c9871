"""An independent writer and reader model of the log store format (Spec/store.md), for the
conformance cases. Written from the format's tables; all integers little-endian.

Format 2 (Spec/store.md §2–§4), the current one:
File header (32 bytes): magic 89 49 43 4C 4F 47 0D 0A, major u16 = 2, minor u16, flags u32,
generation u64, header checksum u64 of bytes 0..23.
Record (56-byte header): header checksum u64 (bytes 8 .. 56 + keyLength - 1), value checksum
u64, type u8, flags u8, key length u16, reserved u32, value length u64, createdAt i64,
expiresAt i64, accessSequence u64, key, value.
Snapshot: 48-byte header (magic, major u16 = 2, minor u16, reserved u32, generation u64,
logLength u64, entryCount u64, header checksum u64 of bytes 0..39), entries of 44 + keyLength
bytes, an 8-byte checksum of the entries.
Sync mark (Spec/store.md §4.1), 32 bytes: magic 89 49 43 53 59 4E 43 0A, generation u64,
length u64 (the bytes of the log that were durable), checksum u64 of bytes 0..23.
Every checksum is the record checksum of Spec/checksum.md (models/recordchecksum.py).

Format 3 (Spec/store.md §13): major 3; a record's reserved field is its userMetadataLength m,
and a record with m > 0 is followed by a user-metadata block (the record checksum of the m
bytes, then the bytes); type 5 replaces an entry's user metadata. Snapshots of major 3 have
entries of 56 + keyLength bytes. The *3 functions below.

Format 1 (Spec/store.md §11), kept for the migration cases: the v1_* functions, CRC-32.
"""
import struct
import zlib

from models.recordchecksum import record_checksum

MAGIC = bytes([0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A])
HINT_MAGIC = bytes([0x89, 0x49, 0x43, 0x48, 0x49, 0x4E, 0x54, 0x0A])
SYNC_MAGIC = bytes([0x89, 0x49, 0x43, 0x53, 0x59, 0x4E, 0x43, 0x0A])
PUT, REMOVE, TOUCH, CLEAR = 1, 2, 3, 4
NEVER = 2 ** 63 - 1
HEADER_SIZE = 32
RECORD_HEADER_SIZE = 56
GENERATION = 0x0123456789ABCDEF
# The generation (bytes 16..23) and the header checksum over it (24..31) vary per store: cases
# that compare a whole file ignore these ranges.
GENERATION_RANGES = [[16, 32]]
# A sync mark names the same generation (bytes 8..15), and its checksum (24..31) is over it;
# the length is exact.
SYNC_GENERATION_RANGES = [[8, 16], [24, 32]]


def checksum(data):
    return record_checksum(bytes(data))


def _key(key):
    return key.encode() if isinstance(key, str) else key


def file_header(major=2, minor=0, generation=GENERATION, header_checksum=None, flags=0):
    head = MAGIC + struct.pack("<HHIQ", major, minor, flags, generation)
    return head + struct.pack("<Q", checksum(head) if header_checksum is None else header_checksum)


def record(kind, key=b"", value=b"", created=0, expires=NEVER, sequence=0, flags=0, reserved=0,
           header_checksum=None, value_checksum=None):
    key = _key(key)
    vsum = checksum(value) if value_checksum is None else value_checksum
    fixed = struct.pack("<QBBHIQqqQ", vsum, kind, flags, len(key), reserved, len(value), created, expires, sequence)
    hsum = checksum(fixed + key) if header_checksum is None else header_checksum
    return struct.pack("<Q", hsum) + fixed + key + value


def put(key, value, created=0, expires=NEVER, sequence=0, **kw):
    return record(PUT, key, value, created, expires, sequence, **kw)


def remove(key):
    # Remove and clear records carry no metadata: all three fields are zero.
    return record(REMOVE, key, b"", 0, 0, 0)


def touch(key, created, expires, sequence):
    return record(TOUCH, key, b"", created, expires, sequence)


def clear():
    return record(CLEAR, b"", b"", 0, 0, 0)


def _snapshot_entries(entries):
    """The entries of a snapshot, laid out alike in both formats."""
    body = bytearray()
    for key, flags, offset, length, created, expires, sequence in entries:
        key = _key(key)
        body += struct.pack("<HBBQQqqQ", len(key), flags, 0, offset, length, created, expires, sequence) + key
    return bytes(body)


def snapshot(generation, log_length, entries, header_checksum=None, entries_checksum=None, major=2):
    """A snapshot ("hint") file (Spec/store.md §4). entries: tuples (key, flags, offset,
    valueLength, createdAt, expiresAt, accessSequence)."""
    body = _snapshot_entries(entries)
    head = HINT_MAGIC + struct.pack("<HHIQQQ", major, 0, 0, generation, log_length, len(entries))
    head += struct.pack("<Q", checksum(head) if header_checksum is None else header_checksum)
    trailer = checksum(body) if entries_checksum is None else entries_checksum
    return head + body + struct.pack("<Q", trailer)


def sync_mark(length, generation=GENERATION, mark_checksum=None, magic=SYNC_MAGIC):
    """A sync mark (`<log>.sync`, Spec/store.md §4.1): the log of `generation` was durable up to
    `length`. `mark_checksum` and `magic` replace the right ones, for marks a reader ignores."""
    head = magic + struct.pack("<QQ", generation, length)
    return head + struct.pack("<Q", checksum(head) if mark_checksum is None else mark_checksum)


# -- format 3 (Spec/store.md §13) ---------------------------------------------------------------
USER_METADATA = 5


def record3(kind, key=b"", value=b"", created=0, expires=NEVER, sequence=0, user_metadata=b"",
            block_checksum=None, **kw):
    """A format-3 record: §3's with m in the reserved field and, when m > 0, the block."""
    block = b""
    if user_metadata:
        block = struct.pack("<Q", checksum(user_metadata) if block_checksum is None else block_checksum)
        block += user_metadata
    return record(kind, key, value, created, expires, sequence, reserved=len(user_metadata), **kw) + block


def put3(key, value, created=0, expires=NEVER, sequence=0, user_metadata=b"", **kw):
    return record3(PUT, key, value, created, expires, sequence, user_metadata, **kw)


def set_user_metadata3(key, user_metadata, created, expires, sequence, **kw):
    """A type-5 record: the entry's current metadata (ignored by readers) and its new user metadata."""
    return record3(USER_METADATA, key, b"", created, expires, sequence, user_metadata, **kw)


def snapshot3(generation, log_length, entries):
    """A snapshot of a format-3 log (major 3): entries (key, flags, offset, valueLength,
    createdAt, expiresAt, accessSequence, putUserMetadataLength, userMetadataLength,
    userMetadataOffset)."""
    body = bytearray()
    for key, flags, offset, length, created, expires, sequence, put_m, m, m_offset in entries:
        key = _key(key)
        body += struct.pack("<HBBQQqqQHHQ", len(key), flags, 0, offset, length, created, expires, sequence,
                            put_m, m, m_offset) + key
    head = HINT_MAGIC + struct.pack("<HHIQQQ", 3, 0, 0, generation, log_length, len(entries))
    head += struct.pack("<Q", checksum(head))
    return head + bytes(body) + struct.pack("<Q", checksum(bytes(body)))


# -- format 1 (Spec/store.md §11.1) -------------------------------------------------------------
V1_RECORD_HEADER_SIZE = 48


def crc(data):
    return zlib.crc32(bytes(data)) & 0xFFFFFFFF


def v1_file_header(major=1, minor=0, generation=GENERATION, header_crc=None):
    head = MAGIC + struct.pack("<HHIQI", major, minor, 0, generation, 0)
    return head + struct.pack("<I", crc(head) if header_crc is None else header_crc)


def v1_record(kind, key=b"", value=b"", created=0, expires=NEVER, sequence=0, flags=0, reserved=0,
              header_crc=None, record_crc=None):
    key = _key(key)
    fixed = struct.pack("<BBHIQqqQ", kind, flags, len(key), reserved, len(value), created, expires, sequence)
    hcrc = crc(fixed + key) if header_crc is None else header_crc
    rest = struct.pack("<I", hcrc) + fixed + key + value
    rcrc = crc(rest) if record_crc is None else record_crc
    return struct.pack("<I", rcrc) + rest


def v1_put(key, value, created=0, expires=NEVER, sequence=0, **kw):
    return v1_record(PUT, key, value, created, expires, sequence, **kw)


def v1_remove(key):
    return v1_record(REMOVE, key, b"", 0, 0, 0)


def v1_touch(key, created, expires, sequence):
    return v1_record(TOUCH, key, b"", created, expires, sequence)


def v1_clear():
    return v1_record(CLEAR, b"", b"", 0, 0, 0)


def v1_snapshot(generation, log_length, entries):
    body = _snapshot_entries(entries)
    head = HINT_MAGIC + struct.pack("<HHIQQQI", 1, 0, 0, generation, log_length, len(entries), 0)
    head += struct.pack("<I", crc(head))
    return head + body + struct.pack("<I", crc(body))


class Model:
    """What a reader must see: key -> (value, created, expires, sequence)."""

    def __init__(self):
        self.entries = {}

    def apply(self, kind, key, value=b"", created=0, expires=NEVER, sequence=0):
        if kind == PUT:
            self.entries[key] = (value, created, expires, sequence)
        elif kind == REMOVE:
            self.entries.pop(key, None)
        elif kind == TOUCH and key in self.entries:
            self.entries[key] = (self.entries[key][0], created, expires, sequence)
        elif kind == CLEAR:
            self.entries.clear()

    def compacted(self, now):
        """The live entries compaction keeps: those not expired at now (expiresAt > now)."""
        kept = Model()
        kept.entries = {k: v for k, v in self.entries.items() if v[2] > now}
        return kept
