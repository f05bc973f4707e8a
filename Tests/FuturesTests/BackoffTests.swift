import Futures
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test func immediateNeverWaits() {
        #expect((1...5).map(Backoff.immediate.delay(afterAttempt:)) == Array(repeating: .zero, count: 5))
    }

    @Test func constantWaitsTheSameEveryTime() {
        let backoff = Backoff.constant(.seconds(3))
        #expect((1...3).map(backoff.delay(afterAttempt:)) == [.seconds(3), .seconds(3), .seconds(3)])
    }

    @Test func exponentialGrowsByTheMultiplierUpToTheMaximum() {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: 2, maximum: .seconds(10), jitter: .none)
        #expect(
            (1...6).map(backoff.delay(afterAttempt:)) == [
                .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10),
            ])
    }

    @Test func exponentialWithFullJitterStaysBetweenZeroAndTheComputedDelay() {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: 2, maximum: .seconds(10), jitter: .full)
        var distinct = Set<Duration>()
        for _ in 0..<200 {
            let delay = backoff.delay(afterAttempt: 3)
            #expect(delay >= .zero && delay <= .seconds(4))
            distinct.insert(delay)
        }
        #expect(distinct.count > 1)
    }

    @Test func exponentialHandlesHugeAttemptNumbers() {
        let backoff = Backoff.exponential(initial: .milliseconds(100), maximum: .seconds(30), jitter: .none)
        #expect(backoff.delay(afterAttempt: 10_000) == .seconds(30))
    }

    @Test func customStrategiesCannotGoNegative() {
        let backoff = Backoff { attempt in .seconds(1 - attempt) }
        #expect(backoff.delay(afterAttempt: 5) == .zero)
        #expect(Backoff { .seconds($0) }.delay(afterAttempt: 2) == .seconds(2))
    }
}
