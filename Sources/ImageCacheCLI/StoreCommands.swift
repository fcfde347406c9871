/// The store commands (`Spec/store.md` §10, `Spec/cache.md` §12): each works on a cache folder
/// and on a bare log store file, chosen by `--store`. They parse, open the store, do one thing
/// and print; the library does the work. The runs are in `StoreCommands+Reading.swift` and
/// `StoreCommands+Writing.swift`.
enum StoreCommands {
    static let key = OperandSpec(
        name: "KEY", arity: .one,
        help: "the entry's key: 1 to 65,535 UTF-8 bytes; put -- before a key that starts with -")

    static var all: [Command] {
        typealias O = StoreOptions
        return [
            Command(
                name: "put", summary: "store FILE's bytes under KEY",
                options: [
                    O.store, O.backend, O.timeToLive, O.maximumAge, O.maximumBytes, O.maximumEntries, O.now,
                    O.userMetadataText,
                ],
                operands: [
                    key,
                    OperandSpec(name: "FILE", arity: .one, help: "the value's file; - is standard input"),
                ],
                notes: [
                    "Creates the store when it does not exist. In a log store file the entry expires at the earlier "
                        + "of now + --ttl and now + --max-age (never without them); --max-bytes and --max-entries "
                        + "need a cache folder."
                ],
                action: .parsed(put)),
            Command(
                name: "get", summary: "write the value stored under KEY",
                options: [
                    O.store, O.backend, O.timeToLive, O.maximumAge, O.now, O.readOnly, O.userMetadataFlag,
                ],
                operands: [
                    key,
                    OperandSpec(
                        name: "OUT", arity: .optional,
                        help:
                            "the file to write; - or none is standard output; replaced only when the read succeeds"
                    ),
                ],
                notes: [
                    "Exit 1 when KEY is absent or expired, 3 when its stored bytes are damaged. In a cache folder a hit "
                        + "extends a sliding expiry (--ttl) and marks the entry recently used, so get writes; "
                        + "--read-only reads without that. A log store file is always read read-only."
                ],
                action: .parsed(get)),
            Command(
                name: "variant", summary: "write KEY's image downsampled to fit N × N pixels, as a PNG",
                options: [
                    O.store, O.backend, O.timeToLive, O.maximumAge, O.now, O.readOnly, O.maximumPixelSize,
                ],
                operands: [
                    key,
                    OperandSpec(
                        name: "OUT", arity: .optional,
                        help: "the PNG file to write; - or none is standard output; replaced only on success"),
                ],
                notes: [
                    "The variant (Spec/thumbnail.md) is made from KEY's stored PNG by exact area averaging and stored "
                        + "beside it for the next request, unless --read-only; an image that already fits is written "
                        + "as it is. It is a hit on KEY, like get. Exit 1 when KEY is absent or expired, 3 when its "
                        + "bytes are damaged or not a PNG. Needs a cache folder."
                ],
                action: .parsed(variant)),
            Command(
                name: "rm", summary: "remove the entry stored under KEY",
                options: [O.store, O.backend, O.now], operands: [key],
                notes: ["Exit 1 when KEY is absent or expired (an expired entry is removed all the same)."],
                action: .parsed(remove)),
            Command(
                name: "ls", summary: "list the live entries: key, size, created, expires, access sequence",
                options: [O.store, O.backend, O.now, O.readOnly, O.json],
                notes: [
                    "One line per entry in ascending order of the keys' UTF-8 bytes, tab-separated: the key escaped "
                        + "(\\\\, \\t, \\n, \\r, \\xHH for other control bytes, \\u{HEX} beyond ASCII), the size "
                        + "(4.0 KiB), created and expires as ISO-8601 UTC (expires: never), the access sequence. "
                        + "--json prints one JSON object per line instead: key (exact), bytes, created_ms, "
                        + "expires_ms (null: never), access_sequence.",
                    readingNote,
                ],
                action: .parsed(list)),
            Command(
                name: "stat", summary: "print the store's kind, entries, bytes and bytes on disk",
                options: [O.store, O.backend, O.now, O.readOnly, O.json],
                notes: [
                    "Lines 'name: value': store, kind, backend (cache folders), entries, bytes; for a cache folder "
                        + "also expired entries, variants, variant bytes, file bytes, disk bytes; for a log store "
                        + "also expired entries, file bytes, dead bytes, index bytes, disk bytes. Disk bytes are "
                        + "the blocks allocated on disk (st_blocks x 512), what the store takes from the device. "
                        + "--json prints one JSON object.",
                    readingNote,
                ],
                action: .parsed(statistics)),
            Command(
                name: "verify", summary: "check every entry's stored bytes; exit 3 naming what is damaged",
                options: [O.store, O.backend, O.now, O.readOnly],
                notes: [
                    "Prints 'ok: N entries, B bytes' when everything is intact; otherwise one line per damaged entry "
                        + "('damaged: KEY: reason') or record ('damaged: record at offset X: reason') and exit 3. "
                        + "In a log store every record of the file is checked, dead ones included.",
                    readingNote,
                ],
                action: .parsed(verify)),
            Command(
                name: "compact", summary: "reclaim space: drop expired entries and rewrite what remains",
                options: [O.store, O.backend, O.now], action: .parsed(compact)),
            Command(
                name: "purge", summary: "remove the expired entries",
                options: [O.store, O.backend, O.now],
                notes: ["In a log store file, purge is a compaction that drops the expired entries."],
                action: .parsed(purge)),
            Command(
                name: "clear", summary: "remove every entry", options: [O.store, O.backend],
                action: .parsed(clear)),
        ]
    }

    static let readingNote =
        "Opens the store read-only: no lock is taken and nothing on disk changes, so it works beside a writer "
        + "and in a folder you cannot write."

    /// Checks a key's length (`Spec/cache.md` §2.1) before any store is opened.
    static func checkedKey(_ arguments: ParsedArguments) throws(CommandLineError) -> String {
        let key = arguments.operands[0]
        guard (1...65_535).contains(key.utf8.count) else {
            throw .usage("KEY must be 1 to 65,535 UTF-8 bytes long; this one is \(key.utf8.count) bytes")
        }
        return key
    }

    /// Rejects options that need a cache folder when the store is a log store file.
    static func rejectCacheOptions(
        _ options: [String], in arguments: ParsedArguments, for location: StoreLocation
    ) throws(CommandLineError) {
        guard case .logFile(let path) = location else { return }
        if let option = options.first(where: arguments.gave) {
            throw .usage("\(option) applies to a cache folder, and \(path) is a log store file")
        }
    }
}
