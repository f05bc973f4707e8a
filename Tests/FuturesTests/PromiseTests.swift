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
            promise.onCancel {
                _ = box
                runs.increment()
            }
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

@Suite("BrokenPromise")
struct BrokenPromiseTests {
    @Test func aPromiseDroppedPendingFailsItsObserversWithWhereItWasCreated() throws {
        let seen = Recorder<Result<Int, any Error>>()
        let line = #line + 2
        do {
            let promise = Promise<Int>()
            promise.map { $0 + 1 }.observe { seen.append($0) }
        }
        let result = try #require(seen.values.first)
        let error = try #require(result.error as? BrokenPromise)
        #expect(error.file?.hasSuffix("PromiseTests.swift") == true)
        #expect(error.line == line)
        #expect(error.description.contains("dropped before it was completed (created at "))
        #expect(seen.count == 1)
    }

    @Test func aPendingChainDroppedWithItsPromiseIsFreed() {
        weak var weakPromise: Promise<Int>?
        weak var weakDerived: Future<Int>?
        do {
            let promise = Promise<Int>()
            let derived = promise.map { $0 }.flatMap { Future(value: $0) }
            weakPromise = promise
            weakDerived = derived
        }
        #expect(weakPromise == nil)
        #expect(weakDerived == nil)
    }

    @Test func aPromiseDroppedUnderALongChainFailsTheLastStepWhileTheChainIsHeld() throws {
        let seen = Recorder<Result<Int, any Error>>()
        var last: Future<Int>
        do {
            let promise = Promise<Int>()
            last = promise
            for _ in 0..<5 {
                last = last.map { $0 + 1 }
            }
            last = last.flatMap { Future(value: $0) }.map { $0 }
        }
        // The derived futures hold each other, but not the promise: dropping it breaks the chain.
        last.observe { seen.append($0) }
        let result = try #require(seen.values.first)
        #expect(result.error is BrokenPromise)
        #expect(last.result?.error is BrokenPromise)
    }

    @Test func anInnerPromiseDroppedByFlatMapFailsTheChain() throws {
        let seen = Recorder<Result<Int, any Error>>()
        let first = Promise<Int>()
        let chained = first.flatMap { _ in Promise<Int>() }  // nobody keeps the inner promise
        chained.observe { seen.append($0) }
        first.resolve(with: 1)
        let result = try #require(seen.values.first)
        #expect(result.error is BrokenPromise)
    }

    @Test func aCompletedPromiseIsNotBroken() {
        let seen = Recorder<Result<Int, any Error>>()
        do {
            let promise = Promise<Int>()
            promise.observe { seen.append($0) }
            promise.resolve(with: 3)
        }
        #expect(seen.values.first?.success == 3)
        #expect(seen.count == 1)
    }

    @Test func descriptionWithoutASiteStillSaysWhatHappened() {
        #expect(BrokenPromise(file: nil, line: nil).description == "A promise was dropped before it was completed.")
    }
}
