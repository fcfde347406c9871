import Foundation
import Platform
import Testing

@Suite struct AtomicCountTests {
    @Test func addsFromManyThreadsSumWithoutALock() throws {
        let count = AtomicCount()
        // Linux always has the Synchronization module; only older Apple systems lack it.
        #if os(Linux)
            #expect(count.value == 0)
        #endif
        guard count.value != nil else { return }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<10_000 { count.add(worker.isMultiple(of: 2) ? 3 : -1) }
        }
        #expect(count.value == 4 * 10_000 * 3 - 4 * 10_000)
    }
}
