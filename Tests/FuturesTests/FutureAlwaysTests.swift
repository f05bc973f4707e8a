import Futures
import Testing

@Suite("Future+Always")
struct FutureAlwaysTests {
    @Test func alwaysRunsOnSuccessAndKeepsTheValue() {
        let seen = Counter()
        let future = Future(value: 3).always { _ in seen.increment() }
        #expect(seen.value == 1)
        #expect(future.result?.success == 3)
    }

    @Test func alwaysRunsOnFailureAndKeepsTheError() {
        let seen = Counter()
        let future = Future<Int>(error: TestError()).always { _ in seen.increment() }
        #expect(seen.value == 1)
        #expect(future.result?.error as? TestError == TestError())
    }

    @Test func alwaysRunsBeforeObserversOfTheReturnedFuture() {
        let promise = Promise<Int>()
        let order = Recorder<String>()
        promise.always { _ in order.append("always") }.observe { _ in order.append("observer") }
        promise.resolve(with: 1)
        #expect(order.values == ["always", "observer"])
    }

    @Test func cancellingTheReturnedFutureCancelsTheSource() {
        let promise = Promise<Int>()
        let seen = Recorder<Bool>()
        promise.always { seen.append(isCancellation($0)) }.cancel()
        #expect(promise.isCancelled)
        #expect(seen.values == [true])
    }
}
