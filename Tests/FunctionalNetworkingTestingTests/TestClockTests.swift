import Foundation
import Futures
import Testing

@testable import FunctionalNetworkingTesting

@Suite("TestClock")
struct TestClockTests {
    @Test func startsAtZeroAndMovesOnlyWhenAdvanced() {
        let clock = TestClock()
        #expect(clock.now == TestClock.Instant(offset: .zero))
        clock.advance(by: .seconds(3))
        #expect(clock.now.offset == .seconds(3))
        clock.advance(to: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(3))
    }

    @Test func aSleeperWakesWhenTheClockReachesItsDeadline() async throws {
        let clock = TestClock()
        let woke = Promise<Void>()
        let task = Task {
            try await clock.sleep(for: .seconds(10))
            woke.resolve()
        }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(9))
        #expect(woke.isPending)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await woke.timeout(after: .seconds(30)).value
        try await task.value
    }

    @Test func aSleeperWhoseDeadlineHasPassedReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(2)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleepingTaskThrowsCancellationError() async throws {
        let clock = TestClock()
        let task = Task { try await clock.sleep(for: .seconds(10)) }
        try await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceToNextDeadlineWakesTheEarliestSleeper() async throws {
        let clock = TestClock()
        let order = Promise<Int>()
        let early = Task {
            try await clock.sleep(for: .seconds(1))
            order.resolve(with: 1)
        }
        let late = Task {
            try await clock.sleep(for: .seconds(5))
            order.resolve(with: 5)
        }
        try await clock.waitForSleepers(count: 2)
        #expect(clock.advanceToNextDeadline())
        #expect(try await order.timeout(after: .seconds(30)).value == 1)
        #expect(clock.now.offset == .seconds(1))
        late.cancel()
        try await early.value
        #expect(clock.advanceToNextDeadline() == false || clock.sleeperCount == 0)
    }

    @Test func waitingForSleepersThatNeverComeTimesOut() async {
        let clock = TestClock()
        await #expect(throws: TestClock.SleepersTimeout.self) {
            try await clock.waitForSleepers(count: 1, timeout: .milliseconds(50))
        }
    }

    @Test func sleepersTimeoutSaysWhatDidNotHappen() {
        let error = TestClock.SleepersTimeout(expected: 2, sleeping: 1)
        #expect(error.description == "Waited for 2 task(s) to sleep on the TestClock, but only 1 did.")
        #expect((error as any Error).localizedDescription == error.description)
    }
}
