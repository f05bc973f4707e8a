import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("Future+Retry")
struct FutureRetryTests {
    /// An operation that fails `failures` times, then succeeds with the attempt number.
    final class Flaky: Sendable {
        let attempts = Counter()
        let failures: Int
        init(failures: Int) { self.failures = failures }

        func run() -> Future<Int> {
            let attempt = attempts.increment()
            return attempt <= failures ? Future(error: TestError("attempt \(attempt)")) : Future(value: attempt)
        }
    }

    @Test func retriesUntilAnAttemptSucceeds() {
        let flaky = Flaky(failures: 2)
        let result = Future.retry(maxAttempts: 3, backoff: .immediate, clock: TestClock()) { flaky.run() }
        #expect(result.result?.success == 3)
        #expect(flaky.attempts.value == 3)
    }

    @Test(arguments: [1, 0, -5, Int.min])
    func oneOrFewerAttemptsMeansOneAttemptAndNoRetry(maxAttempts: Int) {
        let flaky = Flaky(failures: 1)
        let result = Future.retry(maxAttempts: maxAttempts, backoff: .immediate, clock: TestClock()) { flaky.run() }
        #expect(result.result?.error as? TestError == TestError("attempt 1"))
        #expect(flaky.attempts.value == 1)
    }

    @Test func reportsTheLastErrorWhenTheAttemptsRunOut() {
        let flaky = Flaky(failures: 10)
        let result = Future.retry(maxAttempts: 4, backoff: .immediate, clock: TestClock()) { flaky.run() }
        #expect(result.result?.error as? TestError == TestError("attempt 4"))
        #expect(flaky.attempts.value == 4)
    }

    @Test func stopsWhenShouldRetrySaysNo() {
        let flaky = Flaky(failures: 10)
        let shouldRetry: @Sendable (any Error) -> Bool = { ($0 as? TestError)?.name != "attempt 2" }
        let result = Future.retry(maxAttempts: 5, backoff: .immediate, clock: TestClock(), shouldRetry: shouldRetry) {
            flaky.run()
        }
        #expect(result.result?.error as? TestError == TestError("attempt 2"))
        #expect(flaky.attempts.value == 2)
    }

    @Test func neverRetriesACancellation() {
        let attempts = Counter()
        let result = Future<Int>.retry(maxAttempts: 5, backoff: .immediate, clock: TestClock()) {
            attempts.increment()
            return Future(error: CancellationError())
        }
        #expect(isCancellation(result.result))
        #expect(attempts.value == 1)
    }

    @Test func waitsTheBackoffOnTheClockBetweenAttempts() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 2)
        let result = Future.retry(maxAttempts: 3, backoff: .constant(.seconds(10)), clock: clock) { flaky.run() }
        #expect(flaky.attempts.value == 1)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(10))
        try await clock.waitForSleepers(count: 1)
        #expect(flaky.attempts.value == 2)
        clock.advance(by: .seconds(10))
        #expect(try await result.value(within: .seconds(30)) == 3)
    }

    @Test func cancellingDuringTheBackoffStopsAtOnce() async throws {
        let clock = TestClock()
        let flaky = Flaky(failures: 10)
        let result = Future.retry(maxAttempts: 3, backoff: .constant(.seconds(10)), clock: clock) { flaky.run() }
        try await clock.waitForSleepers(count: 1)
        result.cancel()
        #expect(isCancellation(result.result))
        clock.advance(by: .seconds(100))
        for _ in 0..<100 { await Task.yield() }
        #expect(flaky.attempts.value == 1)
    }

    @Test func cancellingCancelsTheAttemptInFlight() {
        let attempt = Promise<Int>()
        let result = Future.retry(maxAttempts: 3, backoff: .immediate, clock: TestClock()) { attempt }
        result.cancel()
        #expect(attempt.isCancelled)
    }

    @Test func aBackoffTooLongForTheSystemsTimersWaitsUntilCancelled() async throws {
        let flaky = Flaky(failures: 10)
        let result = Future.retry(maxAttempts: 3, backoff: .constant(.seconds(Int64.max))) { flaky.run() }
        try await Task.sleep(for: .milliseconds(50))  // the wait has begun by now
        result.cancel()
        await #expect(throws: CancellationError.self) { try await result.value }
        #expect(flaky.attempts.value == 1)
    }

    @Test func aRetryWhoseOperationReturnsTheRetriedFutureFailsWithFutureCycleAndIsFreed() {
        let itself = WeakSlot<Future<Int>>()
        let firstAttempt = Promise<Int>()
        let attempts = Counter()
        do {
            let retried = Future.retry(maxAttempts: 3, backoff: .immediate, clock: TestClock()) { () -> Future<Int> in
                attempts.increment() == 1 ? firstAttempt : (itself.object ?? Future(value: -1))
            }
            itself.object = retried
            firstAttempt.reject(with: TestError())
            #expect(retried.result?.error as? FutureCycle == FutureCycle(length: 1))
        }
        #expect(attempts.value == 2)
        #expect(itself.object == nil)
    }
}
