import Foundation
import Futures
import Testing

@Suite("Promise")
struct PromiseTests {
    enum NetworkError: Error { case offline }

    @Test func seedCodeWorksAsWritten() {
        let promise = Promise<Data>()
        let future: Future<Data> = promise
        let seen = Recorder<String>()
        future.observe { result in
            switch result {
            case .success(let data): seen.append("value \(data.count)")
            case .failure(let error): seen.append("error \(error)")
            }
        }
        promise.resolve(with: Data([1, 2, 3]))
        promise.reject(with: NetworkError.offline)
        #expect(seen.values == ["value 3"])
    }

    @Test func firstCompletionWinsAndLaterOnesReportFalse() throws {
        let promise = Promise<Int>()
        #expect(promise.reject(with: TestError()))
        #expect(promise.resolve(with: 1) == false)
        #expect(promise.complete(with: .success(2)) == false)
        #expect(promise.reject(with: TestError("later")) == false)
        #expect(promise.result?.error as? TestError == TestError())
    }

    @Test func promiseWithAValueIsAlreadyResolvedAndIsAPromise() {
        let ready = Promise(value: "iPad Pro")
        #expect(ready.result?.success == "iPad Pro")
        #expect(ready.resolve(with: "other") == false)
    }

    @Test func voidPromiseResolvesWithoutAnArgument() {
        let promise = Promise<Void>()
        #expect(promise.resolve())
        #expect(promise.result?.success != nil)
    }

    @Test func cancellationHandlersRunOnceWhenCancelled() {
        let promise = Promise<Int>()
        let runs = Recorder<String>()
        promise.onCancel { runs.append("a") }
        promise.onCancel { runs.append("b") }
        promise.cancel()
        promise.cancel()
        #expect(runs.values == ["a", "b"])
    }

    @Test func cancellationHandlerRunsAtOnceOnACancelledPromise() {
        let promise = Promise<Int>()
        promise.cancel()
        let runs = Counter()
        promise.onCancel { runs.increment() }
        #expect(runs.value == 1)
    }

    @Test func cancellationHandlersAreDroppedWhenThePromiseCompletes() {
        weak var weakCapture: Box?
        let promise = Promise<Int>()
        let runs = Counter()
        do {
            let box = Box()
            weakCapture = box
            promise.onCancel { _ = box; runs.increment() }
        }
        promise.resolve(with: 1)
        promise.cancel()
        promise.onCancel { runs.increment() }
        #expect(runs.value == 0)
        #expect(weakCapture == nil)
    }

    @Test func cancellationHandlersRunBeforeObservers() {
        let promise = Promise<Int>()
        let order = Recorder<String>()
        promise.observe { _ in order.append("observer") }
        promise.onCancel { order.append("handler") }
        promise.cancel()
        #expect(order.values == ["handler", "observer"])
    }
}
