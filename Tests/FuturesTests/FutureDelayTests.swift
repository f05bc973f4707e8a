import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("Future+Delay")
struct FutureDelayTests {
    @Test func delayHoldsTheValueBackUntilTheClockMoves() async throws {
        let clock = TestClock()
        let delayed = Future(value: 1).delay(for: .seconds(5), clock: clock)
        clock.advance(by: .seconds(4))
        try await clock.waitForSleepers(count: 1)
        #expect(delayed.isPending)
        clock.advance(by: .seconds(1))
        #expect(try await delayed.value(within: .seconds(30)) == 1)
    }

    @Test func delayHoldsAFailureBackToo() async throws {
        let clock = TestClock()
        let delayed = Future<Int>(error: TestError()).delay(for: .seconds(1), clock: clock)
        #expect(delayed.isPending)
        clock.advance(by: .seconds(1))
        let result = await delayed.result(within: .seconds(30))
        #expect(result.error as? TestError == TestError())
    }

    @Test func delayPassesACancellationThroughAtOnce() {
        let clock = TestClock()
        let promise = Promise<Int>()
        let delayed = promise.delay(for: .seconds(1), clock: clock)
        promise.cancel()
        #expect(isCancellation(delayed.result))
    }

    @Test func cancellingADelayStopsTheWaitAndCancelsTheSource() async throws {
        let clock = TestClock()
        let promise = Promise<Int>()
        let delayed = promise.delay(for: .seconds(1), clock: clock)
        delayed.cancel()
        #expect(promise.isCancelled)

        let started = Future(value: 1).delay(for: .seconds(1), clock: clock)
        try await clock.waitForSleepers(count: 1)
        started.cancel()
        #expect(isCancellation(started.result))
        for _ in 0..<1_000 where clock.sleeperCount > 0 {
            await Task.yield()
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDelayTooLongForTheSystemsTimersWaitsUntilCancelled() async throws {
        let delayed = Future(value: 7).delay(for: .seconds(Int64.max))
        try await Task.sleep(for: .milliseconds(50))  // the wait has begun by now
        delayed.cancel()
        await #expect(throws: CancellationError.self) { try await delayed.value }
    }
}
