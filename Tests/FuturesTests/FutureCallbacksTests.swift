import Testing

@testable import Futures

@Suite("Future+Callbacks")
struct FutureCallbacksTests {
    /// Counts its own deinitialisations, to show when a future lets an observer go.
    final class Token: Sendable {
        let deinits: Counter
        init(deinits: Counter) { self.deinits = deinits }
        deinit { deinits.increment() }
    }

    @Test func storedObserversRunInRegistrationOrderAmongCallbacksAndAreReleasedOnceRun() {
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        let deinits = Counter()
        for name in ["first", "second"] {
            let token = Token(deinits: deinits)
            promise.observe { result in
                withExtendedLifetime(token) {
                    seen.append("\(name) \((try? result.get()) ?? -1)")
                }
            }
        }
        let mapped = promise.map { value in
            seen.append("map")
            return value + 1
        }
        let token = Token(deinits: deinits)
        promise.observe { _ in
            withExtendedLifetime(token) { seen.append("third") }
        }
        _ = consume token
        #expect(deinits.value == 0)
        promise.resolve(with: 1)
        #expect(seen.values == ["first 1", "second 1", "map", "third"])
        #expect(mapped.result?.success == 2)
        #expect(deinits.value == 3)
        promise.lock.withLock {
            #expect(promise.firstObserver == nil)
            #expect(promise.laterObservers == nil)
            #expect(promise.runningObservers == nil)
        }
    }

    @Test func observersRegisteredWhileOthersRunJoinTheRunInOrder() {
        let promise = Promise<String>()
        let seen = Recorder<String>()
        promise.observe { _ in
            seen.append("1")
            promise.observe { _ in seen.append("4") }  // completed and running: joins the run
        }
        promise.observe { _ in
            seen.append("2")
            promise.observe { _ in seen.append("5") }
        }
        promise.observe { _ in seen.append("3") }
        promise.resolve(with: "done")
        #expect(seen.values == ["1", "2", "3", "4", "5"])
    }

    @Test func observersOfAFutureDroppedPendingFailWithBrokenPromise() {
        let seen = Recorder<Bool>()
        do {
            let promise = Promise<Int>()
            for _ in 0..<3 {
                promise.observe { result in seen.append(result.error is BrokenPromise) }
            }
        }
        #expect(seen.values == [true, true, true])
    }
}
