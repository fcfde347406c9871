import Checksums
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (
            "The quick brown fox jumps over the lazy dog",
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        ),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message.utf8) == digest)
    }

    @Test func oneMillionLetterA() {
        let message = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(
            SHA256.hexDigest(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesMatchOneShotAcrossBlockEdges() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299, 300] {
            var hasher = SHA256()
            hasher.update(Array(message[0..<split]))
            hasher.update(Array(message[split...]))
            #expect(hasher.finalize() == SHA256.hash(message))
        }
    }

    @Test func paddingBoundaryLengthsDiffer() {
        // 55, 56 and 64 bytes are where the length field moves to a second block.
        let digests = Set(
            [54, 55, 56, 57, 63, 64, 65].map { SHA256.hexDigest([UInt8](repeating: 0, count: $0)) })
        #expect(digests.count == 7)
        #expect(
            SHA256.hexDigest([UInt8](repeating: 0, count: 64))
                == "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b")
    }
}
