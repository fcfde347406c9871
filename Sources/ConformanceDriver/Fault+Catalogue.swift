/// What each fault breaks, for `--describe-faults`: the rule class, one line on what the
/// driver does wrong, and the cases that must catch it (the runner's selection arguments,
/// one backend where the class is about the cache). `.ci/faults.sh` runs each fault on its
/// selection and writes the table of `Spec/conformance-faults.md` from this catalogue.
extension Fault {
    /// The rule class the fault belongs to (Spec/conformance-faults.md).
    var ruleClass: String {
        switch self {
        case .wrongAdler32: "png"
        case .trnsKeyUnmasked: "png"
        case .ancillaryChunkChecksumsUnchecked: "png"
        case .dataAfterEndRejected: "png"
        case .distanceTooFarZeroFilled: "deflate"
        case .fileHeaderChecksumUnchecked: "store format"
        case .recordsForAbsentKeys: "store format"
        case .tornTailKept: "store recovery"
        case .middleDamageCut: "store recovery"
        case .valueChecksumsUnchecked: "store recovery"
        case .tornTailRefused: "store recovery"
        case .tailValueUnchecked: "store recovery"
        case .syncMarkGenerationUnchecked: "store recovery"
        case .snapshotGenerationUnchecked: "snapshot"
        case .keepRemovedKeyAfterCompaction: "compaction"
        case .compactionKeepsExpired: "compaction"
        case .skipExpiryExtension: "cache expiry"
        case .expiredOnlyAfterExpiry: "cache expiry"
        case .missTakesSequence: "counter"
        case .evictWrongEntry: "limits"
        case .evictAtTheLimit: "limits"
        case .corruptEntryAsMiss: "corruption"
        case .dictionaryRecordsReversed: "dictionary files"
        case .directoryIndexChecksumZeroed: "directory files"
        case .logSnapshotMissing: "log files"
        case .hybridNeverExternal: "hybrid files"
        case .noFolderLock: "locking"
        case .loneWriterBesideSharers: "sharing"
        case .everyBackendShares: "sharing"
        case .readsDoNotCatchUp: "sharing"
        case .changesNotPublished: "sharing"
        case .sequenceNotShared: "sharing"
        case .writingFlagIgnored: "sharing"
        case .currentAreaIgnored: "sharing"
        case .publishedDamageReadAsATail: "sharing"
        case .staleBitmapFromMemory: "sharing"
        case .readOnlyStores: "read-only"
        case .variantsCounted: "variants"
        case .staleVariantAfterStore: "variants"
        case .variantHitsTwice: "variants"
        case .purgeCountsVariants: "variants"
        case .compactionHeaderUnchecked: "compaction"
        case .evictOwnEntryForItsVariant: "limits"
        case .dictionaryBlessesDamage: "dictionary files"
        case .directoryAdoptsMisnamedFiles: "directory files"
        case .hybridSupersededDeletedEarly: "hybrid files"
        case .linksFollowed: "links"
        case .readOnlyRemovesStrays: "read-only"
        case .damagedVariantKept: "variants"
        case .userMetadataReadIsAHit: "user metadata"
        case .userMetadataLostOnCompaction: "user metadata"
        case .damagedUserMetadataAsNone: "user metadata"
        case .setUserMetadataCreatesEntry: "user metadata"
        }
    }

    /// What the driver does wrong, in a few words.
    var summary: String {
        switch self {
        case .wrongAdler32: "the encoder's Adler-32 is off by one"
        case .trnsKeyUnmasked: "a tRNS key with bits above the bit depth matches no pixel"
        case .ancillaryChunkChecksumsUnchecked: "ancillary chunks' CRCs are not checked"
        case .dataAfterEndRejected: "bytes after IEND fail the decode"
        case .distanceTooFarZeroFilled:
            "a match before the output's start reads zeros (then the Adler-32 fails)"
        case .fileHeaderChecksumUnchecked: "the log's header checksum is not checked"
        case .recordsForAbsentKeys: "removing or touching an absent key appends records"
        case .tornTailKept: "a writable open leaves the torn tail in the file"
        case .middleDamageCut: "damage in the middle is cut off like a tail"
        case .valueChecksumsUnchecked: "values are read without checking their checksums"
        case .tornTailRefused:
            "the whole log counts as synchronized: a write torn after the sync mark is refused"
        case .tailValueUnchecked: "a record after the durable length is accepted without checking its value"
        case .syncMarkGenerationUnchecked: "a sync mark of another generation is used"
        case .snapshotGenerationUnchecked: "a snapshot of another generation is used"
        case .keepRemovedKeyAfterCompaction: "a key removed before a compaction comes back after it"
        case .compactionKeepsExpired: "compaction keeps expired entries"
        case .skipExpiryExtension: "a read does not extend the entry's expiry"
        case .expiredOnlyAfterExpiry: "an entry is expired only when `now > expiresAt`"
        case .missTakesSequence: "a miss takes an access sequence number"
        case .evictWrongEntry: "the most recently used entry is evicted"
        case .evictAtTheLimit: "reaching `maximumEntryCount` counts as exceeding it"
        case .corruptEntryAsMiss: "a corrupt entry reads as a miss, not `corruptEntry`"
        case .dictionaryRecordsReversed: "the records are not in key order"
        case .directoryIndexChecksumZeroed: "the index's checksum is zeros"
        case .logSnapshotMissing: "no snapshot is written at close"
        case .hybridNeverExternal: "large values stay inline, no external files"
        case .noFolderLock: "a second writable instance opens"
        case .loneWriterBesideSharers: "a lone writer opens beside sharers (and a sharer beside it)"
        case .everyBackendShares: "`dictionary` and `directory` accept `sharedAcrossProcesses`"
        case .readsDoNotCatchUp: "a read answers from what this process last saw of the key"
        case .changesNotPublished:
            "a section does not publish its length: others see its changes one section late"
        case .sequenceNotShared: "the access sequence is not shared through the coordination file's counter"
        case .writingFlagIgnored: "bytes past the published length with the writing flag set are not cut"
        case .currentAreaIgnored: "area 0 is taken for the current staging area whatever the areas word says"
        case .publishedDamageReadAsATail:
            "a published record in the log file that fails its checks ends a shared open's scan like a torn tail"
        case .staleBitmapFromMemory: "the memory tier serves a bitmap another process replaced"
        case .readOnlyStores: "a read-only cache stores what it is given"
        case .variantsCounted: "`count` counts the variants held as entries"
        case .staleVariantAfterStore:
            "a store leaves the key's variants: a request answers with the variant of the replaced value"
        case .variantHitsTwice:
            "a variant request takes a hit of its own besides the original's (two sequence numbers)"
        case .purgeCountsVariants: "`purgeExpired()` counts the variants it removes"
        case .compactionHeaderUnchecked:
            "compaction rewrites a touched record whose header fails its checksum (found through a snapshot) with its old value checksum"
        case .evictOwnEntryForItsVariant:
            "the entry just stored is evicted when its own thumbnail or variant puts the cache over `maximumBytes`"
        case .dictionaryBlessesDamage:
            "a rewrite gives a damaged value a fresh checksum, so it reads as good later"
        case .directoryAdoptsMisnamedFiles:
            "an entry file whose key does not map to its name is adopted under its key"
        case .hybridSupersededDeletedEarly:
            "a replaced or removed external file is deleted before the record that supersedes it is durable"
        case .linksFollowed:
            "links in `entries/` and `external/` are followed: a link to a true copy reads as the value"
        case .readOnlyRemovesStrays: "a read-only open deletes stray and leftover files"
        case .damagedVariantKept:
            "a damaged variant is made again without being removed first (no remove record)"
        case .userMetadataReadIsAHit: "reading user metadata is a hit (extends the expiry, takes a number)"
        case .userMetadataLostOnCompaction: "compaction drops every entry's user metadata"
        case .damagedUserMetadataAsNone:
            "user metadata that fails its checksum reads as none, not `corruptEntry`"
        case .setUserMetadataCreatesEntry:
            "setting user metadata with no live entry stores an empty value and answers true"
        }
    }

    /// The runner arguments that select the cases which must catch the fault.
    var selection: [String] {
        switch self {
        case .wrongAdler32: ["--filter", "png/encode/"]
        case .trnsKeyUnmasked: ["--filter", "png/decode/trns"]
        case .ancillaryChunkChecksumsUnchecked: ["--filter", "png/error/crc-mismatch"]
        case .dataAfterEndRejected: ["--filter", "png/decode/data-after"]
        case .distanceTooFarZeroFilled: ["--filter", "png/error/deflate-distance"]
        case .fileHeaderChecksumUnchecked: ["--filter", "store/corrupt/"]
        case .recordsForAbsentKeys: ["--filter", "store/write/"]
        case .tornTailKept: ["--filter", "store/torn/"]
        case .middleDamageCut: ["--filter", "store/corrupt/middle"]
        case .valueChecksumsUnchecked: ["--filter", "store/corrupt/"]
        case .tornTailRefused: ["--filter", "store/sync/"]
        case .tailValueUnchecked: ["--filter", "store/sync/"]
        case .syncMarkGenerationUnchecked: ["--filter", "store/sync/"]
        case .snapshotGenerationUnchecked: ["--filter", "store/snapshot/"]
        case .keepRemovedKeyAfterCompaction:
            ["--filter", "store/write/", "--filter", "cache/persist/compact", "--backend", "log"]
        case .compactionKeepsExpired: ["--filter", "store/compact/"]
        case .skipExpiryExtension: ["--filter", "cache/expiry/", "--backend", "log"]
        case .expiredOnlyAfterExpiry: ["--filter", "cache/expiry/", "--backend", "dictionary"]
        case .missTakesSequence: ["--filter", "cache/counter/", "--backend", "directory"]
        case .evictWrongEntry: ["--filter", "cache/evict/", "--backend", "hybrid"]
        case .evictAtTheLimit: ["--filter", "cache/evict/", "--backend", "log"]
        case .corruptEntryAsMiss: ["--filter", "cache/corrupt/", "--backend", "dictionary"]
        case .dictionaryRecordsReversed: ["--filter", "cache/files/", "--backend", "dictionary"]
        case .directoryIndexChecksumZeroed: ["--filter", "cache/files/", "--backend", "directory"]
        case .logSnapshotMissing: ["--filter", "cache/files/", "--backend", "log"]
        case .hybridNeverExternal: ["--filter", "cache/files/", "--backend", "hybrid"]
        case .noFolderLock: ["--filter", "cache/lifecycle/", "--backend", "log"]
        case .loneWriterBesideSharers: ["--filter", "cache/sharing/", "--backend", "log"]
        case .everyBackendShares: ["--filter", "cache/sharing/", "--backend", "dictionary"]
        case .readsDoNotCatchUp: ["--filter", "cache/sharing/", "--backend", "hybrid"]
        case .changesNotPublished: ["--filter", "cache/sharing/", "--backend", "log"]
        case .sequenceNotShared: ["--filter", "cache/sharing/", "--backend", "hybrid"]
        case .writingFlagIgnored: ["--filter", "cache/sharing/", "--backend", "log"]
        case .currentAreaIgnored: ["--filter", "store/shared/"]
        case .publishedDamageReadAsATail: ["--filter", "store/shared/"]
        case .staleBitmapFromMemory: ["--filter", "cache/sharing/", "--backend", "hybrid"]
        case .readOnlyStores: ["--filter", "cache/lifecycle/", "--backend", "directory"]
        case .variantsCounted: ["--filter", "cache/variants/", "--backend", "dictionary"]
        case .staleVariantAfterStore: ["--filter", "cache/variants/", "--backend", "directory"]
        case .variantHitsTwice: ["--filter", "cache/variants/", "--backend", "log"]
        case .purgeCountsVariants: ["--filter", "cache/variants/", "--backend", "hybrid"]
        case .compactionHeaderUnchecked: ["--filter", "store/compact/"]
        case .evictOwnEntryForItsVariant: ["--filter", "cache/variants/", "--backend", "directory"]
        case .dictionaryBlessesDamage: ["--filter", "cache/corrupt/", "--backend", "dictionary"]
        case .directoryAdoptsMisnamedFiles: ["--filter", "cache/damage/directory-", "--backend", "directory"]
        case .hybridSupersededDeletedEarly: ["--filter", "cache/files/", "--backend", "hybrid"]
        case .linksFollowed: ["--filter", "cache/damage/", "--backend", "hybrid"]
        case .readOnlyRemovesStrays: ["--filter", "cache/lifecycle/", "--backend", "directory"]
        case .damagedVariantKept: ["--filter", "cache/variants/", "--backend", "hybrid"]
        case .userMetadataReadIsAHit: ["--filter", "cache/meta/", "--backend", "directory"]
        case .userMetadataLostOnCompaction: ["--filter", "cache/meta/", "--backend", "log"]
        case .damagedUserMetadataAsNone: ["--filter", "cache/meta/damaged", "--backend", "hybrid"]
        case .setUserMetadataCreatesEntry: ["--filter", "cache/meta/", "--backend", "hybrid"]
        }
    }
}
