import Futures
import Testing

// The samples of Futures.docc/GettingStarted.md, as the article shows them.

fileprivate func loadName(of id: Int) -> Future<String> {
    Future(value: id == 7 ? "iPad Pro" : "Pencil")
}

fileprivate func loadPrice(of name: String) -> Future<Int> {
    Future(value: name == "iPad Pro" ? 999 : 99)
}

@Suite("Samples: Getting started with Futures")
struct GettingStartedSamplesTests {
    @Test func resolvingThePromiseRunsTheObserverOnceWithTheValue() {
        let shown = Recorder<String>()
        let reported = Recorder<String>()
        @Sendable func show(_ name: String) { shown.append(name) }
        @Sendable func report(_ error: any Error) { reported.append("\(error)") }

        let promise = Promise<String>()
        let future: Future<String> = promise

        future.observe { result in
            switch result {
            case .success(let name): show(name)
            case .failure(let error): report(error)
            }
        }

        promise.resolve(with: "iPad Pro")  // runs the observer with .success("iPad Pro")

        #expect(shown.values == ["iPad Pro"])
        #expect(reported.values.isEmpty)
    }

    @Test func readyFuturesHaveAlreadyCompleted() {
        struct OutOfStock: Error {}

        let ready = Future(value: "iPad Pro")
        let failed = Future<String>(error: OutOfStock())

        #expect(ready.result?.success == "iPad Pro")
        #expect(failed.result?.error is OutOfStock)
    }

    @Test func flatMapMapAndRecoverReadTopToBottom() async throws {
        let label: Future<String> = loadName(of: 7)
            .flatMap { name in loadPrice(of: name) }  // one asynchronous step after another
            .map { price in "\(price) €" }  // a plain transformation of the value
            .recover { _ in "price unknown" }  // a value in place of any error

        let text = try await label.value  // "999 €"

        #expect(text == "999 €")
    }

    @Test func aFailureSkipsMapAndReachesRecover() async throws {
        struct OutOfStock: Error {}
        let label = Future<Int>(error: OutOfStock())
            .map { price in "\(price) €" }
            .recover { _ in "price unknown" }
        #expect(try await label.value(within: .seconds(30)) == "price unknown")
    }

    @Test func chainAndCombineMakeAFunctionThatNeedsNoArgument() async throws {
        let priceOfSeven = combine(7, with: chain(loadName, to: loadPrice))  // () -> Future<Int>
        let price = try await priceOfSeven().value  // 999

        #expect(price == 999)
    }

    @Test func timeoutAndRetryWrapTheWork() async throws {
        let quick = loadName(of: 7).timeout(after: .seconds(5))
        let patient = Future.retry(maxAttempts: 3, backoff: .exponential()) { loadName(of: 7) }

        #expect(try await quick.value(within: .seconds(30)) == "iPad Pro")
        #expect(try await patient.value(within: .seconds(30)) == "iPad Pro")
    }
}
