import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("Future+Timeout")
struct FutureTimeoutTests {
    @Test func timeoutFailsWithTimeoutErrorAndCancelsTheSource() async throws {
        let clock = TestClock()
        let source = Promise<Int>()
        let limited = source.timeout(after: .seconds(2), clock: clock)
        clock.advance(by: .seconds(2))
        let result = await limited.result(within: .seconds(30))
        let error = try #require(result.error as? TimeoutError)
        #expect(error.description == "The operation did not complete within 2.0 seconds.")
        #expect(source.isCancelled)
    }

    @Test func aFutureThatCompletesInTimeKeepsItsResult() async throws {
        let clock = TestClock()
        let source = Promise<Int>()
        let limited = source.timeout(after: .seconds(2), clock: clock)
        source.resolve(with: 5)
        #expect(limited.result?.success == 5)
        clock.advance(by: .seconds(3))
        #expect(limited.result?.success == 5)
    }

    @Test func theDeadlineIsFixedWhenTimeoutIsCalled() async throws {
        let clock = TestClock()
        let limited = Promise<Int>().timeout(after: .seconds(2), clock: clock)
        clock.advance(by: .seconds(1))
        try await clock.waitForSleepers(count: 1)
        #expect(limited.isPending)
        clock.advance(by: .seconds(1))
        #expect(await limited.result(within: .seconds(30)).error is TimeoutError)
    }

    @Test func timeoutDoesNotCancelASourceThatSomethingElseNeeds() async throws {
        let clock = TestClock()
        let source = Promise<Int>()
        let other = source.map { $0 }
        let limited = source.timeout(after: .seconds(1), clock: clock)
        clock.advance(by: .seconds(1))
        #expect(await limited.result(within: .seconds(30)).error is TimeoutError)
        #expect(source.isPending)
        other.cancel()
        #expect(source.isCancelled)
    }

    @Test func cancellingTheLimitedFutureCancelsTheSource() {
        let source = Promise<Int>()
        source.timeout(after: .seconds(1), clock: TestClock()).cancel()
        #expect(source.isCancelled)
    }

    @Test func aLimitTooLongForTheSystemsTimersWaitsInsteadOfStoppingTheProcess() async throws {
        let promise = Promise<Int>()
        let limited = promise.timeout(after: .seconds(Int64.max))
        try await Task.sleep(for: .milliseconds(50))  // the timer is asleep by now
        promise.resolve(with: 7)
        #expect(try await limited.value == 7)
    }
}
