import Foundation
import FunctionalNetworkingTesting
import Futures

/// Page 1: futures, promises and the functional helpers, with no network at all.
let futuresPage = Page(name: "futures", title: "Futures, promises and functions") {
    // A promise is the writable side of a future: whoever does the work completes it.
    let promise = Promise<Int>()
    promise.observe { result in print("observer saw:", result) }
    promise.resolve(with: 42)
    print("a second resolve is ignored:", promise.resolve(with: 0) == false)

    // Transformations make new futures; chains of any length stay flat on the stack.
    let described = Future(value: 7)
        .map { $0 * 6 }
        .flatMap { Future(value: "the answer is \($0)") }
    print("map + flatMap:", try await described.value)

    // Failures flow past map and are caught by recover.
    struct Offline: Error {}
    let recovered = Future<Int>(error: Offline()).map { $0 + 1 }.recover { _ in -1 }
    print("recover:", try await recovered.value)

    // The functional helpers: partial application and chaining.
    struct Product: Sendable {
        let id: Int
        let name: String
    }
    let catalogue = [7: "iPad Pro", 8: "Pencil"]
    let endpointPath: (Int) -> String = { "/products/\($0)" }
    let networking: (String) -> Future<String> = { path in
        Future(value: catalogue[Int(path.split(separator: "/").last ?? "") ?? 0] ?? "unknown")
    }
    let loadName = chain(endpointPath, to: networking)  // (Int) -> Future<String>
    let loadProduct = chain(loadName) { name in Future(value: Product(id: 0, name: name)) }
    let loadSeven = combine(7, with: loadProduct)  // () -> Future<Product>
    print("combine + chain:", try await loadSeven().value.name)

    // Many futures at once, in input order; the first failure wins.
    let names = try await Future.all([8, 7].map(loadName)).value
    print("all:", names)
    let (seven, eight) = try await zip(loadName(7), loadName(8)).value
    print("zip:", seven, "&", eight)

    // Time: a manual clock drives delays, timeouts and retries without waiting.
    let clock = TestClock()
    print("(the next three run on a TestClock, moved by hand: no real waiting)")
    let late = Promise<String>().timeout(after: .seconds(30), clock: clock)
    clock.advance(by: .seconds(30))
    do {
        _ = try await late.value
    } catch {
        print("timeout, after 30 s of test-clock time:", error)
    }

    let attempts = AttemptCounter()
    let retried = Future.retry(maxAttempts: 3, backoff: .immediate, clock: clock) {
        attempts.next() < 3 ? Future<String>(error: Offline()) : Future(value: "third time lucky")
    }
    print("retry:", try await retried.value, "(attempt \(attempts.count) of 3)")

    // async/await both ways, and cancellation that reaches the work.
    let slow = Future {
        try await clock.sleep(for: .seconds(60))
        return "never"
    }
    slow.cancel()
    print("a 60 s sleep on the test clock, cancelled:", slow.isCancelled)
}

/// Counts attempts for the retry example.
final class AttemptCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var made = 0
    /// The attempts made so far.
    var count: Int { lock.withLock { made } }
    func next() -> Int {
        lock.withLock {
            made += 1
            return made
        }
    }
}
