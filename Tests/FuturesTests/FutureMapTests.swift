import Futures
import Testing

@Suite("Future+Map")
struct FutureMapTests {
    @Test func mapTransformsTheValue() {
        let promise = Promise<Int>()
        let doubled = promise.map { $0 * 2 }
        promise.resolve(with: 21)
        #expect(doubled.result?.success == 42)
    }

    @Test func mapPassesAFailureThroughWithoutCallingTheTransform() {
        let calls = Counter()
        let mapped = Future<Int>(error: TestError()).map { value -> Int in
            calls.increment()
            return value
        }
        #expect(mapped.result?.error as? TestError == TestError())
        #expect(calls.value == 0)
    }

    @Test func mapFailsWithTheErrorTheTransformThrows() {
        let mapped = Future(value: 1).map { _ -> Int in throw TestError("thrown") }
        #expect(mapped.result?.error as? TestError == TestError("thrown"))
    }

    @Test func flatMapRunsTheNextStepWithTheValue() {
        let first = Promise<Int>()
        let second = Promise<String>()
        let chained = first.flatMap { value in second.map { "\($0) \(value)" } }
        first.resolve(with: 7)
        #expect(chained.isPending)
        second.resolve(with: "product")
        #expect(chained.result?.success == "product 7")
    }

    @Test func flatMapFailsWithTheInnerFuturesError() {
        let chained = Future(value: 1).flatMap { _ in Future<Int>(error: TestError("inner")) }
        #expect(chained.result?.error as? TestError == TestError("inner"))
    }

    @Test func flatMapFailsWithTheErrorTheTransformThrows() {
        let chained = Future(value: 1).flatMap { _ -> Future<Int> in throw TestError("thrown") }
        #expect(chained.result?.error as? TestError == TestError("thrown"))
    }

    @Test func flatMapPassesAFailureThroughWithoutCallingTheTransform() {
        let calls = Counter()
        let chained = Future<Int>(error: TestError()).flatMap { value -> Future<Int> in
            calls.increment()
            return Future(value: value)
        }
        #expect(chained.result?.error as? TestError == TestError())
        #expect(calls.value == 0)
    }

    @Test func aTransformIsReleasedOnceItHasRunWhileTheDerivedFutureLives() {
        final class Captured: Sendable {}
        weak var weakMapCapture: Captured?
        weak var weakFlatMapCapture: Captured?
        let promise = Promise<Int>()
        let mapped: Future<Int>
        let flatMapped: Future<Int>
        do {
            let forMap = Captured()
            let forFlatMap = Captured()
            weakMapCapture = forMap
            weakFlatMapCapture = forFlatMap
            mapped = promise.map { value in withExtendedLifetime(forMap) { value + 1 } }
            flatMapped = promise.flatMap { value in withExtendedLifetime(forFlatMap) { Future(value: value + 2) } }
        }
        #expect(weakMapCapture != nil)
        #expect(weakFlatMapCapture != nil)
        promise.resolve(with: 1)
        #expect(mapped.result?.success == 2)
        #expect(flatMapped.result?.success == 3)
        // A transform that captured its owner would otherwise keep a cycle alive.
        #expect(weakMapCapture == nil)
        #expect(weakFlatMapCapture == nil)
    }

    @Test func aDerivedFutureHeldAloneStillCancelsThePromiseAtTheTopOfItsChain() {
        let promise = Promise<Int>()
        let last = promise.map { $0 }.flatMap { Future(value: $0) }.map { $0 }.map { $0 }
        #expect(last.cancel())
        #expect(promise.isCancelled)
    }

    @Test func cancellingAFlatMapCancelsTheInnerFutureOnceItStarted() {
        let first = Promise<Int>()
        let inner = Promise<Int>()
        let chained = first.flatMap { _ in inner }
        first.resolve(with: 1)
        chained.cancel()
        #expect(inner.isCancelled)
        #expect(isCancellation(chained.result))
    }

    @Test func cancellingAFlatMapBeforeItsSourceCompletesNeverStartsTheNextStep() {
        let first = Promise<Int>()
        let observer = first.map { $0 }  // keeps `first` alive and uncancelled
        observer.observe { _ in }
        let started = Counter()
        let chained = first.flatMap { value -> Future<Int> in
            started.increment()
            return Future(value: value)
        }
        chained.cancel()
        first.resolve(with: 1)
        #expect(started.value == 0)
    }

    @Test func aFlatMapWhoseHandlerReturnsItsOwnFutureFailsWithFutureCycleAndIsFreed() {
        let trigger = Promise<Int>()
        let itself = WeakSlot<Future<Int>>()
        let seen = Recorder<Result<Int, any Error>>()
        let derived: Future<Int>
        do {
            let looping = trigger.flatMap { _ in itself.object ?? Future(value: -1) }
            itself.object = looping
            looping.observe { seen.append($0) }
            derived = looping.map { $0 + 1 }
            trigger.resolve(with: 1)
        }
        #expect(seen.values.first?.error as? FutureCycle == FutureCycle(length: 1))
        #expect(seen.count == 1)
        #expect(derived.result?.error as? FutureCycle == FutureCycle(length: 1))
        #expect(itself.object == nil)
    }

    @Test func twoFlatMapsThatReturnEachOtherFailWithFutureCycleAndAreFreed() {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let one = WeakSlot<Future<Int>>()
        let other = WeakSlot<Future<Int>>()
        let results = Recorder<Result<Int, any Error>>()
        do {
            let a = first.flatMap { _ in other.object ?? Future(value: -1) }
            let b = second.flatMap { _ in one.object ?? Future(value: -1) }
            one.object = a
            other.object = b
            a.observe { results.append($0) }
            b.observe { results.append($0) }
            first.resolve(with: 1)  // a now follows b, which waits for `second`
            #expect(a.isPending)
            second.resolve(with: 2)  // b would follow a, which follows b
        }
        #expect(results.count == 2)
        #expect(results.values.allSatisfy { $0.error as? FutureCycle == FutureCycle(length: 2) })
        #expect(one.object == nil)
        #expect(other.object == nil)
    }

    @Test func aFlatMapWhoseHandlerReturnsAFutureMadeFromItFailsWithFutureCycle() {
        let trigger = Promise<Int>()
        let itself = WeakSlot<Future<Int>>()
        do {
            // The handler's future is derived from the flatMap's, through three maps.
            let looping = trigger.flatMap { _ in
                (itself.object ?? Future(value: -1)).map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
            }
            itself.object = looping
            trigger.resolve(with: 1)
            #expect(looping.result?.error as? FutureCycle == FutureCycle(length: 4))
        }
        #expect(itself.object == nil)
    }

    @Test func aCycleLongerThanTheLongestLookedForWaitsAndCancellingOneOfItsFuturesFreesIt() {
        let trigger = Promise<Int>()
        let itself = WeakSlot<Future<Int>>()
        do {
            let looping = trigger.flatMap { _ in
                var future = itself.object ?? Future(value: -1)
                for _ in 0..<100 {
                    future = future.map { $0 + 1 }
                }
                return future
            }
            itself.object = looping
            trigger.resolve(with: 1)
            #expect(looping.isPending)  // not recognised: it waits, as any pending future
            #expect(looping.cancel())
        }
        #expect(itself.object == nil)
    }

    @Test func aMillionStepMapChainResolvesWithoutOverflowingTheStack() async {
        let result = await onDedicatedThread {
            let source = Promise<Int>()
            var last: Future<Int> = source
            for _ in 0..<1_000_000 {
                last = last.map { $0 + 1 }
            }
            source.resolve(with: 0)
            return last.result?.success
        }
        #expect(result == 1_000_000)
    }

    @Test func aMillionStepFlatMapChainResolvesWithoutOverflowingTheStack() async {
        let result = await onDedicatedThread {
            let source = Promise<Int>()
            var last: Future<Int> = source
            for _ in 0..<1_000_000 {
                last = last.flatMap { Future(value: $0 + 1) }
            }
            source.resolve(with: 0)
            return last.result?.success
        }
        #expect(result == 1_000_000)
    }

    /// A loop written as recursion: each step's handler makes the next step with `flatMap` on a
    /// future that has completed already, so that each would run inside the one before (100,000
    /// under the sanitizers).
    @Test func aMillionFlatMapsEachMadeInsideTheHandlerOfTheOneBeforeCompleteOnASmallStack() async throws {
        let count = stressCount
        let result = await onSmallStack {
            @Sendable func countDown(from remaining: Int) -> Future<Int> {
                Future(value: remaining).flatMap { value in
                    value == 0 ? Future(value: 0) : countDown(from: value - 1).map { $0 + 1 }
                }
            }
            return countDown(from: count).result?.success
        }
        #expect(try #require(result) == count)
    }

    @Test func aLongFlatMapChainOfPendingInnerFuturesResolvesOneStepAtATime() async {
        let (pendingChecks, result) = await onDedicatedThread {
            let source = Promise<Int>()
            let inners = (0..<100_000).map { _ in Promise<Int>() }
            var last: Future<Int> = source
            for inner in inners {
                last = last.flatMap { value in inner.map { $0 + value } }
            }
            source.resolve(with: 0)
            var pendingChecks = 0
            for inner in inners {
                if last.isPending { pendingChecks += 1 }
                inner.resolve(with: 1)
            }
            return (pendingChecks, last.result?.success)
        }
        #expect(pendingChecks == 100_000)
        #expect(result == 100_000)
    }
}
