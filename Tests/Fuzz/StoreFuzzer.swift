// libFuzzer entry point for opening a log store from arbitrary bytes (not a SwiftPM target).
// Build and run it with `Tests/Fuzz/run.sh store SECONDS`, which compiles it into one module
// with Sources/Checksums, Sources/Platform and Sources/LogStoreKit.
//
// The input is the log and its snapshot: byte 0 chooses the options (bit 0 read-only, bit 1
// repairsDamage, bit 2 no snapshot, bit 3 follow, bit 4 skipsDamagedRecords, bit 5 with follow:
// a sync mark over the whole log once it is appended), bytes 1–2 (little-endian) the length of the
// log; the log's bytes follow, and whatever is left is the snapshot (`store.log.hint`). Every
// input must open or throw a LogStoreError (`Spec/store.md` §9), never trap; an open store must
// list, read and verify every entry, each read returning the value or a typed error; a writable
// one must then take a put, a compaction and a close. With follow, a read-only store opens on
// the log's first half and the rest is appended after, as a writer beside it would (§12.5): it
// must take that up (or stop before it) and read every entry again, the same way.
import Foundation

#if !IMAGECACHE_SINGLE_MODULE
    import Checksums
    import LogStoreKit
#endif

/// One folder per process, reused by every input.
let storeFuzzFolder: String = {
    let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    let folder = base + "/store-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func storeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 3 else { return 0 }
    let control = data[0]
    let logLength = min(Int(data[1]) | Int(data[2]) << 8, size - 3)
    let log = Data(bytes: data + 3, count: logLength)
    let hint = Data(bytes: data + 3 + logLength, count: size - 3 - logLength)
    let path = storeFuzzFolder + "/store.log"
    for suffix in ["", ".hint", ".compacting", ".hint.tmp", ".sync"] { unlink(path + suffix) }
    let follows = control & 8 != 0
    let appended = follows ? log.count / 2 : 0
    FileManager.default.createFile(atPath: path, contents: log.prefix(log.count - appended))
    if !hint.isEmpty { FileManager.default.createFile(atPath: path + ".hint", contents: hint) }

    _ = try? LogStore.verify(path: path)
    let options = LogStore.Options(
        readOnly: follows || control & 1 != 0, compactionDeadRatio: nil, usesSnapshot: control & 4 == 0,
        repairsDamage: control & 2 != 0, skipsDamagedRecords: control & 16 != 0)
    guard let store = try? LogStore(path: path, options: options) else { return 0 }
    func readEverything() {
        for entry in store.entries() {
            _ = try? store.value(forKey: entry.key)
        }
        try? store.forEachEntry { _, _ in }
        _ = try? store.verify()
    }
    readEverything()
    if follows {
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(log.suffix(appended))
            handle.closeFile()
        }
        // A mark over all of it: what the reader takes up counts as durable, so a record that
        // fails there is damage, which a skipping reader skips (§12.5).
        if control & 32 != 0 && log.count >= 24 {
            var mark = Data([0x89, 0x49, 0x43, 0x53, 0x59, 0x4E, 0x43, 0x0A])
            mark.append(log[16..<24])  // the log's generation
            withUnsafeBytes(of: UInt64(log.count).littleEndian) { mark.append(contentsOf: $0) }
            withUnsafeBytes(of: XXH3.checksum(of: Array(mark)).littleEndian) { mark.append(contentsOf: $0) }
            FileManager.default.createFile(atPath: path + ".sync", contents: mark)
        }
        store.nextFileCheck = 0  // look at the file now, not a millisecond later
        readEverything()
    }
    if !options.readOnly {
        let value: [UInt8] = [1, 2, 3]
        _ = try? value.withUnsafeBytes { bytes in
            try store.put(bytes, forKey: [0xFF, 0x00] as [UInt8], metadata: EntryMetadata(createdAt: 0))
        }
        _ = try? store.compact(now: 1)
    }
    try? store.close()
    return 0
}
