/// The rules the driver can be told to break (`--fault NAME`, Spec/conformance.md §9).
///
/// Each fault is implemented here, in the driver, by altering what it asks of the product
/// modules, the bytes it hands them, or what it does with their answers and files; the modules
/// themselves have no fault hooks. A conformance run with a fault must report failures, or the
/// suite cannot catch that bug: `.ci/faults.sh` runs the suite once per fault and fails when
/// one goes unnoticed.
enum Fault: String, CaseIterable, Sendable {
    // png
    /// The encoder's Adler-32 trailer is off by one (the IDAT CRC is fixed up to match).
    case wrongAdler32 = "wrong-adler32"
    /// A tRNS key is compared unmasked, so a key with bits above the bit depth matches nothing.
    case trnsKeyUnmasked = "trns-key-unmasked"
    /// Ancillary chunks' CRCs are not checked (the driver repairs them before decoding).
    case ancillaryChunkChecksumsUnchecked = "ancillary-crc-unchecked"
    /// Bytes after IEND are read as more chunks (anything there fails the decode).
    case dataAfterEndRejected = "data-after-iend-rejected"
    // deflate
    /// A match reaching before the output's start is filled with zeros instead of failing
    /// with distanceTooFar (the image then fails its Adler-32).
    case distanceTooFarZeroFilled = "distance-too-far-zero-filled"
    // store format
    /// The log's file header checksum is not checked (the driver repairs it before opening).
    case fileHeaderChecksumUnchecked = "file-header-checksum-unchecked"
    /// A writer appends records for removing or touching a key the store does not hold.
    case recordsForAbsentKeys = "records-for-absent-keys"
    // store recovery
    /// An open leaves a torn tail in the file instead of cutting it off.
    case tornTailKept = "torn-tail-kept"
    /// Damage in the middle of a log is treated as a torn tail (cut off) instead of refused.
    case middleDamageCut = "middle-damage-cut"
    /// Store values are read with checksum verification off, so a corrupt value is returned.
    case valueChecksumsUnchecked = "value-checksums-unchecked"
    /// The whole log is taken as synchronized: a write torn after the sync mark is refused as
    /// damage (the driver gives the store a mark covering the whole file).
    case tornTailRefused = "torn-tail-refused"
    /// A record that ends after the durable length is accepted on its header, its value
    /// unchecked (the driver gives the store a mark up to the end of the records whose headers
    /// are valid).
    case tailValueUnchecked = "tail-value-unchecked"
    /// A sync mark of another log (another generation) is used (the driver gives it the log's
    /// generation).
    case syncMarkGenerationUnchecked = "sync-mark-generation-unchecked"
    // snapshot
    /// A snapshot of another log (another generation) is used.
    case snapshotGenerationUnchecked = "snapshot-generation-unchecked"
    // compaction
    /// Compaction rewrites a touched record without checking its old header (the driver
    /// repairs the record headers of a store opened through a snapshot before compacting it).
    case compactionHeaderUnchecked = "compaction-header-unchecked"
    /// A key removed before a compaction is stored again after it.
    case keepRemovedKeyAfterCompaction = "keep-removed-key-after-compaction"
    /// Compaction keeps entries that expired at its `now`.
    case compactionKeepsExpired = "compaction-keeps-expired"
    // cache expiry
    /// A cache read does not extend the entry's expiry: the driver answers from its own record
    /// of the first expiry and treats a later read as a miss.
    case skipExpiryExtension = "skip-expiry-extension"
    /// An entry is expired only after `expiresAt` (`now > expiresAt`), not at it.
    case expiredOnlyAfterExpiry = "expired-only-after-expiry"
    // counter
    /// A miss takes an access sequence number.
    case missTakesSequence = "miss-takes-a-sequence"
    // limits and eviction
    /// When the cache must evict, the driver first removes the most recently used entry.
    case evictWrongEntry = "evict-wrong-entry"
    /// Being exactly at maximumEntryCount counts as over it.
    case evictAtTheLimit = "evict-at-the-limit"
    /// The entry just stored is evicted when its own thumbnail or variant puts the cache over
    /// maximumBytes (the driver removes it after the store or the variant request).
    case evictOwnEntryForItsVariant = "evict-own-entry-for-its-variant"
    // corruption handling
    /// A corrupt entry is reported as a miss instead of corruptEntry.
    case corruptEntryAsMiss = "corrupt-entry-as-miss"
    // each backend's files
    /// The dictionary file keeps its records in reverse key order (rewritten after close).
    case dictionaryRecordsReversed = "dictionary-records-reversed"
    /// A rewrite of the dictionary file writes a damaged value with a fresh checksum, so it later
    /// reads as good (the driver puts the records the backend dropped back after a close).
    case dictionaryBlessesDamage = "dictionary-blesses-damage"
    /// The directory index's checksum trailer is written as zeros (rewritten after close).
    case directoryIndexChecksumZeroed = "directory-index-checksum-zeroed"
    /// An intact entry file whose key maps to another file name is adopted under its key (the
    /// driver renames it after its key before a writable open).
    case directoryAdoptsMisnamedFiles = "directory-adopts-misnamed-files"
    /// The log backend writes no snapshot at close (it is deleted after close).
    case logSnapshotMissing = "log-snapshot-missing"
    /// The hybrid backend never writes external files (its threshold is raised out of reach).
    case hybridNeverExternal = "hybrid-never-external"
    /// A replaced or removed external value's file is deleted at once, before the record that
    /// supersedes it is durable (the driver deletes it right after the store or removal).
    case hybridSupersededDeletedEarly = "hybrid-superseded-deleted-early"
    /// Links inside `entries/` and `external/` are followed (the driver replaces each by a copy
    /// of its target before an open).
    case linksFollowed = "links-followed"
    // locking
    /// A second writable instance of an open folder opens (read-only, behind the scenes).
    case noFolderLock = "no-folder-lock"
    // sharing (Spec/backends.md §9, Spec/store.md §12)
    /// A writer that does not share opens beside sharers, and a sharer beside such a writer
    /// (read-only, behind the scenes), instead of failing with `locked`.
    case loneWriterBesideSharers = "lone-writer-beside-sharers"
    /// `dictionary` and `directory` accept `sharedAcrossProcesses` (the driver opens them
    /// without it) instead of failing with `sharingUnsupported`.
    case everyBackendShares = "every-backend-shares"
    /// A read answers from what this process last stored or read for the key, never catching
    /// up with the changes of other processes.
    case readsDoNotCatchUp = "reads-do-not-catch-up"
    /// A change is not published when its section ends (the driver puts the coordination
    /// file's generation and length back as they were): others see it one section late.
    case changesNotPublished = "changes-not-published"
    /// The access sequence is not shared (the driver zeroes the coordination file's counter
    /// before each operation): a process numbers from its own index only.
    case sequenceNotShared = "sequence-not-shared"
    /// The writing flag is ignored (the driver clears it before each operation), so bytes a
    /// dead process left past the published length are not cut.
    case writingFlagIgnored = "writing-flag-ignored"
    /// The current staging area is taken to be area 0 whatever the areas word says (the
    /// driver clears its bit 63 in the coordination file a store.read gives).
    case currentAreaIgnored = "current-area-ignored"
    /// A published record in the log file that fails its checks ends a shared open's scan, as
    /// a torn tail would, instead of counting as damage (the driver cuts the log a store.read
    /// gives with a coordination file at the first record whose header checksum fails).
    case publishedDamageReadAsATail = "published-damage-read-as-a-tail"
    /// The memory tier serves the bitmap it holds although another process replaced or
    /// removed the value (the driver answers from the last bitmap this process read).
    case staleBitmapFromMemory = "stale-bitmap-from-memory"
    // user metadata (Spec/cache.md §13)
    /// Reading an entry's user metadata is a hit: the driver also reads the value, which
    /// extends the expiry and takes an access sequence number.
    case userMetadataReadIsAHit = "user-metadata-read-is-a-hit"
    /// Compaction drops every entry's user metadata (the driver clears it after compacting).
    case userMetadataLostOnCompaction = "user-metadata-lost-on-compaction"
    /// User metadata that fails its checksum reads as none, and the entry stays (the driver
    /// answers an empty block for `corruptEntry`).
    case damagedUserMetadataAsNone = "damaged-user-metadata-as-none"
    /// Setting user metadata for a key with no live entry stores an empty value with it and
    /// answers true, instead of changing nothing and answering false.
    case setUserMetadataCreatesEntry = "set-user-metadata-creates-entry"
    // read-only
    /// A read-only cache stores what it is asked to (through a writable instance).
    case readOnlyStores = "read-only-stores"
    /// A read-only open deletes stray and leftover files as a writable open does.
    case readOnlyRemovesStrays = "read-only-removes-strays"
    // variants (Spec/thumbnail.md §5)
    /// `count` counts the variants held as entries.
    case variantsCounted = "variants-counted"
    /// A store does not drop the key's variants: a variant request answers with the variant
    /// of the value the store replaced.
    case staleVariantAfterStore = "stale-variant-after-store"
    /// A variant request takes a hit of its own besides the original's (two sequence numbers).
    case variantHitsTwice = "variant-hits-twice"
    /// `purgeExpired()` counts the variants it removes with their originals.
    case purgeCountsVariants = "purge-counts-variants"
    /// A damaged variant is made again without being removed first (the driver drops the
    /// remove record from the log after a close).
    case damagedVariantKept = "damaged-variant-kept"
}
