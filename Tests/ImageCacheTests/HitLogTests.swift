import Foundation
import Testing

@testable import ImageCacheKit

/// The hit log (`Spec/cache.md` §10): what readers record, a writer takes, once, in order.
@Suite struct HitLogTests {
    private func record(_ name: String, tick: UInt64, in log: HitLog) {
        _ = log.record(key: Array(name.utf8), version: tick &+ 7, now: Int64(tick), tick: tick)
    }

    /// Each hit of `batch`: its key as text, and its version, time and tick.
    private func contents(_ batch: HitLog.Batch) -> [(key: String, version: UInt64, now: Int64, tick: UInt64)]
    {
        (0..<batch.count).map { position in
            let hit = batch[position]
            let viewed = batch.withKeys { key in Array(key(position)) }
            #expect(viewed == batch.key(at: position))
            return (String(decoding: viewed, as: UTF8.self), hit.version, hit.now, hit.tick)
        }
    }

    @Test func aDrainTakesEveryHitOnceInTheOrderTheyWereMade() {
        let log = HitLog(shardCount: 4)
        #expect(log.drain().isEmpty)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<250 {
                // Keys of different lengths, so a key start moved wrongly shows.
                record(
                    String(repeating: "k", count: worker + 1) + "\(index * 4 + worker)",
                    tick: UInt64(index * 4 + worker), in: log)
            }
        }
        let taken = contents(log.drain())
        #expect(taken.count == 1_000)
        #expect(taken.map(\.tick) == (0..<1_000).map(UInt64.init))
        for hit in taken {
            let worker = Int(hit.tick % 4)
            #expect(hit.key == String(repeating: "k", count: worker + 1) + "\(hit.tick)")
            #expect(hit.version == hit.tick + 7 && hit.now == Int64(hit.tick))
        }
        #expect(log.drain().isEmpty)
    }

    @Test func hitsRecordedAfterADrainAreTakenByTheNext() {
        // The writer skips the shards when its count says none is held: that count must follow
        // every record, drain and drop.
        let log = HitLog()
        record("a", tick: 1, in: log)
        #expect(contents(log.drain()).map(\.key) == ["a"])
        record("bb", tick: 2, in: log)
        record("c", tick: 3, in: log)
        log.dropAll()
        #expect(log.drain().isEmpty)
        record("dd", tick: 4, in: log)
        record("e", tick: 5, in: log)
        #expect(contents(log.drain()).map(\.key) == ["dd", "e"])
    }
}
