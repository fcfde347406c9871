import Checksums
import Testing

/// Digests from the `xxhash` Python package (libxxhash 0.8.4), an implementation independent of
/// this one: with seed 0 and with seed 0x9E3779B97F4A7C15.
@Suite struct XXH64Tests {
    static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    static let patternVectors: [(length: Int, digest: UInt64, seeded: UInt64)] = [
        (0, 0xEF46_DB37_51D8_E999, 0xC434_9FC9_3C01_0000),
        (1, 0xE934_A84A_DB05_2768, 0x126B_B57A_1236_4AA5),
        (2, 0xB44D_F1BB_1534_E192, 0xB431_AFCF_8BD1_6BD9),
        (3, 0xA9CF_36B4_1F9E_7D09, 0xC621_904D_81B6_0F6E),
        (4, 0x435F_59A3_3B7E_B3D1, 0xBFB1_1135_6687_36C9),
        (5, 0x75EF_30AE_AC84_70BA, 0x5430_F0AF_A29A_BF5B),
        (7, 0x651C_1BB8_102D_53EA, 0xE129_B95A_B55E_711E),
        (8, 0x538C_AC3B_18F9_EF8E, 0x01BD_0550_EB96_C2AD),
        (9, 0x8205_BFAA_3589_D37E, 0x17BA_9802_0A6C_6CF5),
        (12, 0x52B6_AFE4_26C6_92FF, 0xBF3B_4A0E_69F2_5370),
        (16, 0x2B72_A043_E551_FE02, 0x040D_B5BC_B800_5173),
        (17, 0xB4EC_7068_96CC_AB83, 0xD88F_0FA4_E722_48E0),
        (31, 0x4071_DD13_10FA_5DA9, 0xB804_1A54_25FA_B416),
        (32, 0x13EE_8A64_346F_0691, 0x8CB4_AF26_4843_08E7),
        (33, 0xF756_1949_9E2E_2E99, 0x2F3E_3065_984B_1A28),
        (63, 0x63A8_9BD4_F10C_9D1E, 0x27CC_536E_865F_676F),
        (64, 0xFB24_D94D_E825_912F, 0x6C41_59F8_ED5E_057F),
        (65, 0xB853_7309_01E1_DAEE, 0x0CCD_2662_0D7B_7ADF),
        (96, 0xBAAC_CEBD_67C9_F947, 0x8F31_0FA4_0B50_E2CC),
        (97, 0x857D_60C6_23F0_7E54, 0x19C3_A499_0B30_9DF1),
        (127, 0x4D65_3071_E9ED_353A, 0x5B18_B809_0870_89DA),
        (128, 0xDAA5_8C0A_B140_9B40, 0x3C1F_33AD_B96A_5ECE),
        (129, 0xA422_3E65_B568_A709, 0xAF86_8AA3_4DAE_E03F),
        (200, 0x910E_6D17_6AFB_D26C, 0xF977_B35E_8D19_DFCA),
        (239, 0x25A0_935C_448F_DE84, 0x342E_50A0_9C4E_111E),
        (240, 0x574D_1998_DF49_A15A, 0x20AF_1636_C220_1BF2),
        (241, 0x92C1_342E_5E6E_89B9, 0x55EA_989D_1263_6C4A),
        (255, 0x7F88_A9E5_86B1_7063, 0x1DD0_5116_8B35_C3F0),
        (256, 0x6EA2_794E_DBC1_2721, 0x9AC8_90AC_2C5E_FE60),
        (257, 0x9B92_E839_F3C3_6157, 0x6196_BEB5_87C5_C77B),
        (320, 0x53A9_8300_C618_A028, 0x950A_5F09_3FD9_5056),
        (1023, 0xB5E5_7129_539F_4A7F, 0x7C74_2722_B907_D00D),
        (1024, 0xE27E_39A2_8E1B_5640, 0x44D2_DB93_7A7D_FC75),
        (1025, 0x448B_0CD0_F738_7F6A, 0x8051_B96C_F168_B697),
        (2048, 0x7709_3865_78C5_6106, 0x8826_5B1D_E153_1574),
        (2049, 0x2776_8FFF_7B05_399D, 0x88F1_C8E3_7E8F_A744),
        (4096, 0xA591_D40F_991B_F106, 0xD658_25E3_F647_06E5),
        (65549, 0xC87F_5394_E0D1_38EA, 0xF183_2DA1_DE88_7DC5),
        (1_048_576, 0xFC4A_A44E_4C19_D879, 0x5B2E_E1BE_34C7_9185),
    ]

    static let stringVectors: [(text: String, digest: UInt64)] = [
        ("", 0xEF46_DB37_51D8_E999),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("123456789", 0x8CB8_41DB_40E6_AE83),
        ("message digest", 0x066E_D728_FCEE_B3BE),
        ("abcdefghijklmnopqrstuvwxyz", 0xCFE1_F278_FA89_835C),
        ("The quick brown fox jumps over the lazy dog", 0x0B24_2D36_1FDA_71BC),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 0xAAA4_6907_D304_7814),
    ]

    @Test func patternVectorsWithAndWithoutSeed() {
        for (length, digest, seeded) in XXH64Tests.patternVectors {
            let input = ChecksumTestInput.pattern(length)
            #expect(XXH64.checksum(of: input) == digest, "length \(length)")
            #expect(XXH64.checksum(of: input, seed: XXH64Tests.seed) == seeded, "length \(length)")
        }
    }

    @Test func stringVectors() {
        for (text, digest) in XXH64Tests.stringVectors {
            #expect(XXH64.checksum(of: Array(text.utf8)) == digest, "\(text)")
        }
    }

    @Test func splittingAtEveryOffsetGivesTheOneShotDigest() {
        let input = ChecksumTestInput.pattern(2_000)
        let expected = XXH64.checksum(of: input, seed: XXH64Tests.seed)
        for split in 0...input.count {
            var hasher = XXH64(seed: XXH64Tests.seed)
            hasher.update(input[..<split])
            hasher.update(input[split...])
            #expect(hasher.value == expected, "split at \(split)")
        }
    }

    @Test func valueAfterEveryByteIsTheDigestOfThePrefix() {
        let input = ChecksumTestInput.pattern(200)
        var hasher = XXH64()
        for end in 1...input.count {
            hasher.update(input[(end - 1)..<end])
            #expect(hasher.value == XXH64.checksum(of: input[..<end]), "prefix of \(end)")
        }
    }

    @Test func randomChunksGiveTheVectorDigest() {
        for (length, digest, _) in XXH64Tests.patternVectors where length > 1_000 {
            let input = ChecksumTestInput.pattern(length)
            var hasher = XXH64()
            var offset = 0
            for size in ChecksumTestInput.chunkSizes(total: length, seed: UInt64(length)) {
                input[offset..<offset + size].withUnsafeBytes { hasher.update($0) }
                offset += size
            }
            #expect(hasher.value == digest, "length \(length)")
        }
    }
}
