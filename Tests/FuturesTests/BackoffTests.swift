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

    @Test(arguments: [0.5, 0, -3, Double.nan])
    func aMultiplierBelowOneOrNotANumberKeepsTheWaitConstant(multiplier: Double) {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: multiplier, maximum: .seconds(10), jitter: .none)
        #expect((1...4).map(backoff.delay(afterAttempt:)) == Array(repeating: .seconds(1), count: 4))
    }

    @Test(arguments: [1e300, Double.infinity, Double.greatestFiniteMagnitude])
    func aHugeMultiplierReachesTheMaximumWithoutOverflowing(multiplier: Double) {
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: multiplier, maximum: .seconds(10), jitter: .full)
        #expect(backoff.delay(afterAttempt: 1) <= .seconds(1))
        for attempt in [2, 3, 1_000_000] {
            #expect(backoff.delay(afterAttempt: attempt) <= .seconds(10))
        }
        let exact = Backoff.exponential(initial: .seconds(1), multiplier: multiplier, maximum: .seconds(10), jitter: .none)
        #expect(exact.delay(afterAttempt: 2) == .seconds(10))
    }

    @Test func negativeInitialAndMaximumWaitsCountAsZero() {
        let negativeInitial = Backoff.exponential(initial: .seconds(-5), maximum: .seconds(10), jitter: .none)
        #expect((1...3).map(negativeInitial.delay(afterAttempt:)) == [.zero, .zero, .zero])
        let negativeMaximum = Backoff.exponential(initial: .seconds(1), maximum: .seconds(-1), jitter: .full)
        #expect((1...3).map(negativeMaximum.delay(afterAttempt:)) == [.zero, .zero, .zero])
    }
}
