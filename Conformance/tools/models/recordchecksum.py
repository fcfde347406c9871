#!/usr/bin/env python3
"""The record checksum (Spec/checksum.md) in pure Python, written from the spec alone.

Usage:
    recordchecksum.py FILE...      print the record checksum of each file (- for stdin)
    recordchecksum.py --self-test  check every test vector in Spec/checksum.md §9

As a module: record_checksum(data) -> int, stored_bytes(data) -> the 8 little-endian bytes
(Spec/checksum.md §8). Uses nothing outside the standard library; the hashing itself uses only
integer arithmetic, so it is a model to port, not a fast implementation.
"""
import os
import re
import sys

MASK = 0xFFFFFFFFFFFFFFFF

# §2.4
PRIME32_1 = 0x9E3779B1
PRIME32_2 = 0x85EBCA77
PRIME32_3 = 0xC2B2AE3D
PRIME64_1 = 0x9E3779B185EBCA87
PRIME64_2 = 0xC2B2AE3D27D4EB4F
PRIME64_3 = 0x165667B19E3779F9
PRIME64_4 = 0x85EBCA77C2B2AE63
PRIME64_5 = 0x27D4EB2F165667C5
PRIME_MX1 = 0x165667919E3779F9
PRIME_MX2 = 0x9FB21C651E98DF25

# §2.5
SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1c" "ded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221" "b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea3" "71644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d" "8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb" "170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce" "45cb3a8f95160428afd7fbcabb4b407e"
)
assert len(SECRET) == 192


# §2.2
def r64(data, offset):
    return int.from_bytes(data[offset:offset + 8], "little")


def r32(data, offset):
    return int.from_bytes(data[offset:offset + 4], "little")


# §2.1, §2.3
def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & MASK


def fold(a, b):
    product = a * b
    return (product & MASK) ^ (product >> 64)


def bswap64(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def avalanche(h):
    h ^= h >> 37
    h = (h * PRIME_MX1) & MASK
    return h ^ (h >> 32)


def avalanche64(h):
    h ^= h >> 33
    h = (h * PRIME64_2) & MASK
    h ^= h >> 29
    h = (h * PRIME64_3) & MASK
    return h ^ (h >> 32)


def mix16(data, o, s):
    return fold(r64(data, o) ^ r64(SECRET, s), r64(data, o + 8) ^ r64(SECRET, s + 8))


# §3
def _up_to_16(data):
    n = len(data)
    if n == 0:
        return avalanche64(r64(SECRET, 56) ^ r64(SECRET, 64))
    if n <= 3:
        c1, c2, c3 = data[0], data[n >> 1], data[n - 1]
        combined = (c1 << 16) | (c2 << 24) | c3 | (n << 8)
        return avalanche64(combined ^ (r32(SECRET, 0) ^ r32(SECRET, 4)))
    if n <= 8:
        first, last = r32(data, 0), r32(data, n - 4)
        keyed = ((last + (first << 32)) & MASK) ^ (r64(SECRET, 8) ^ r64(SECRET, 16))
        h = keyed ^ rotl(keyed, 49) ^ rotl(keyed, 24)
        h = (h * PRIME_MX2) & MASK
        h ^= ((h >> 35) + n) & MASK
        h = (h * PRIME_MX2) & MASK
        return h ^ (h >> 28)
    low = r64(data, 0) ^ (r64(SECRET, 24) ^ r64(SECRET, 32))
    high = r64(data, n - 8) ^ (r64(SECRET, 40) ^ r64(SECRET, 48))
    return avalanche((n + bswap64(low) + high + fold(low, high)) & MASK)


# §4
def _up_to_128(data):
    n = len(data)
    h = (n * PRIME64_1) & MASK
    if n > 96:
        h += mix16(data, 48, 96) + mix16(data, n - 64, 112)
    if n > 64:
        h += mix16(data, 32, 64) + mix16(data, n - 48, 80)
    if n > 32:
        h += mix16(data, 16, 32) + mix16(data, n - 32, 48)
    h += mix16(data, 0, 0) + mix16(data, n - 16, 16)
    return avalanche(h & MASK)


# §5
def _up_to_240(data):
    n = len(data)
    h = (n * PRIME64_1) & MASK
    for i in range(8):
        h += mix16(data, 16 * i, 16 * i)
    h = avalanche(h & MASK)
    for i in range(8, n // 16):
        h += mix16(data, 16 * i, 16 * (i - 8) + 3)
    h += mix16(data, n - 16, 119)
    return avalanche(h & MASK)


# §6
def _accumulate(acc, data, p, s):
    for i in range(8):
        d = r64(data, p + 8 * i)
        k = d ^ r64(SECRET, s + 8 * i)
        acc[i ^ 1] = (acc[i ^ 1] + d) & MASK
        acc[i] = (acc[i] + (k & 0xFFFFFFFF) * (k >> 32)) & MASK


def _scramble(acc):
    for i in range(8):
        a = acc[i] ^ (acc[i] >> 47)
        a ^= r64(SECRET, 128 + 8 * i)
        acc[i] = (a * PRIME32_1) & MASK


def _long(data):
    n = len(data)
    acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1]
    for j in range((n - 1) // 64):
        _accumulate(acc, data, 64 * j, 8 * (j % 16))
        if j % 16 == 15:
            _scramble(acc)
    _accumulate(acc, data, n - 64, 121)
    h = (n * PRIME64_1) & MASK
    for i in range(4):
        h += fold(acc[2 * i] ^ r64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ r64(SECRET, 19 + 16 * i))
    return avalanche(h & MASK)


def record_checksum(data):
    """The record checksum of `data` (bytes-like), an integer below 2**64 (§2.6)."""
    data = bytes(data)
    n = len(data)
    if n <= 16:
        return _up_to_16(data)
    if n <= 128:
        return _up_to_128(data)
    if n <= 240:
        return _up_to_240(data)
    return _long(data)


def stored_bytes(data):
    """The 8 bytes a file holds for the checksum of `data`: little-endian (§8)."""
    return record_checksum(data).to_bytes(8, "little")


def pattern(n):
    """The pattern input of §9."""
    return bytes(((i * 2654435761) & 0xFFFFFFFF) >> 24 for i in range(n))


SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Spec", "checksum.md")


def spec_vectors(path=SPEC):
    """The (description, input, checksum) rows of both tables in §9 of the spec."""
    with open(path, encoding="utf-8") as spec:
        text = spec.read()
    section = text[text.index("## 9. Test vectors"):text.index("## 10.")]
    vectors = []
    for length, digest in re.findall(r"^\| (\d+) \| ([0-9A-F]{16}) \|$", section, re.M):
        vectors.append(("pattern(%s)" % length, pattern(int(length)), int(digest, 16)))
    for quoted, digest in re.findall(r"^\| `(.*?)`.*? \| ([0-9A-F]{16}) \|$", section, re.M):
        vectors.append((repr(quoted), quoted.encode("utf-8"), int(digest, 16)))
    return vectors


def self_test():
    vectors = spec_vectors()
    # Both tables must have been found, or the test would pass by checking nothing.
    patterns = sum(1 for name, _, _ in vectors if name.startswith("pattern"))
    strings = len(vectors) - patterns
    if patterns < 30 or strings < 8:
        print("self-test: found %d pattern and %d string vectors in %s; expected at least 30 and 8"
              % (patterns, strings, SPEC))
        return 1
    failed = 0
    for name, data, expected in vectors:
        computed = record_checksum(data)
        if computed != expected:
            failed += 1
            print("FAIL %s: computed %016X, spec says %016X" % (name, computed, expected))
    if stored_bytes(b"abc") != bytes.fromhex("50392F89945FAF78"):
        failed += 1
        print("FAIL stored form of 'abc': %s" % stored_bytes(b"abc").hex())
    print("%d passed, %d failed" % (len(vectors) + 1 - failed, failed))
    return 1 if failed else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    if not arguments or any(a.startswith("--") for a in arguments):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for name in arguments:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as f:
                data = f.read()
        print("%016X  %s" % (record_checksum(data), name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
