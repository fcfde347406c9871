import Checksums
import Testing

/// Reference implementations, one byte at a time, straight from the definitions.
private func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

private func referenceAdler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
        a = (a + UInt32(byte)) % 65_521
        b = (b + a) % 65_521
    }
    return (b << 16) | a
}

/// A small deterministic generator so the tests need no global random state.
private struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct CRC32Tests {
    @Test func knownVectors() {
        #expect(CRC32.checksum(of: Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(of: [UInt8]()) == 0)
        #expect(CRC32.checksum(of: Array("IEND".utf8)) == 0xAE42_6082)
        #expect(CRC32.checksum(of: Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func matchesReferenceAtEveryLengthAndAlignment() {
        var random = SplitMix64(state: 42)
        let bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                let slice = Array(bytes[start..<end])
                #expect(CRC32.checksum(of: slice) == referenceCRC32(slice))
            }
        }
    }

    @Test func incrementalEqualsOneShot() {
        var random = SplitMix64(state: 7)
        let bytes = (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var crc = CRC32()
        var offset = 0
        while offset < bytes.count {
            let length = Int(random.next() % 97)
            let end = min(offset + length, bytes.count)
            crc.update(bytes[offset..<end])
            offset = end
        }
        #expect(crc.value == CRC32.checksum(of: bytes))
        #expect(crc.value == referenceCRC32(bytes))
    }
}

@Suite struct Adler32Tests {
    @Test func knownVectors() {
        #expect(Adler32.checksum(of: Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Adler32.checksum(of: [UInt8]()) == 1)
    }

    @Test func deferredModuloHoldsForLongRunsOfFF() {
        // 0xFF bytes drive both sums to their worst case; cross the 5,552-byte block edge.
        for count in [5_551, 5_552, 5_553, 11_104, 100_000] {
            let bytes = [UInt8](repeating: 0xFF, count: count)
            #expect(Adler32.checksum(of: bytes) == referenceAdler32(bytes))
        }
    }

    @Test func matchesReferenceOnRandomData() {
        var random = SplitMix64(state: 3)
        let bytes = (0..<20_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for length in [0, 1, 2, 3, 4, 5, 63, 5_552, 5_555, 20_000] {
            let slice = Array(bytes[0..<length])
            #expect(Adler32.checksum(of: slice) == referenceAdler32(slice))
        }
        var adler = Adler32()
        adler.update(bytes[0..<9_999])
        adler.update(bytes[9_999...])
        #expect(adler.value == referenceAdler32(bytes))
    }
}

@Suite struct CRC32CombineTests {
    @Test func interleavedStreamsMatchTheReferenceAroundTheThreshold() {
        var random = SplitMix64(state: 11)
        let bytes = (0..<5_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for length in [511, 512, 513, 519, 520, 1_535, 1_536, 1_537, 4_999, 5_000] {
            let slice = Array(bytes[0..<length])
            #expect(CRC32.checksum(of: slice) == referenceCRC32(slice), "length \(length)")
        }
    }

    @Test func combineJoinsTwoChecksums() {
        var random = SplitMix64(state: 5)
        let bytes = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for split in [0, 1, 7, 1_000, 2_999, 3_000] {
            let first = CRC32.checksum(of: bytes[0..<split])
            let second = CRC32.checksum(of: bytes[split...])
            #expect(
                CRC32.combine(first, second, secondLength: UInt64(bytes.count - split))
                    == CRC32.checksum(of: bytes))
        }
    }
}

@Suite struct Adler32LaneTests {
    @Test func laneBlocksMatchTheReferenceAcrossBlockEdges() {
        var random = SplitMix64(state: 13)
        // 65,536 bytes is one full lane block and 256 bytes one 16-bit run; cross both with
        // odd tails.
        let bytes = (0..<140_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for length in [
            15, 16, 17, 255, 256, 257, 271, 272, 513, 65_279, 65_535, 65_536, 65_537, 131_072, 140_000,
        ] {
            let slice = Array(bytes[0..<length])
            #expect(Adler32.checksum(of: slice) == referenceAdler32(slice), "length \(length)")
        }
        let ones = [UInt8](repeating: 0xFF, count: 200_000)
        #expect(Adler32.checksum(of: ones) == referenceAdler32(ones))
    }
}
