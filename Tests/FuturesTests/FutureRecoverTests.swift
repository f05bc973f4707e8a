import Futures
import Testing

@Suite("Future+Recover")
struct FutureRecoverTests {
    struct Wrapped: Error { let underlying: any Error }

    @Test func mapErrorReplacesTheError() {
        let future = Future<Int>(error: TestError()).mapError { Wrapped(underlying: $0) }
        #expect((future.result?.error as? Wrapped)?.underlying as? TestError == TestError())
    }

    @Test func mapErrorLeavesAValueAlone() {
        #expect(Future(value: 1).mapError { Wrapped(underlying: $0) }.result?.success == 1)
    }

    @Test func mapErrorLeavesCancellationAlone() {
        let promise = Promise<Int>()
        let mapped = promise.mapError { Wrapped(underlying: $0) }
        mapped.observe { _ in }
        promise.cancel()
        #expect(isCancellation(mapped.result))
    }

    @Test func recoverReplacesAFailureWithAValue() {
        #expect(Future<Int>(error: TestError()).recover { _ in 0 }.result?.success == 0)
    }

    @Test func recoverFailsWithTheErrorItThrows() {
        let future = Future<Int>(error: TestError("first")).recover { _ in throw TestError("second") }
        #expect(future.result?.error as? TestError == TestError("second"))
    }

    @Test func recoverDoesNotRecoverACancellation() {
        let promise = Promise<Int>()
        let recovered = promise.recover { _ in 0 }
        recovered.observe { _ in }
        promise.cancel()
        #expect(isCancellation(recovered.result))
    }

    @Test func flatMapErrorFallsBackToAnotherFuture() {
        let primary = Promise<Int>()
        let fallback = Promise<Int>()
        let result = primary.flatMapError { _ in fallback }
        primary.reject(with: TestError())
        #expect(result.isPending)
        fallback.resolve(with: 9)
        #expect(result.result?.success == 9)
    }

    @Test func flatMapErrorLeavesAValueAndACancellationAlone() {
        let calls = Counter()
        let value = Future(value: 1).flatMapError { _ -> Future<Int> in
            calls.increment()
            return Future(value: 0)
        }
        let promise = Promise<Int>()
        let cancelled = promise.flatMapError { _ -> Future<Int> in
            calls.increment()
            return Future(value: 0)
        }
        cancelled.observe { _ in }
        promise.cancel()
        #expect(value.result?.success == 1)
        #expect(isCancellation(cancelled.result))
        #expect(calls.value == 0)
    }

    @Test func aFlatMapErrorWhoseHandlerReturnsItsOwnFutureFailsWithFutureCycleAndIsFreed() {
        let trigger = Promise<Int>()
        let itself = WeakSlot<Future<Int>>()
        let seen = Recorder<Result<Int, any Error>>()
        do {
            let looping = trigger.flatMapError { _ in itself.object ?? Future(value: -1) }
            itself.object = looping
            looping.observe { seen.append($0) }
            trigger.reject(with: TestError())
        }
        #expect(seen.values.first?.error as? FutureCycle == FutureCycle(length: 1))
        #expect(seen.count == 1)
        #expect(itself.object == nil)
    }

    @Test func flatMapErrorFailsWithTheErrorItThrows() {
        let future = Future<Int>(error: TestError("first")).flatMapError { _ in throw TestError("second") }
        #expect(future.result?.error as? TestError == TestError("second"))
    }
}
