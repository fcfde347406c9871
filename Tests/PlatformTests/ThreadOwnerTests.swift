import Foundation
import Platform
import Testing

@Suite struct ThreadOwnerTests {
    @Test func onlyTheClaimingThreadHoldsItUntilItReleases() {
        let owner = ThreadOwner()
        #expect(!owner.isCurrentThread)
        owner.claim()
        #expect(owner.isCurrentThread)
        #expect(!Self.answerOnANewThread(owner))
        owner.release()
        #expect(!owner.isCurrentThread)
        #expect(!Self.answerOnANewThread(owner))
    }

    @Test func aClaimOnAnotherThreadIsNotThisThreads() {
        let owner = ThreadOwner()
        let claimed = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            owner.claim()
            claimed.signal()
            released.wait()
            owner.release()
            finished.signal()
        }.start()
        claimed.wait()
        #expect(!owner.isCurrentThread)
        released.signal()
        finished.wait()
        #expect(!owner.isCurrentThread)
    }

    @Test func twoOwnersAreIndependent() {
        let first = ThreadOwner()
        let second = ThreadOwner()
        first.claim()
        #expect(first.isCurrentThread)
        #expect(!second.isCurrentThread)
        first.release()
    }

    /// What a thread other than the caller's answers for `owner.isCurrentThread`.
    private static func answerOnANewThread(_ owner: ThreadOwner) -> Bool {
        let answer = LockedAnswer()
        let done = DispatchSemaphore(value: 0)
        Thread {
            answer.set(owner.isCurrentThread)
            done.signal()
        }.start()
        done.wait()
        return answer.value
    }
}

/// A thread's answer, handed back under a lock.
private final class LockedAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
