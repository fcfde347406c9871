/// The names a folder-of-files backend gives its files (`Spec/backends.md` §1.2, §3.1, §5.1):
/// lowercase hexadecimal, so that no key can name a path outside the folder, a hidden file, or
/// differ only in letter case.
enum FileNames {
    /// Whether every byte of `name` is `0-9` or `a-f`.
    static func isLowercaseHex<Bytes: Collection>(_ name: Bytes) -> Bool where Bytes.Element == UInt8 {
        name.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
