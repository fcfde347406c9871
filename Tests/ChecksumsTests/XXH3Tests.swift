import Checksums
import Testing

/// Digests from the `xxhash` Python package (libxxhash 0.8.4), an implementation independent of
/// this one; the same table is in `Spec/checksum.md` §9.
@Suite struct XXH3Tests {
    static let patternVectors: [(length: Int, digest: UInt64)] = [
        (0, 0x2D06_8005_38D3_94C2),
        (1, 0xC44B_DFF4_074E_ECDB),
        (2, 0xB0A5_D4F1_67A8_9D5E),
        (3, 0xE140_90F5_54A5_EA90),
        (4, 0x2E8D_078A_566E_9749),
        (5, 0x94B7_BED6_00F8_CE63),
        (7, 0xE6F7_7708_46C4_7DF5),
        (8, 0xCD1C_7F88_482F_CAEF),
        (9, 0xBFE4_3DEF_699F_A9E3),
        (12, 0x0272_42C0_A3B5_93E8),
        (16, 0x81E9_EB86_3446_0BB9),
        (17, 0x9998_430F_D0A6_55BE),
        (31, 0x6427_C268_CCD5_5706),
        (32, 0x938C_25DD_24C9_CF3B),
        (33, 0x0E39_9D30_188E_9C8E),
        (63, 0x9E5E_DF51_4E6C_4EA2),
        (64, 0x22A0_6B30_C4C7_2936),
        (65, 0x7FAF_F6EE_E781_2D5C),
        (96, 0x3240_46D7_FF97_71F1),
        (97, 0x00D6_1F9A_16F8_EFFD),
        (127, 0x29A5_BE88_E84C_D571),
        (128, 0x75EC_A5C5_D559_4884),
        (129, 0xA05D_A42E_7A4E_4667),
        (200, 0xE07B_FBC1_5015_BF69),
        (239, 0xA44C_92FE_ED3D_48FA),
        (240, 0x5EB2_467C_8C9E_3969),
        (241, 0x2D43_1E98_4C44_1F15),
        (255, 0x6CB5_279B_B126_7B3B),
        (256, 0x1369_AAF8_5F8B_805A),
        (257, 0x53D0_8D96_1736_15DE),
        (320, 0xF725_DB88_132A_E753),
        (1023, 0x4E30_BB61_1FAA_8F67),
        (1024, 0xE99D_EF11_45F1_2936),
        (1025, 0x83CB_A9B3_71E4_E7F4),
        (2048, 0x5327_5D58_CFBA_68FD),
        (2049, 0x3CD3_2460_D504_D215),
        (4096, 0x9BF6_7F8D_EFF8_76AE),
        (65549, 0x857B_6DCA_DF26_0A25),
        (1_048_576, 0xA608_68B9_A501_8405),
    ]

    static let stringVectors: [(text: String, digest: UInt64)] = [
        ("", 0x2D06_8005_38D3_94C2),
        ("a", 0xE6C6_32B6_1E96_4E1F),
        ("abc", 0x78AF_5F94_892F_3950),
        ("123456789", 0x72DC_B18B_67A1_7DFF),
        ("message digest", 0x160D_8E93_29BE_94F9),
        ("abcdefghijklmnopqrstuvwxyz", 0x810F_9CA0_67FB_B90C),
        ("The quick brown fox jumps over the lazy dog", 0xCE7D_19A5_418F_B365),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 0x6435_42BB_5163_9CB2),
    ]

    @Test func patternVectorsCoverEveryLengthPath() {
        for (length, digest) in XXH3Tests.patternVectors {
            let input = ChecksumTestInput.pattern(length)
            #expect(XXH3.checksum(of: input) == digest, "length \(length)")
            input.withUnsafeBytes { #expect(XXH3.checksum(of: $0) == digest, "length \(length)") }
        }
    }

    @Test func stringVectors() {
        for (text, digest) in XXH3Tests.stringVectors {
            #expect(XXH3.checksum(of: Array(text.utf8)) == digest, "\(text)")
        }
        #expect(XXH3Tests.stringVectors.map(\.text) == ChecksumTestInput.strings)
    }

    @Test func splittingAtEveryOffsetGivesTheOneShotDigest() {
        let input = ChecksumTestInput.pattern(2_000)
        let expected = XXH3.checksum(of: input)
        for split in 0...input.count {
            var hasher = XXH3()
            hasher.update(input[..<split])
            hasher.update(input[split...])
            #expect(hasher.value == expected, "split at \(split)")
        }
    }

    @Test func valueAfterEveryByteIsTheDigestOfThePrefix() {
        let input = ChecksumTestInput.pattern(2_000)
        var hasher = XXH3()
        #expect(hasher.value == 0x2D06_8005_38D3_94C2)
        for end in 1...input.count {
            hasher.update(input[(end - 1)..<end])
            #expect(hasher.value == XXH3.checksum(of: input[..<end]), "prefix of \(end)")
        }
    }

    @Test func randomChunksGiveTheVectorDigest() {
        for (length, digest) in XXH3Tests.patternVectors where length > 1_000 {
            let input = ChecksumTestInput.pattern(length)
            var hasher = XXH3()
            var offset = 0
            for size in ChecksumTestInput.chunkSizes(total: length, seed: UInt64(length)) {
                input[offset..<offset + size].withUnsafeBytes { hasher.update($0) }
                offset += size
            }
            #expect(offset == length)
            #expect(hasher.value == digest, "length \(length)")
        }
    }

    @Test func sixtyFourKibibyteChunksGiveTheOneShotDigest() {
        let input = ChecksumTestInput.pattern(1 << 20)
        var hasher = XXH3()
        for start in stride(from: 0, to: input.count, by: 65_536) {
            hasher.update(input[start..<min(start + 65_536, input.count)])
        }
        #expect(hasher.value == 0xA608_68B9_A501_8405)
    }

    @Test func unalignedInputGivesTheSameDigest() {
        let input = ChecksumTestInput.pattern(1_100)
        for start in 1..<8 {
            let slice = input[start...]
            #expect(XXH3.checksum(of: slice) == XXH3.checksum(of: Array(slice)), "offset \(start)")
        }
    }

    @Test func nonContiguousSequencesAndEmptyUpdates() {
        let input = ChecksumTestInput.pattern(300)
        #expect(XXH3.checksum(of: input.lazy.map { $0 }) == XXH3.checksum(of: input))
        var hasher = XXH3()
        hasher.update([UInt8]())
        hasher.update(input.lazy.map { $0 })
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(hasher.value == XXH3.checksum(of: input))
        #expect(XXH3.checksum(of: UnsafeRawBufferPointer(start: nil, count: 0)) == 0x2D06_8005_38D3_94C2)
    }
}
