"""An independent writer and reader model of the log store format (Spec/store.md), for the
conformance cases. Written from the format's tables; all integers little-endian.

File header (32 bytes): magic 89 49 43 4C 4F 47 0D 0A, major u16, minor u16, reserved u32,
generation u64, reserved u32, CRC-32 of bytes 0..27.
Record: record CRC u32 (bytes 4..end), header CRC u32 (bytes 8..47 and the key), type u8,
flags u8, key length u16, reserved u32, value length u64, createdAt i64, expiresAt i64,
accessSequence u64, key, value.
"""
import struct
import zlib

MAGIC = bytes([0x89, 0x49, 0x43, 0x4C, 0x4F, 0x47, 0x0D, 0x0A])
PUT, REMOVE, TOUCH, CLEAR = 1, 2, 3, 4
NEVER = 2 ** 63 - 1
HEADER_SIZE = 32
RECORD_HEADER_SIZE = 48
# The generation bytes and the header CRC (which covers them) vary per store: cases that
# compare a whole file ignore these ranges.
GENERATION_RANGES = [[16, 24], [28, 32]]


def crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def file_header(major=1, minor=0, generation=0x0123456789ABCDEF, checksum=None):
    head = MAGIC + struct.pack("<HHIQI", major, minor, 0, generation, 0)
    return head + struct.pack("<I", crc(head) if checksum is None else checksum)


def record(kind, key=b"", value=b"", created=0, expires=NEVER, sequence=0, flags=0, reserved=0,
           header_crc=None, record_crc=None):
    key = key.encode() if isinstance(key, str) else key
    fixed = struct.pack("<BBHIQqqQ", kind, flags, len(key), reserved, len(value), created, expires, sequence)
    hcrc = crc(fixed + key) if header_crc is None else header_crc
    rest = struct.pack("<I", hcrc) + fixed + key + value
    rcrc = crc(rest) if record_crc is None else record_crc
    return struct.pack("<I", rcrc) + rest


def put(key, value, created=0, expires=NEVER, sequence=0, **kw):
    return record(PUT, key, value, created, expires, sequence, **kw)


def remove(key):
    # Remove and clear records carry no metadata: all three fields are zero.
    return record(REMOVE, key, b"", 0, 0, 0)


def touch(key, created, expires, sequence):
    return record(TOUCH, key, b"", created, expires, sequence)


def clear():
    return record(CLEAR, b"", b"", 0, 0, 0)


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


HINT_MAGIC = bytes([0x89, 0x49, 0x43, 0x48, 0x49, 0x4E, 0x54, 0x0A])


def snapshot(generation, log_length, entries, header_crc=None, entries_crc=None):
    """A snapshot ("hint") file (Spec/store.md §4). entries: tuples (key, flags, offset,
    valueLength, createdAt, expiresAt, accessSequence)."""
    body = bytearray()
    for key, flags, offset, length, created, expires, sequence in entries:
        key = key.encode() if isinstance(key, str) else key
        body += struct.pack("<HBBQQqqQ", len(key), flags, 0, offset, length, created, expires, sequence) + key
    head = HINT_MAGIC + struct.pack("<HHIQQQI", 1, 0, 0, generation, log_length, len(entries), 0)
    head += struct.pack("<I", crc(head) if header_crc is None else header_crc)
    return head + bytes(body) + struct.pack("<I", crc(bytes(body)) if entries_crc is None else entries_crc)
