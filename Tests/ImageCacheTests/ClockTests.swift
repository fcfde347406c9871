import Foundation
import Testing

@testable import ImageCacheKit

/// The clocks a cache reads its time from.
@Suite struct ClockTests {
    @Test func theManualClockMovesOnlyWhenTold() {
        let clock = ManualClock(milliseconds: 42)
        #expect(clock.now() == 42)
        clock.advance(by: 8)
        #expect(clock.now() == 50)
        clock.set(milliseconds: 7)
        #expect(clock.now() == 7)
    }

    @Test func theSystemClockIsInMillisecondsSinceTheEpoch() {
        let now = SystemClock().now()
        let expected = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(abs(now - expected) < 60_000)
    }
}
