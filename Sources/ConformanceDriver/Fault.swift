/// The rules the driver can be told to break (`--fault NAME`, Spec/conformance.md §9).
///
/// Each fault is implemented here, in the driver, by altering what it asks of the product
/// modules or what it does with their answers; the modules themselves have no fault hooks.
/// A conformance run with a fault must report failures, or the suite cannot catch that bug.
enum Fault: String, CaseIterable, Sendable {
    /// A cache read does not extend the entry's expiry: the driver answers from its own record
    /// of the first expiry and treats a later read as a miss.
    case skipExpiryExtension = "skip-expiry-extension"
    /// Store values are read with checksum verification off, so a corrupt value is returned.
    case ignoreCRCErrors = "ignore-crc-errors"
    /// When the cache must evict, the driver first removes the most recently used entry.
    case evictWrongEntry = "evict-wrong-entry"
    /// The encoder's Adler-32 trailer is off by one (the IDAT CRC is fixed up to match).
    case wrongAdler32 = "wrong-adler32"
    /// A key removed before a compaction is stored again after it.
    case keepRemovedKeyAfterCompaction = "keep-removed-key-after-compaction"
}
