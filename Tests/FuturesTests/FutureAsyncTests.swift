import FunctionalNetworkingTesting
import Futures
import Testing

@Suite("Future+Async")
struct FutureAsyncTests {
    @Test func awaitingACompletedFutureReturnsItsValue() async throws {
        #expect(try await Future(value: 4).value == 4)
    }

    @Test func awaitingAFailedFutureThrowsItsError() async {
        await #expect(throws: TestError.self) {
            try await Future<Int>(error: TestError()).value
        }
    }

    @Test func awaitingAPendingFutureResumesWhenItCompletes() async throws {
        let promise = Promise<String>()
        async let value = promise.value(within: .seconds(30))
        promise.resolve(with: "later")
        #expect(try await value == "later")
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFuture() async throws {
        let promise = Promise<Int>()
        let cancelled = Promise<Void>()
        promise.onCancel { cancelled.resolve() }
        let task = Task { try await promise.value }
        task.cancel()
        try await cancelled.value(within: .seconds(30))
        #expect(promise.isCancelled)
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func cancellingAnAwaitingTaskEndsItAtOnceButLeavesAFutureThatOthersNeed() async throws {
        let promise = Promise<Int>()
        let other = promise.map { $0 }
        let task = Task { try await promise.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(promise.isPending)
        promise.resolve(with: 8)
        #expect(other.result?.success == 8)
    }

    @Test func aTaskCancelledBeforeItAwaitsGetsCancellationErrorWithoutWaiting() async throws {
        let promise = Promise<Int>()
        let started = Promise<Void>()
        let task = Task {
            try? await started.value
            return try await promise.value
        }
        task.cancel()
        started.resolve()
        let outcome = await Future { try await task.value }.result(within: .seconds(30))
        #expect(isCancellation(outcome))
        #expect(promise.isCancelled)
    }

    @Test func awaitersRacingCompletionAndCancellationEachResumeOnceWithOneOutcome() async throws {
        for round in 0..<200 {
            let promise = Promise<Int>()
            let awaiters = (0..<4).map { _ in Task { try await promise.value } }
            let keeper = promise.map { $0 }  // keeps the promise from being cancelled by them
            async let resolve: Void = { promise.resolve(with: round) }()
            awaiters[round % 4].cancel()
            _ = await resolve
            for awaiter in awaiters {
                let outcome = await Future { try await awaiter.value }.result(within: .seconds(30))
                // Each awaiter ends with the value or, if its cancellation won, CancellationError.
                #expect(outcome.success == round || isCancellation(outcome))
            }
            #expect(keeper.result?.success == round)
        }
    }

    @Test func futureWithAsyncWorkCompletesWithItsValue() async throws {
        let future = Future { () async throws -> Int in
            await Task.yield()
            return 11
        }
        #expect(try await future.value(within: .seconds(30)) == 11)
    }

    @Test func futureWithAsyncWorkFailsWithItsError() async {
        let future = Future<Int> { throw TestError() }
        #expect(await future.result(within: .seconds(30)).error as? TestError == TestError())
    }

    @Test func cancellingTheFutureCancelsItsTask() async throws {
        let clock = TestClock()
        let sawCancellation = Promise<Bool>()
        let future = Future<Int> {
            do {
                try await clock.sleep(for: .seconds(60))
                sawCancellation.resolve(with: false)
            } catch {
                sawCancellation.resolve(with: error is CancellationError)
            }
            return 0
        }
        try await clock.waitForSleepers(count: 1)
        future.cancel()
        #expect(try await sawCancellation.value(within: .seconds(30)))
        #expect(isCancellation(future.result))
    }
}
