import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

/// The order in which deadlines expired.
private final class Expirations: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [Int] = []

    func note(_ name: Int) {
        lock.withLock { names.append(name) }
    }

    var all: [Int] {
        lock.withLock { names }
    }
}

@Suite("DeadlineWatchdog: one timer for every pending deadline")
struct DeadlineWatchdogTests {
    @Test func aHundredDeadlinesShareOneTimerAndExpireInTheirOrder() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let expired = Expirations()
        for second in 1...100 {
            _ = watchdog.watch(until: clock.now.advanced(by: .seconds(second))) { expired.note(second) }
        }
        try await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(50))
        try await waitUntil { expired.all.count == 50 }
        #expect(expired.all == Array(1...50))
        try await clock.waitForSleepers(count: 1)  // asleep again, until the 51st
        clock.advance(by: .seconds(50))
        try await waitUntil { expired.all.count == 100 }
        #expect(expired.all == Array(1...100))
    }

    @Test func releasingTheOwnerStopsTheTimer() async throws {
        // Asleep until a deadline its clock never reaches, the timer would otherwise keep its
        // task, the watchdog and the clock alive for ever.
        let clock = TestClock()
        var owner: DeadlineWatchdog<TestClock>.Owner? = DeadlineWatchdog<TestClock>.Owner(clock: clock)
        let entry = owner?.watchdog.watch(until: clock.now.advanced(by: .seconds(60))) {}
        try await clock.waitForSleepers(count: 1)
        if let entry { owner?.watchdog.remove(entry) }
        #expect(clock.sleeperCount == 1)  // a removed deadline is slept through, not restarted for
        owner = nil
        try await waitUntil { clock.sleeperCount == 0 }
    }

    @Test func aRemovedDeadlineNeverExpiresAndTheTimerEndsWhenNothingIsLeft() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let expired = Expirations()
        let first = watchdog.watch(until: clock.now.advanced(by: .seconds(1))) { expired.note(1) }
        _ = watchdog.watch(until: clock.now.advanced(by: .seconds(2))) { expired.note(2) }
        watchdog.remove(first)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        try await clock.waitForSleepers(count: 1)  // woke for the removed one, asleep again for the second
        #expect(expired.all.isEmpty)
        clock.advance(by: .seconds(1))
        try await waitUntil { expired.all == [2] }
        try await waitUntil { clock.sleeperCount == 0 }
    }

    @Test func anEarlierDeadlineThanTheTimersWakesItInTime() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let expired = Expirations()
        _ = watchdog.watch(until: clock.now.advanced(by: .seconds(10))) { expired.note(10) }
        try await clock.waitForSleepers(count: 1)
        _ = watchdog.watch(until: clock.now.advanced(by: .seconds(1))) { expired.note(1) }
        // A timer for the earlier one takes over; the other is cancelled and sleeps no more.
        try await waitUntil { clock.sleeperCount == 1 }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        try await waitUntil { expired.all == [1] }
        clock.advance(by: .seconds(9))
        try await waitUntil { expired.all == [1, 10] }
    }

    @Test func boundFailsWithTimeoutErrorAtTheDeadlineAndCancelsTheAnswer() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let answer = Promise<Int>()
        let bounded = watchdog.bound(answer, until: clock.now.advanced(by: .seconds(2)), limit: .seconds(2))
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        let failure = await bounded.result(within: .seconds(30)).failure
        #expect((failure as? TimeoutError)?.limit == .seconds(2))
        #expect(answer.isCancelled)
        #expect(answer.resolve(with: 7) == false)  // what it gives later is dropped
    }

    @Test func boundGivesAnAnswerThatComesFirstAndStopsWatchingIt() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let answer = Promise<Int>()
        let bounded = watchdog.bound(answer, until: clock.now.advanced(by: .seconds(2)), limit: .seconds(2))
        answer.resolve(with: 7)
        #expect(try await bounded.value(within: .seconds(30)) == 7)
        clock.advance(by: .seconds(2))
        try await waitUntil { clock.sleeperCount == 0 }
        #expect(bounded.result?.failure == nil)
    }

    @Test func anAnswerAlreadyThereIsNotWatched() {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let bounded = watchdog.bound(Future(value: 7), until: clock.now.advanced(by: .seconds(2)), limit: .seconds(2))
        #expect(bounded.result.flatMap { try? $0.get() } == 7)
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingTheBoundedFutureCancelsTheAnswerAndStopsWatching() async throws {
        let clock = TestClock()
        let watchdog = DeadlineWatchdog(clock: clock)
        let answer = Promise<Int>()
        let bounded = watchdog.bound(answer, until: clock.now.advanced(by: .seconds(2)), limit: .seconds(2))
        bounded.cancel()
        #expect(answer.isCancelled)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        try await waitUntil { clock.sleeperCount == 0 }
        #expect(bounded.result?.failure is CancellationError)
    }
}

/// Waits, 30 s at most, until `condition` holds.
private func waitUntil(_ condition: @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("The condition did not hold within 30 s.")
            return
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
