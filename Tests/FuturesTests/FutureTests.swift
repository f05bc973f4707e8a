import Foundation
import Futures
import Testing

@Suite("Future")
struct FutureTests {
    @Test func futureMadeWithAValueHasSucceeded() throws {
        let future = Future(value: 42)
        #expect(future.isPending == false)
        #expect(try future.result?.get() == 42)
    }

    @Test func futureMadeWithAnErrorHasFailed() {
        let future = Future<Int>(error: TestError("x"))
        #expect(future.result?.error as? TestError == TestError("x"))
    }

    @Test func observingACompletedFutureRunsTheObserverAtOnce() {
        let future = Future(value: "done")
        let seen = Recorder<String>()
        future.observe { seen.append((try? $0.get()) ?? "failed") }
        #expect(seen.values == ["done"])
    }

    @Test func observersRunInRegistrationOrderExactlyOnce() {
        let promise = Promise<Int>()
        let order = Recorder<Int>()
        for index in 0..<100 {
            promise.observe { _ in order.append(index) }
        }
        promise.resolve(with: 1)
        promise.resolve(with: 2)
        #expect(order.values == Array(0..<100))
    }

    @Test func observersRegisteredWhileCallbacksRunKeepTheirOrder() {
        let promise = Promise<Int>()
        let order = Recorder<String>()
        promise.observe { _ in
            order.append("first")
            promise.observe { _ in order.append("registered during first") }
        }
        promise.observe { _ in order.append("second") }
        promise.resolve(with: 1)
        #expect(order.values == ["first", "second", "registered during first"])
    }

    @Test func observersRunOutsideTheLock() {
        let promise = Promise<Int>()
        let inner = Recorder<Int>()
        promise.observe { result in
            // Reading and observing the same future from its own observer would deadlock if
            // observers ran under the lock.
            #expect(promise.isPending == false)
            promise.observe { inner.append((try? $0.get()) ?? -1) }
        }
        promise.resolve(with: 5)
        #expect(inner.values == [5])
    }

    @Test func aPromiseCompletedInsideAnObserverRunsItsObserversBeforeCompleteReturns() {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let order = Recorder<String>()
        second.observe { _ in order.append("second's observer") }
        first.observe { result in
            second.complete(with: result)
            order.append("after second.complete")
            // Observing a completed future from inside an observer runs the observer at once.
            second.observe { _ in order.append("registered inside") }
            order.append("after observe")
        }
        first.resolve(with: 1)
        #expect(order.values == ["second's observer", "after second.complete", "registered inside", "after observe"])
    }

    /// A million promises, each completed by the observer of the one before, on a thread with a
    /// 512 KiB stack, which a thousand nested calls used to overflow (100,000 under the
    /// sanitizers: `FUNCTIONAL_NETWORKING_STRESS_FUTURES`).
    @Test func aMillionObserversEachCompletingTheNextPromiseCompleteOnASmallStack() async throws {
        let count = stressCount
        let last = await onSmallStack {
            let first = Promise<Int>()
            var previous = first
            for _ in 0..<count {
                let next = Promise<Int>()
                previous.observe { result in next.complete(with: result.map { $0 + 1 }) }
                previous = next
            }
            first.resolve(with: 0)
            return previous.result?.success
        }
        #expect(try #require(last) == count)
    }

    /// Each observer registers the next on a future that has completed already, so that each
    /// would run at once inside the one before.
    @Test func aMillionObserversEachRegisteredInsideTheOneBeforeRunOnASmallStack() async throws {
        let count = stressCount
        let deepest = await onSmallStack {
            let reached = Counter()
            @Sendable func observe(_ future: Future<Int>) {
                future.observe { result in
                    let value = (try? result.get()) ?? -1
                    reached.increment()
                    if value < count {
                        observe(Future(value: value + 1))
                    }
                }
            }
            observe(Future(value: 0))
            return reached.value
        }
        #expect(try #require(deepest) == count + 1)
    }

    @Test func deeplyNestedObserversRunOnceInOrderOnTheCompletingThreadBeforeTheOutermostCompletionReturns()
        async throws
    {
        let outcome = await onSmallStack {
            let levels = 1_000
            let runs = Recorder<Int>()
            let threads = Recorder<ObjectIdentifier>()
            let first = Promise<Int>()
            var previous = first
            for _ in 0..<levels {
                let next = Promise<Int>()
                previous.observe { result in
                    let level = (try? result.get()) ?? -1
                    runs.append(level)
                    threads.append(ObjectIdentifier(Thread.current))
                    next.resolve(with: level + 1)
                }
                // A second observer of the same future, which must run after the first.
                previous.observe { result in runs.append(-((try? result.get()) ?? 0) - 1) }
                previous = next
            }
            first.resolve(with: 0)
            // Everything ran before `resolve` returned, whatever the depth.
            let ranBeforeReturn = runs.count == 2 * levels
            return (ranBeforeReturn, runs.values, Set(threads.values), ObjectIdentifier(Thread.current))
        }
        let (ranBeforeReturn, runs, threads, completing) = try #require(outcome)
        #expect(ranBeforeReturn)
        #expect(threads == [completing])
        // Each level's two observers, once each, the first before the second.
        for level in 0..<1_000 {
            let first = try #require(runs.firstIndex(of: level))
            let second = try #require(runs.firstIndex(of: -level - 1))
            #expect(first < second)
        }
        #expect(Set(runs).count == 2_000)
    }

    /// Each dropped promise's observer holds the next pending promise, so that freeing the first
    /// frees the others one inside the other (100,000 under the sanitizers).
    @Test func aMillionDroppedPromisesEachHeldByTheObserverOfTheOneBeforeFailOnASmallStack() async throws {
        let count = stressCount
        let failures = await onSmallStack {
            let broken = Counter()
            do {
                let first = Promise<Int>()
                var previous = first
                for _ in 0..<count {
                    let next = Promise<Int>()
                    previous.observe { result in
                        withExtendedLifetime(next) {}
                        if result.error is BrokenPromise {
                            broken.increment()
                        }
                    }
                    previous = next
                }
            }
            return broken.value
        }
        #expect(try #require(failures) == count)
    }

    @Test func cancelRejectsAPendingFutureWithCancellationError() {
        let promise = Promise<Int>()
        #expect(promise.cancel())
        #expect(isCancellation(promise.result))
        #expect(promise.isCancelled)
        #expect(promise.resolve(with: 1) == false)
    }

    @Test func cancelDoesNothingToACompletedFuture() throws {
        let future = Future(value: 1)
        #expect(future.cancel() == false)
        #expect(try future.result?.get() == 1)
        #expect(future.isCancelled == false)
    }

    @Test func cancellingADerivedFutureCancelsItsSource() {
        let source = Promise<Int>()
        let cancelled = Counter()
        source.onCancel { cancelled.increment() }
        let derived = source.map { $0 * 2 }
        derived.cancel()
        #expect(source.isCancelled)
        #expect(cancelled.value == 1)
    }

    @Test func sharedFutureIsCancelledOnlyWhenEveryDependentHasCancelled() {
        let source = Promise<Int>()
        let first = source.map { $0 + 1 }
        let second = source.map { $0 + 2 }
        first.cancel()
        #expect(source.isPending)
        second.cancel()
        #expect(source.isCancelled)
    }

    @Test func observedFutureIsNotCancelledByItsDependents() {
        let source = Promise<Int>()
        let seen = Recorder<Int>()
        source.observe { seen.append((try? $0.get()) ?? -1) }
        source.map { $0 }.cancel()
        #expect(source.isPending)
        source.resolve(with: 3)
        #expect(seen.values == [3])
    }

    @Test func cancellationReachesTheTopOfALongChainWithoutRecursion() async {
        let cancelled = await onDedicatedThread {
            let source = Promise<Int>()
            var last: Future<Int> = source
            for _ in 0..<200_000 {
                last = last.map { $0 + 1 }
            }
            last.cancel()
            return source.isCancelled
        }
        #expect(cancelled)
    }

    @Test func completedChainsFreeTheirFuturesAndClosures() {
        weak var weakSource: Promise<Int>?
        weak var weakDerived: Future<Int>?
        weak var weakCapture: Box?
        do {
            let source = Promise<Int>()
            let box = Box()
            let derived = source.map { value in value + box.value }.flatMap { Future(value: $0) }
            weakSource = source
            weakDerived = derived
            weakCapture = box
            derived.observe { _ in }
            source.resolve(with: 1)
            #expect(derived.result?.success == 2)
        }
        #expect(weakSource == nil)
        #expect(weakDerived == nil)
        #expect(weakCapture == nil)
    }

    @Test func freedFuturesReleaseTheirValuesSmallAndLarge() {
        weak var weakSmall: Box?
        weak var weakLarge: Box?
        do {
            let small = Box()
            let large = Box()
            let smallFuture = Promise<Box>()
            // More than fits the future's own storage, so it is kept apart.
            let largeFuture = Future(value: (large, 1, 2, 3, 4, 5, 6, 7, 8))
            smallFuture.resolve(with: small)
            weakSmall = small
            weakLarge = large
            #expect(smallFuture.result?.success === small)
            #expect(largeFuture.result.flatMap { try? $0.get().0 } === large)
        }
        #expect(weakSmall == nil)
        #expect(weakLarge == nil)
    }

    @Test func freedFuturesReleaseTheirErrorsIncludingBrokenPromises() {
        /// An error that holds an object, so that the test can see it freed.
        struct HoldingError: Error {
            let box: Box
        }
        weak var weakHeld: Box?
        let errors = Recorder<any Error>()
        do {
            let held = Box()
            weakHeld = held
            let failed = Future<Int>(error: HoldingError(box: held))
            let derived = failed.map { $0 + 1 }
            #expect((derived.result?.error as? HoldingError)?.box === held)
            // A pending future dropped with an observer fails it with BrokenPromise.
            Promise<Int>().map { $0 + 1 }.observe { result in result.error.map(errors.append) }
        }
        #expect(weakHeld == nil)
        #expect(errors.count == 1)
        #expect(errors.values.first is BrokenPromise)
    }

    @Test func cancelledChainsFreeTheirFuturesAndClosures() {
        weak var weakSource: Promise<Int>?
        weak var weakDerived: Future<Int>?
        do {
            let source = Promise<Int>()
            let derived = source.map { $0 }.delay(for: .seconds(60))
            weakSource = source
            weakDerived = derived
            derived.cancel()
        }
        #expect(weakSource == nil)
        #expect(weakDerived == nil)
    }

    /// A million futures completed on one thread while another observes and cancels them
    /// (100,000 under the sanitizers: `.ci/run` sets `FUNCTIONAL_NETWORKING_STRESS_FUTURES`).
    @Test func everyObserverRunsExactlyOnceUnderConcurrentCompletionObservationAndCancellation() async {
        let count = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_STRESS_FUTURES"].flatMap(Int.init) ?? 1_000_000
        // Made on a thread of its own too: a million allocations would hold a pool thread.
        let (promises, runs) = await onDedicatedThread {
            ((0..<count).map { _ in Promise<Int>() }, (0..<count).map { _ in Counter() })
        }
        let extraRuns = Counter()
        await HeavyWork.gate.run {
            async let completing: Void = startThread {
                for (index, promise) in promises.enumerated() {
                    promise.resolve(with: index)
                }
            }
            async let observing: Void = startThread {
                for (index, promise) in promises.enumerated() {
                    promise.observe { _ in runs[index].increment() }
                    if index % 3 == 0 {
                        promise.cancel()
                    }
                    promise.observe { _ in extraRuns.increment() }
                }
            }
            _ = await (completing, observing)
        }
        #expect(runs.allSatisfy { $0.value == 1 })
        #expect(extraRuns.value == count)
        #expect(promises.allSatisfy { $0.isPending == false })
    }
}

/// How many futures a stress test makes: a million, or `FUNCTIONAL_NETWORKING_STRESS_FUTURES`
/// (`.ci/run` sets 100,000 under the sanitizers, which slow the tests tenfold).
let stressCount = ProcessInfo.processInfo.environment["FUNCTIONAL_NETWORKING_STRESS_FUTURES"].flatMap(Int.init) ?? 1_000_000

/// A reference type to watch being freed.
final class Box: Sendable {
    let value = 1
}
