import Foundation
import Testing

@testable import ImageCacheKit

/// The hit log (`Spec/cache.md` §10): what readers record, a writer takes, once, in order.
@Suite struct HitLogTests {
    private func hit(_ name: String, tick: UInt64) -> HitLog.Hit {
        HitLog.Hit(key: Array(name.utf8), version: 1, now: 0, tick: tick)
    }

    @Test func aDrainTakesEveryHitOnceInTheOrderTheyWereMade() {
        let log = HitLog(shardCount: 4)
        #expect(log.drain().isEmpty)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<250 {
                _ = log.record(hit("k\(worker)-\(index)", tick: UInt64(index * 4 + worker)))
            }
        }
        let taken = log.drain()
        #expect(taken.count == 1_000)
        #expect(taken.map(\.tick) == (0..<1_000).map(UInt64.init))
        #expect(log.drain().isEmpty)
    }

    @Test func hitsRecordedAfterADrainAreTakenByTheNext() {
        // The writer skips the shards when its count says none is held: that count must follow
        // every record, drain and drop.
        let log = HitLog()
        _ = log.record(hit("a", tick: 1))
        #expect(log.drain().map(\.key) == [Array("a".utf8)])
        _ = log.record(hit("b", tick: 2))
        _ = log.record(hit("c", tick: 3))
        log.dropAll()
        #expect(log.drain().isEmpty)
        _ = log.record(hit("d", tick: 4))
        #expect(log.drain().map(\.key) == [Array("d".utf8)])
    }
}
