"""zlib and DEFLATE decoding as Spec/deflate.md states it, written from that document and RFC
1950/1951 alone, for the model driver (drivers/model_driver.py).

Every error is an InflateError carrying the stable name of Spec/deflate.md §7, raised at the
first rule the input breaks when read in order (§1.5, §7.2). Symbols are decoded through a
table of the code's longest length where enough input is left, and one bit at a time (§5.3)
near the end of the input and for the incomplete codes §5.2 accepts, so that truncation and
unassigned codes are met exactly where the spec says.
"""
import zlib

LENGTH_BASES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                131, 163, 195, 227, 258]
LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
DISTANCE_BASES = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                  2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]


class InflateError(Exception):
    """A failure of Spec/deflate.md §7; `name` is its stable name."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


class Bits:
    """The input, read least significant bit first (§3.1)."""

    def __init__(self, data, position=0):
        self.data = data
        self.position = position * 8  # in bits

    @property
    def remaining(self):
        return len(self.data) * 8 - self.position

    def bit(self):
        if self.position >= len(self.data) * 8:
            raise InflateError("truncatedInput")
        value = (self.data[self.position >> 3] >> (self.position & 7)) & 1
        self.position += 1
        return value

    def bits(self, count):
        if self.remaining < count:
            self.position = len(self.data) * 8
            raise InflateError("truncatedInput")
        value = 0
        for index in range(count):
            value |= ((self.data[(self.position + index) >> 3] >> ((self.position + index) & 7)) & 1) << index
        self.position += count
        return value

    def peek(self, count):
        """The next `count` bits without consuming them (the caller checked they exist)."""
        value = int.from_bytes(self.data[self.position >> 3:(self.position + count + 7 >> 3) + 1], "little")
        return (value >> (self.position & 7)) & ((1 << count) - 1)

    def align(self):
        self.position = (self.position + 7) & ~7

    @property
    def byte_offset(self):
        return self.position >> 3


class Code:
    """A canonical Huffman code (§5.1), checked as §5.2 says."""

    def __init__(self, lengths, table):
        self.table = table
        used = [length for length in lengths if length]
        kraft = sum(1 << (15 - length) for length in used)
        if kraft > 1 << 15:
            raise InflateError("oversubscribedCode")
        one_bit = len(used) == 1 and used[0] == 1
        if kraft < 1 << 15:
            accepted = (one_bit and table in ("literalLength", "distance")) or (not used and table == "distance")
            if not accepted:
                raise InflateError("incompleteCode")
        self.special = kraft < 1 << 15  # decoded one bit at a time, unassigned patterns included
        self.longest = max(used, default=0)
        self.codes = {}  # (length, code) -> symbol
        code = 0
        for length in range(1, 16):
            for symbol, symbol_length in enumerate(lengths):
                if symbol_length == length:
                    self.codes[(length, code)] = symbol
                    code += 1
            code <<= 1
        # A table of every `longest`-bit input (least significant bit first) to (symbol, length).
        self.lookup = None
        if not self.special:
            self.lookup = [None] * (1 << self.longest)
            for (length, code), symbol in self.codes.items():
                reversed_code = int(format(code, f"0{length}b")[::-1], 2)
                for high in range(1 << (self.longest - length)):
                    self.lookup[reversed_code | (high << length)] = (symbol, length)

    def decode(self, bits):
        if self.lookup is not None and bits.remaining >= self.longest:
            symbol, length = self.lookup[bits.peek(self.longest)]
            bits.position += length
            return symbol
        code = 0
        for length in range(1, 16):
            code = (code << 1) | bits.bit()
            symbol = self.codes.get((length, code))
            if symbol is not None:
                return symbol
            if length >= self.longest:
                raise InflateError("unassignedCode")
        raise InflateError("unassignedCode")


FIXED_LITERALS = Code([8] * 144 + [9] * 112 + [7] * 24 + [8] * 8, "literalLength")
FIXED_DISTANCES = Code([5] * 32, "distance")


def inflate_raw(bits, output, limit):
    """Decodes DEFLATE blocks from `bits` into `output` (a bytearray) until the final block
    (§4); more than `limit` bytes is outputLimitExceeded (§6.1)."""
    limit = max(limit, 0)
    while True:
        final = bits.bits(1)
        kind = bits.bits(2)
        if kind == 3:
            raise InflateError("invalidBlockType")
        if kind == 0:
            bits.align()
            length = bits.bits(16)
            complement = bits.bits(16)
            if complement != length ^ 0xFFFF:
                raise InflateError("storedLengthMismatch")
            start = bits.byte_offset
            available = len(bits.data) - start
            room = limit - len(output)
            take = min(length, available, room)
            output += bits.data[start:start + take]
            bits.position += take * 8
            if take < length:
                # Reading each byte comes before writing it (§4.2).
                raise InflateError("truncatedInput" if available <= room else "outputLimitExceeded")
        else:
            literals, distances = (FIXED_LITERALS, FIXED_DISTANCES) if kind == 1 else dynamic_codes(bits)
            decode_block(bits, output, limit, literals, distances)
        if final:
            return


def dynamic_codes(bits):
    """The two codes of a dynamic block header (§4.3)."""
    literal_count = bits.bits(5) + 257
    distance_count = bits.bits(5) + 1
    code_length_count = bits.bits(4) + 4
    if literal_count > 286 or distance_count > 30:
        raise InflateError("tooManyCodes")
    lengths = [0] * 19
    for index in range(code_length_count):
        lengths[CODE_LENGTH_ORDER[index]] = bits.bits(3)
    code_lengths = Code(lengths, "codeLength")
    total = literal_count + distance_count
    sequence = []
    while len(sequence) < total:
        symbol = code_lengths.decode(bits)
        if symbol < 16:
            sequence.append(symbol)
            continue
        if symbol == 16:
            count = 3 + bits.bits(2)
            if not sequence:
                raise InflateError("repeatWithoutPreviousLength")
            value = sequence[-1]
        elif symbol == 17:
            count, value = 3 + bits.bits(3), 0
        else:
            count, value = 11 + bits.bits(7), 0
        if count > total - len(sequence):
            raise InflateError("codeLengthsOverflow")
        sequence += [value] * count
    if sequence[256] == 0:
        raise InflateError("missingEndOfBlock")
    return Code(sequence[:literal_count], "literalLength"), Code(sequence[literal_count:], "distance")


def decode_block(bits, output, limit, literals, distances):
    """The compressed data of one block (§4.4)."""
    while True:
        symbol = literals.decode(bits)
        if symbol < 256:
            if len(output) >= limit:
                raise InflateError("outputLimitExceeded")
            output.append(symbol)
            continue
        if symbol == 256:
            return
        if symbol > 285:
            raise InflateError("invalidSymbol")
        index = symbol - 257
        length = LENGTH_BASES[index] + bits.bits(LENGTH_EXTRA[index])
        if index == 27 and length == 258:
            pass  # 284 with extra bits 31: accepted as zlib does (§4.4)
        distance_symbol = distances.decode(bits)
        if distance_symbol > 29:
            raise InflateError("invalidSymbol")
        distance = DISTANCE_BASES[distance_symbol] + bits.bits(DISTANCE_EXTRA[distance_symbol])
        if distance > len(output):
            raise InflateError("distanceTooFar")
        room = limit - len(output)
        start = len(output) - distance
        if distance >= length and length <= room:
            output += output[start:start + length]
            continue
        for offset in range(length):
            if len(output) >= limit:
                raise InflateError("outputLimitExceeded")
            output.append(output[start + offset])


def zlib_decompress(data, limit):
    """A zlib stream (§2) to its bytes, at most `limit` of them."""
    if len(data) < 2:
        raise InflateError("truncatedInput")
    cmf, flg = data[0], data[1]
    if cmf & 0x0F != 8 or cmf >> 4 > 7 or (cmf * 256 + flg) % 31 != 0:
        raise InflateError("invalidZlibHeader")
    if flg & 0x20:
        raise InflateError("presetDictionaryUnsupported")
    bits = Bits(data, 2)
    output = bytearray()
    inflate_raw(bits, output, limit)
    bits.align()
    start = bits.byte_offset
    if len(data) - start < 4:
        raise InflateError("truncatedInput")
    if int.from_bytes(data[start:start + 4], "big") != zlib.adler32(bytes(output)) & 0xFFFFFFFF:
        raise InflateError("adlerMismatch")
    return bytes(output)
